"""TF_CONFIG: read it as TensorFlow does, and check it strictly before a multi-worker start.

- ``load()``: the ``TF_CONFIG`` environment variable as a dict (missing or empty: ``{}``, as in
  TensorFlow). Text that is not JSON raises ``json.JSONDecodeError`` (what TensorFlow raises),
  whose message goes on to say how to write it.
- ``check_task(spec, task_type, task_id)``: TensorFlow's own checks of a task against its
  cluster, in TensorFlow's order and with its messages (``multi_worker_util`` §6.4).
- ``validate(config, strategy=None)``: every mistake a learner makes in a TF_CONFIG, one
  ``ValueError``/``TypeError`` each, naming the field and showing the corrected TF_CONFIG. It
  is stricter than TensorFlow where TensorFlow fails silently: a "task" without "cluster" (TF
  would train alone), a negative index, two tasks on one address, a "ps" job given to
  MultiWorkerMirroredStrategy. Returns a ``ClusterTask``, or None for an empty cluster
  (single-worker mode).
- ``multi_worker_task(cluster_resolver=None)``: what MultiWorkerMirroredStrategy calls.
"""
from __future__ import annotations

import ast
import copy
import json
import os
from dataclasses import dataclass

from sim.distribute import tf_config_addresses, tf_config_fixes as fixes
from sim.distribute.cluster_errors import with_fix
from sim.distribute.cluster_spec import ClusterSpec

JOBS = fixes.JOBS
MWMS = "MultiWorkerMirroredStrategy"
EXAMPLE = {"cluster": {"worker": ["localhost:12345", "localhost:23456"]},
           "task": {"type": "worker", "index": 0}}


class JSONDecodeError(json.JSONDecodeError):
    """``json.JSONDecodeError`` (TensorFlow's error here) whose message also explains the fix."""

    def __init__(self, error, explanation):
        super().__init__(error.msg, error.doc, error.pos)
        self.args = (f"{self.args[0]}\n{explanation}",)


def load(environ=None):
    """TF_CONFIG as a dict, read now from ``environ`` (default ``os.environ``)."""
    text = (os.environ if environ is None else environ).get("TF_CONFIG", "")
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise JSONDecodeError(e, with_fix(None, "not_json", _literal_dict(text) or EXAMPLE)) from None
    except RecursionError:
        raise ValueError(with_fix(None, "too_deep", EXAMPLE, depth=_depth_limit())) from None


def _depth_limit():
    import sys
    return sys.getrecursionlimit()


def _literal_dict(text):
    """A Python dict literal written where JSON was expected (single quotes): the learner's
    own TF_CONFIG, to show back as JSON."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


@dataclass(frozen=True)
class ClusterTask:
    """One task of a checked cluster and the facts a multi-worker strategy needs (§6.4)."""
    cluster_spec: ClusterSpec
    task_type: str
    task_id: int
    rpc_layer: str | None = None

    @property
    def is_chief(self):
        from sim.distribute import multi_worker_util
        return multi_worker_util.is_chief(self.cluster_spec, self.task_type, self.task_id)

    @property
    def id_in_cluster(self):
        from sim.distribute import multi_worker_util
        return multi_worker_util.id_in_cluster(self.cluster_spec, self.task_type, self.task_id)

    @property
    def worker_count(self):
        from sim.distribute import multi_worker_util
        return multi_worker_util.worker_count(self.cluster_spec, self.task_type)

    @property
    def collective_leader(self):
        from sim.distribute import multi_worker_util
        return multi_worker_util.collective_leader(self.cluster_spec, self.task_type, self.task_id)


# -- TensorFlow's checks (multi_worker_util._validate_cluster_spec) ------------------------------
def check_task(cluster_spec, task_type, task_id, rpc_layer=None):
    """TensorFlow's checks of ``(task_type, task_id)`` against the cluster, in its order; a
    negative ``task_id`` passes, as in TensorFlow."""
    spec = ClusterSpec(cluster_spec) if not isinstance(cluster_spec, ClusterSpec) else cluster_spec
    cluster = spec.as_dict()
    config = {"cluster": cluster, "task": {"type": task_type, "index": task_id}}
    if task_type not in JOBS:
        raise ValueError(with_fix(
            "Unrecognized task_type: %r, valid task types are: \"chief\", \"worker\", "
            "\"evaluator\" and \"ps\"." % (task_type,), "unknown_task_type",
            fixes.with_task(config, fixes.closest(task_type, cluster), task_id), type=task_type))
    if task_type not in cluster:
        raise ValueError(with_fix(
            "`task_type` %r not found in cluster_spec." % (task_type,), "task_type_not_in_cluster",
            fixes.with_task(config, fixes.closest(task_type, cluster), task_id),
            type=task_type, jobs=", ".join(f'"{j}"' for j in cluster) or "-"))
    for job, key in (("chief", "two_chiefs"), ("evaluator", "two_evaluators")):
        if len(cluster.get(job, [])) > 1:
            raise ValueError(with_fix("There must be at most one %r job." % job, key,
                                      fixes.keep_one(config, job), n=len(cluster[job])))
    n = spec.num_tasks(task_type)
    if task_id >= n:
        raise ValueError(with_fix(
            "The `task_id` %d exceeds the maximum id of %s." % (task_id, task_type),
            "index_past_end", fixes.with_task(config, task_type, n - 1),
            index=task_id, job=task_type, n=n, last=n - 1))
    return ClusterTask(spec, task_type, task_id, rpc_layer)


# -- the strict check ---------------------------------------------------------------------------
def validate(config, strategy=None):
    """Check a TF_CONFIG dict; a ``ClusterTask``, or None for an empty cluster (one worker).

    ``strategy="MultiWorkerMirroredStrategy"`` also refuses parameter servers."""
    if not isinstance(config, dict):
        raise ValueError(with_fix(None, "not_object", EXAMPLE, kind=type(config).__name__))
    if config.get("cluster") is None or config.get("cluster") == {}:
        if "task" not in config:
            return None
        raise ValueError(with_fix(None, "no_cluster", {**EXAMPLE, "task": config["task"]}))
    _check_cluster_shape(config)
    task_type, task_id = _task_fields(config)
    task = check_task(config["cluster"], task_type, task_id, config.get("rpc_layer"))
    spec = task.cluster_spec
    if task_id < 0:
        raise ValueError(with_fix(None, "negative_index", fixes.with_task(config, task_type, 0),
                                  index=task_id, job=task_type, last=spec.num_tasks(task_type) - 1))
    _check_addresses(config, spec)
    if strategy == MWMS:
        _check_no_ps(config, task_type)
    tf_config_addresses.check(config, spec)       # "host:port", a port from 1 to 65535
    return task


def _check_cluster_shape(config):
    cluster = config["cluster"]
    if not isinstance(cluster, dict):
        raise TypeError(with_fix(
            "`cluster` must be a dictionary mapping one or more job names to lists of network "
            "addresses, or a `ClusterDef` protocol buffer", "cluster_not_dict",
            {**EXAMPLE, **({"task": config["task"]} if "task" in config else {})},
            kind=type(cluster).__name__))
    for job, tasks in cluster.items():
        if job not in JOBS:
            fixed = copy.deepcopy(config)
            fixed["cluster"] = {(fixes.closest(job, JOBS) if j == job else j): t for j, t in cluster.items()}
            raise ValueError(with_fix(None, "unknown_job", fixed, job=job))
        if isinstance(tasks, str):
            fixed = copy.deepcopy(config)
            fixed["cluster"][job] = [tasks]
            raise TypeError(with_fix(
                "The tasks for job %r must be a list or a dictionary from integers to strings." % job,
                "job_not_list", fixed, job=job, kind=type(tasks).__name__))
        if not isinstance(tasks, (list, tuple, dict)):
            fixed = copy.deepcopy(config)
            fixed["cluster"][job] = ["localhost:12345"]
            raise TypeError(with_fix(
                "The tasks for job %r must be a list or a dictionary from integers to strings." % job,
                "job_not_list", fixed, job=job, kind=type(tasks).__name__))
        addresses = tasks.values() if isinstance(tasks, dict) else tasks
        for i, address in enumerate(addresses):
            if not isinstance(address, str):
                fixed = copy.deepcopy(config)
                fixed["cluster"][job] = [a if isinstance(a, str) else f"localhost:{12345 + k}"
                                         for k, a in enumerate(addresses)]
                raise TypeError(with_fix("Task address %r must be bytes or unicode" % (address,),
                                         "address_not_str", fixed, job=job, address=repr(address)))


def _task_fields(config):
    """``(type, index)`` from "task", as TensorFlow converts them (``str``, ``int``)."""
    task = config.get("task")
    cluster = config["cluster"]
    if not isinstance(task, dict) or "type" not in task or "index" not in task:
        first = next((j for j in ("chief", "worker") if j in cluster), next(iter(cluster)))
        raise ValueError(with_fix(
            "When `cluster_spec` is given, you must also specify `task_type` and `task_id`.",
            "no_task", {"cluster": cluster, "task": {"type": first, "index": 0}}))
    index = task["index"]
    ok = (isinstance(index, int) and not isinstance(index, bool)) or (
        isinstance(index, str) and index.strip().lstrip("-").isdigit())
    if not ok:
        raise ValueError(with_fix(None, "index_not_int", fixes.with_task(config, str(task["type"]), 0),
                                  value=json.dumps(index)))
    return str(task["type"]), int(index)


def _check_addresses(config, spec):
    seen = {}
    for job in spec.jobs:
        for i in spec.task_indices(job):
            address = spec.task_address(job, i)
            if address in seen:
                fixed = copy.deepcopy(config)
                fixed["cluster"] = fixes.moved(spec, job, i)
                first = f"{seen[address][0]} {seen[address][1]}"
                raise ValueError(with_fix(None, "duplicate_address", fixed, first=first,
                                          second=f"{job} {i}", address=address))
            seen[address] = (job, i)


def _check_no_ps(config, task_type):
    cluster = {j: t for j, t in config["cluster"].items() if j != "ps"}
    if task_type == "ps":
        fixed = {**copy.deepcopy(config), "cluster": cluster or EXAMPLE["cluster"],
                 "task": {"type": "worker", "index": 0}}
        raise ValueError(with_fix("There is no id for task_type 'ps'", "ps_task_mwms", fixed))
    if "ps" in config["cluster"]:         # TensorFlow would wait for it: say so, do not hang
        ps = config["cluster"]["ps"]
        address = ", ".join(ps) if isinstance(ps, (list, tuple)) else str(ps)
        raise ValueError(with_fix(None, "ps_job_mwms", {**copy.deepcopy(config), "cluster": cluster},
                                  address=address))


# -- what MultiWorkerMirroredStrategy calls -------------------------------------------------------
def multi_worker_task(cluster_resolver=None, strategy=MWMS):
    """The checked task of this process, or None in single-worker mode (empty cluster).

    With a ``TFConfigClusterResolver`` (the default) the raw TF_CONFIG is checked, the
    resolver's own task_type/task_id overriding it; any other resolver is checked through
    its ``cluster_spec()``, ``task_type`` and ``task_id``."""
    from sim.distribute.cluster_resolver import TFConfigClusterResolver
    resolver = cluster_resolver if cluster_resolver is not None else TFConfigClusterResolver()
    if isinstance(resolver, TFConfigClusterResolver):
        config = load()
        if isinstance(config, dict) and (resolver._task_type is not None or resolver._task_id is not None):
            config = copy.deepcopy(config)
            task = config.get("task") if isinstance(config.get("task"), dict) else {}
            if resolver._task_type is not None:
                task["type"] = str(resolver._task_type)
            if resolver._task_id is not None:
                task["index"] = int(resolver._task_id)
            config["task"] = task
    else:
        spec = resolver.cluster_spec()
        spec = spec if isinstance(spec, ClusterSpec) else ClusterSpec(spec)
        config = {"cluster": spec.as_dict()} if spec else {}
        task = {k: v for k, v in (("type", resolver.task_type), ("index", resolver.task_id))
                if v is not None}
        if task or spec:
            config["task"] = task
    found = validate(config, strategy)
    if found is None:
        return None
    return ClusterTask(found.cluster_spec, found.task_type, found.task_id, resolver.rpc_layer)
