"""``multi_worker_util``: who is the chief, how many workers, each task's id (§6.4, T9-T12).

The same rules as TensorFlow's module; a bad task raises TensorFlow's ValueError, followed by
the field at fault and a corrected TF_CONFIG (``sim.distribute.tf_config.check_task``).
"""
from __future__ import annotations

from sim.distribute.cluster_errors import with_fix
from sim.distribute.cluster_spec import ClusterSpec
from sim.distribute.tf_config import EXAMPLE, check_task


def normalize_cluster_spec(cluster_spec):
    """A dict or a ClusterSpec as a ClusterSpec."""
    if isinstance(cluster_spec, ClusterSpec):
        return cluster_spec
    if isinstance(cluster_spec, dict):
        return ClusterSpec(cluster_spec)
    from sim.distribute.cluster_errors import annotate
    raise ValueError(annotate("`cluster_spec' should be dict or a `tf.train.ClusterSpec` or a "
                             "`tf.train.ClusterDef` object", "spec_type",
                             kind=type(cluster_spec).__name__))


def is_chief(cluster_spec, task_type, task_id):
    """The chief task; the evaluator (its own chief); worker 0 when there is no chief job."""
    check_task(cluster_spec, task_type, task_id)
    jobs = normalize_cluster_spec(cluster_spec).jobs
    if task_type in ("chief", "evaluator"):
        return True
    return "chief" not in jobs and task_type == "worker" and task_id == 0


def collective_leader(cluster_spec, task_type, task_id):
    """The task that leads collective ops: "" for an empty cluster or the evaluator."""
    spec = normalize_cluster_spec(cluster_spec)
    if not spec.as_dict():
        return ""
    check_task(spec, task_type, task_id)
    if task_type == "evaluator":
        return ""
    if "chief" in spec.jobs:
        return "/job:chief/replica:0/task:0"
    return "/job:worker/replica:0/task:0"


def worker_count(cluster_spec, task_type):
    """Tasks that train together: chief + workers (the evaluator counts only evaluators)."""
    check_task(cluster_spec, task_type, 0)
    cluster = normalize_cluster_spec(cluster_spec).as_dict()
    if task_type not in ("chief", "worker", "evaluator"):
        raise ValueError(with_fix("Unexpected `task_type` %r" % task_type, "ps_task_mwms",
                                  _without_ps(cluster)))
    if task_type == "evaluator":
        return len(cluster["evaluator"])
    return len(cluster.get("chief", [])) + len(cluster.get("worker", []))


def id_in_cluster(cluster_spec, task_type, task_id):
    """The task's rank among the training tasks: the chief 0, then the workers."""
    check_task(cluster_spec, task_type, task_id)
    cluster = normalize_cluster_spec(cluster_spec).as_dict()
    if task_type == "chief":
        return 0
    if task_type == "worker":
        return task_id + len(cluster.get("chief", []))
    if task_type == "evaluator":
        return task_id
    raise ValueError(with_fix("There is no id for task_type %r" % task_type, "ps_task_mwms",
                              _without_ps(cluster)))


def _without_ps(cluster):
    rest = {j: t for j, t in cluster.items() if j != "ps"} or EXAMPLE["cluster"]
    return {"cluster": rest, "task": {"type": "worker", "index": 0}}


def in_multi_worker_mode():
    """True when TF_CONFIG describes a cluster (with no TF1 "master" job)."""
    from sim.distribute.tf_config import load
    config = load()
    cluster = config.get("cluster", {}) if isinstance(config, dict) else {}
    return bool(cluster) and "master" not in cluster
