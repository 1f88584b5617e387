"""Corrected TF_CONFIGs for the errors a learner meets: each error prints the learner's own
TF_CONFIG with the one mistake mended (a job name's typo, an index past its job, a second chief,
a port taken twice), so the fix can be copied as it stands."""
from __future__ import annotations

import copy
import difflib

from sim.distribute.cluster_spec import ClusterSpec

JOBS = ("chief", "worker", "ps", "evaluator")


def moved(spec, job, index):
    """The cluster with task ``(job, index)`` moved to a free port of its host."""
    cluster = spec.as_dict()
    host, _, port = spec.task_address(job, index).rpartition(":")
    ports = [int(a.rpartition(":")[2]) for j in spec.jobs for a in spec.job_tasks(j)
             if a and a.rpartition(":")[2].isdigit()]
    new = f"{host or 'localhost'}:{max(ports, default=12344) + 1}" if port.isdigit() else f"{job}{index}.example.com:12345"
    cluster[job][index] = new
    return cluster


def closest(name, choices):
    """The job most like ``name`` (a typo's fix), else "worker" or the first choice."""
    choices = [c for c in choices if c in JOBS] or list(JOBS)
    near = difflib.get_close_matches(str(name).lower(), choices, n=1, cutoff=0.4)
    if near:
        return near[0]
    return "worker" if "worker" in choices else choices[0]


def with_task(config, task_type, index):
    fixed = copy.deepcopy(config)
    cluster = fixed.get("cluster") or {}
    if task_type in cluster:
        index = max(0, min(index, ClusterSpec(cluster).num_tasks(task_type) - 1))
    fixed["task"] = {"type": task_type, "index": index}
    return fixed


def keep_one(config, job):
    """Keep the first ``job`` task; the others become workers (after the existing ones)."""
    fixed = copy.deepcopy(config)
    extra = list(ClusterSpec(fixed["cluster"]).as_dict()[job])
    workers = list(ClusterSpec(fixed["cluster"]).as_dict().get("worker", []))
    fixed["cluster"][job] = extra[:1]
    if job == "chief":
        fixed["cluster"]["worker"] = workers + extra[1:]
        task = fixed.get("task", {})
        if task.get("type") == job and isinstance(task.get("index"), int) and task["index"] >= 1:
            fixed["task"] = {"type": "worker", "index": len(workers) + task["index"] - 1}
    elif fixed.get("task", {}).get("type") == job:
        fixed["task"] = {"type": job, "index": 0}
    return fixed
