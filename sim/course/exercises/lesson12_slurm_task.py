"""Exercise 12: the TF_CONFIG that SlurmClusterResolver gives one task of an allocation.

The learner writes ``slurm_tf_config(nodes, gpus_per_node, rank, port_base=8888)``: ``nodes``
are the allocation's host names as Slurm lists them, one task per GPU on each node, and the
answer is the TF_CONFIG dict of the task whose SLURM_PROCID is ``rank``. The expected answer is
what ``tf.distribute.cluster_resolver.SlurmClusterResolver`` itself returns for that job step
(sim's, cross-checked against TensorFlow 2.21's in tests/tf_crosscheck); a wrong answer gets a
hint naming what is off: the order of the nodes, the ports, the number of tasks, the index.
"""
from __future__ import annotations

from typing import Callable

from sim.course.exercises.checker import Case, run_cases
from sim.i18n import join_list, t

CASES = [
    (["n01", "n02"], 4, 3, 8888),          # the lesson's 2 nodes x 4 GPUs, task 3
    (["n01", "n02"], 4, 4, 8888),          # the first task of the second node
    (["gpu7", "gpu8", "gpu9"], 2, 5, 2222),
    (["node-b", "node-a"], 1, 0, 8888),    # Slurm's order is not the resolver's: sorted names
    (["n9", "n10"], 2, 1, 8888),           # sorted as text: n10 comes before n9
]
def reference(nodes, gpus_per_node, rank, port_base=8888):
    """What the resolver says, in the job step's environment (restored afterwards)."""
    from sim.course.real_cluster import slurm_step
    from sim.distribute.cluster_resolver import SlurmClusterResolver
    with slurm_step(SLURM_PROCID=rank, SLURM_STEP_NUM_TASKS=len(nodes) * gpus_per_node,
                    SLURM_STEP_NODELIST=",".join(nodes),
                    SLURM_STEP_TASKS_PER_NODE=f"{gpus_per_node}(x{len(nodes)})",
                    CUDA_VISIBLE_DEVICES=",".join(str(g) for g in range(gpus_per_node))):
        resolver = SlurmClusterResolver(port_base=port_base)
        cluster = resolver.cluster_spec().as_dict()
        return {"cluster": cluster, "task": {"type": resolver.task_type, "index": resolver.task_id}}


def cases() -> list[Case]:
    return [Case(t("lesson12.ex_case", nodes=join_list(n), gpus=g, rank=r, port=p),
                 args=(list(n), g, r, p), expected=reference(n, g, r, p)) for n, g, r, p in CASES]


def _normal(config):
    try:
        cluster = {str(job): [str(a) for a in addresses] for job, addresses in config["cluster"].items()}
        return cluster, (str(config["task"]["type"]), int(config["task"]["index"]))
    except Exception:   # noqa: BLE001 - any unreadable answer is simply "not equal"
        return None


def compare(got, expected) -> bool:
    return isinstance(got, dict) and _normal(got) is not None and _normal(got) == _normal(expected)


def diagnose(case: Case, got) -> str | None:
    """The catalogue key of the hint for the first thing wrong."""
    nodes, gpus, rank, port = case.args
    if not isinstance(got, dict):
        return "lesson12.ex_hint_dict"
    if not isinstance(got.get("cluster"), dict) or not isinstance(got.get("task"), dict):
        return "lesson12.ex_hint_parts"
    want = case.expected["cluster"]["worker"]
    workers = got["cluster"].get("worker")
    if set(got["cluster"]) != {"worker"} or not isinstance(workers, list):
        return "lesson12.ex_hint_jobs"
    if len(workers) != len(want):
        return "lesson12.ex_hint_count"
    if sorted(map(str, workers)) == sorted(want) and workers != want:
        return "lesson12.ex_hint_node_order"
    if workers != want:
        return "lesson12.ex_hint_ports"
    return "lesson12.ex_hint_index"


def check_slurm_tf_config(fn: Callable) -> int:
    """Check ``fn(nodes, gpus_per_node, rank, port_base=8888) -> TF_CONFIG dict``."""
    return run_cases(fn, cases(), compare=compare, diagnose=diagnose)
