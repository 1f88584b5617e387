"""Exercise 06: write the TF_CONFIG of every task of a described cluster.

The learner writes ``write_tf_configs(workers, chief=None, port=12345)`` returning one JSON
string per task (the value of the TF_CONFIG environment variable on that machine), in the order
chief (if any), then the workers in the given order. ``workers`` is a list of host names,
``chief`` a host name or None; every task listens on ``port``.

An answer is compared as TensorFlow reads it (``json.loads``, then the "cluster" as a
``ClusterSpec`` and the task's ``str`` type and ``int`` index), so key order and spacing do not
matter. A wrong answer gets a hint naming the TF_CONFIG field at fault.
"""
from __future__ import annotations

import json
from typing import Callable

from sim.distribute.cluster_spec import ClusterSpec
from sim.course.exercises.checker import Case, run_cases
from sim.i18n import join_list, t

CASES = [
    (["10.1.10.58", "10.1.10.250"], None, 12345),
    (["node1", "node2", "node3"], "node0", 2222),
    (["gpu-a"], None, 5000),
    (["w0", "w1"], "c0", 12345),
]


def reference(workers, chief=None, port=12345):
    """The answer: the same "cluster" in every task, a different "task" in each."""
    cluster = {"worker": [f"{h}:{port}" for h in workers]}
    tasks = [("worker", i) for i in range(len(workers))]
    if chief is not None:
        cluster = {"chief": [f"{chief}:{port}"], **cluster}
        tasks = [("chief", 0)] + tasks
    return [json.dumps({"cluster": cluster, "task": {"type": kind, "index": i}}) for kind, i in tasks]


def cases() -> list[Case]:
    return [Case(t("lesson06.ex_case", workers=join_list(w), port=p,
                   chief=t("lesson06.ex_chief", chief=c) if c else t("lesson06.ex_no_chief")),
                 args=(list(w), c, p), expected=reference(w, c, p)) for w, c, p in CASES]


def _read(text):
    """One task's TF_CONFIG as TensorFlow reads it, or None if it cannot be read."""
    try:
        config = json.loads(text)
        spec = ClusterSpec(config["cluster"]).as_dict()
        return spec, (str(config["task"]["type"]), int(config["task"]["index"]))
    except Exception:   # noqa: BLE001 - any unreadable answer is simply "not equal"
        return None


def compare(got, expected) -> bool:
    if not isinstance(got, (list, tuple)) or len(got) != len(expected):
        return False
    if not all(isinstance(g, str) for g in got):
        return False
    return [_read(g) for g in got] == [_read(e) for e in expected]


def diagnose(case: Case, got) -> str | None:
    """The catalogue key of the hint for the first thing wrong, field by field."""
    workers, chief, port = case.args
    expected = [json.loads(e) for e in case.expected]
    if not isinstance(got, (list, tuple)):
        return "lesson06.ex_hint_list"
    if len(got) != len(expected):
        return "lesson06.ex_hint_count"
    if any(isinstance(g, dict) for g in got):
        return "lesson06.ex_hint_dict"
    if not all(isinstance(g, str) for g in got):
        return "lesson06.ex_hint_not_text"
    try:
        configs = [json.loads(g) for g in got]
    except ValueError:
        return "lesson06.ex_hint_json"
    if not all(isinstance(c, dict) and isinstance(c.get("cluster"), dict)
               and isinstance(c.get("task"), dict) for c in configs):
        return "lesson06.ex_hint_parts"
    clusters = [json.dumps(c["cluster"], sort_keys=True) for c in configs]
    if len(set(clusters)) > 1:
        return "lesson06.ex_hint_cluster_differs"
    cluster, want = configs[0]["cluster"], expected[0]["cluster"]
    hint = _cluster_hint(cluster, want, chief, port)
    if hint:
        return hint
    tasks = [c["task"] for c in configs]
    want_tasks = [e["task"] for e in expected]
    if any("type" not in task or "index" not in task for task in tasks):
        return "lesson06.ex_hint_parts"
    if sorted(map(_key, tasks)) == sorted(map(_key, want_tasks)):
        return "lesson06.ex_hint_task_order"
    if [str(task["type"]) for task in tasks] != [task["type"] for task in want_tasks]:
        return "lesson06.ex_hint_task_type"
    return "lesson06.ex_hint_task_index"


def _key(task):
    try:
        return str(task["type"]), int(task["index"])
    except (TypeError, ValueError):
        return str(task.get("type")), -1


def _addresses(cluster):
    out = []
    for job in cluster.values():
        out += list(job.values()) if isinstance(job, dict) else list(job) if isinstance(job, list) else [job]
    return [a for a in out if isinstance(a, str)]


def _cluster_hint(cluster, want, chief, port):
    jobs = set(cluster)
    if not jobs <= {"chief", "worker"}:
        return "lesson06.ex_hint_job_names"
    addresses = _addresses(cluster)
    if any(a.rpartition(":")[2] != str(port) for a in addresses):
        return "lesson06.ex_hint_port"
    if chief is not None and f"{want['chief'][0]}" in (cluster.get("worker") or []):
        return "lesson06.ex_hint_chief_in_workers"
    if ("chief" in cluster) != ("chief" in want) or (chief is not None and cluster.get("chief") != want["chief"]):
        return "lesson06.ex_hint_chief_job"
    if cluster.get("worker") != want["worker"]:
        if sorted(cluster.get("worker") or []) == sorted(want["worker"]):
            return "lesson06.ex_hint_worker_order"
        return "lesson06.ex_hint_worker_list"
    return None


def check_tf_configs(fn: Callable) -> int:
    """Check ``fn(workers, chief=None, port=12345) -> [TF_CONFIG text per task]``."""
    return run_cases(fn, cases(), compare=compare, diagnose=diagnose)
