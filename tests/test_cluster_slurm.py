"""SlurmClusterResolver without TensorFlow (the cross-check is tests/tf_crosscheck/test_slurm_resolver.py),
and exercise 12's checker: a right answer passes, a wrong one gets the hint naming its mistake."""
import re

import pytest

import sim.tf as tf
from sim.course.exercises import lesson12_slurm_task as ex
from sim.course.exercises.checker import ExerciseFailed
from sim.course.real_cluster import slurm_step
from sim.distribute.cluster_resolver.slurm import expand_hostlist, expand_tasks_per_node


def test_host_lists_and_tasks_per_node_expand_as_tensorflows_docstrings_say():
    assert expand_hostlist("n[1-2],m5,o[3-4,6,7-9]") == ["n1", "n2", "m5", "o3", "o4", "o6", "o7", "o8", "o9"]
    assert expand_hostlist("gpu[008-010]") == ["gpu008", "gpu009", "gpu010"]
    assert expand_tasks_per_node("3(x2),2,1") == [3, 3, 2, 1]
    with pytest.raises(ValueError, match=r'^Invalid hostlist format "n\[1-2": Invalid part: n\[1-2$'):
        expand_hostlist("n[1-2")
    with pytest.raises(ValueError, match=r'^Invalid tasks-per-node list format "4\(x2": $'):
        expand_tasks_per_node("4(x2")


def test_task_3_of_two_nodes_of_four_gpus():
    with slurm_step(SLURM_PROCID=3, SLURM_STEP_NUM_TASKS=8, SLURM_STEP_NODELIST="n[01-02]",
                    SLURM_STEP_TASKS_PER_NODE="4(x2)", CUDA_VISIBLE_DEVICES="0,1,2,3"):
        import os
        resolver = tf.distribute.cluster_resolver.SlurmClusterResolver()
        assert resolver.get_task_info() == (None, None)          # until cluster_spec() runs
        spec = resolver.cluster_spec().as_dict()
        assert spec == {"worker": [f"n0{n}:{8888 + p}" for n in (1, 2) for p in range(4)]}
        assert (resolver.task_type, resolver.task_id, os.environ["CUDA_VISIBLE_DEVICES"]) == ("worker", 3, "3")
        assert resolver.master() == "grpc://n01:8891" and resolver.num_accelerators() == {"GPU": 1}


def test_outside_a_slurm_step_the_error_is_tensorflows():
    with slurm_step():
        import os
        os.environ.pop("SLURM_PROCID", None)
        with pytest.raises(RuntimeError, match="^SLURM_PROCID not found in environment. Not running inside a SLURM step"):
            tf.distribute.cluster_resolver.SlurmClusterResolver()


def _right(nodes, gpus, rank, port_base=8888):
    workers = [f"{h}:{port_base + k}" for h in sorted(nodes) for k in range(gpus)]
    return {"cluster": {"worker": workers}, "task": {"type": "worker", "index": rank}}


def test_the_checker_passes_a_right_answer():
    ex.check_slurm_tf_config(_right)


@pytest.mark.parametrize("wrong, words", [
    (lambda n, g, r, p=8888: {"cluster": {"worker": [f"{h}:{p + k}" for h in n for k in range(g)]},
                              "task": {"type": "worker", "index": r}}, "sorts the nodes by name"),
    (lambda n, g, r, p=8888: {"cluster": {"worker": [f"{h}:{p}" for h in sorted(n) for k in range(g)]},
                              "task": {"type": "worker", "index": r}}, "port_base + 1"),
    (lambda n, g, r, p=8888: {**_right(n, g, r, p), "task": {"type": "worker", "index": r + 1}}, "rank-th address"),
    (lambda n, g, r, p=8888: [_right(n, g, r, p)], "return a dict"),
])
def test_a_wrong_answer_gets_the_hint_naming_its_mistake(wrong, words):
    with pytest.raises(ExerciseFailed, match=re.escape(words)):
        ex.check_slurm_tf_config(wrong)
