"""SlurmClusterResolver given the same Slurm environments, on one framework; prints JSON.

    python tests/tf_crosscheck/slurm_probe.py tf|sim

Each case sets os.environ to exactly its SLURM_* variables (and CUDA_VISIBLE_DEVICES when it
has one), builds the resolver with the case's arguments and records what TensorFlow's users
read: task type and id before and after cluster_spec(), the cluster, CUDA_VISIBLE_DEVICES
afterwards, master() with and without an rpc layer, num_accelerators(), the environment; or
the exception's class and text. The last line of stdout is ``SLURM-JSON <json>``.
"""
from __future__ import annotations

import json
import os
import sys

STEP = {"SLURM_PROCID": "3", "SLURM_STEP_NUM_TASKS": "8", "SLURM_STEP_NODELIST": "n[01-02]",
        "SLURM_STEP_TASKS_PER_NODE": "4(x2)"}
FOUR_GPUS = {"CUDA_VISIBLE_DEVICES": "0,1,2,3"}

CASES = {
    # the lesson's exercise: 2 nodes x 4 GPUs, one task per GPU, task 3
    "two_nodes_four_gpus_rank3": (dict(STEP, **FOUR_GPUS), {}),
    "two_nodes_four_gpus_rank4": (dict(STEP, SLURM_PROCID="4", **FOUR_GPUS), {}),
    "two_nodes_four_gpus_rank7": (dict(STEP, SLURM_PROCID="7", **FOUR_GPUS), {}),
    "two_gpus_per_task": (dict(STEP, SLURM_PROCID="1", SLURM_STEP_NUM_TASKS="4",
                               SLURM_STEP_TASKS_PER_NODE="2(x2)", **FOUR_GPUS), {}),
    "heterogeneous_nodes": ({"SLURM_PROCID": "4", "SLURM_STEP_NUM_TASKS": "5",
                             "SLURM_STEP_NODELIST": "n[1-2],m5", "SLURM_STEP_TASKS_PER_NODE": "2(x2),1"},
                            {"gpus_per_node": 2}),
    "names_sorted_as_text": ({"SLURM_PROCID": "1", "SLURM_STEP_NUM_TASKS": "3",
                              "SLURM_STEP_NODELIST": "n[9-11]", "SLURM_STEP_TASKS_PER_NODE": "1(x3)"},
                             {"gpus_per_node": 1}),
    "zero_padded_range": ({"SLURM_PROCID": "2", "SLURM_STEP_NUM_TASKS": "3",
                           "SLURM_STEP_NODELIST": "gpu[008-010]", "SLURM_STEP_TASKS_PER_NODE": "1(x3)"},
                          {"gpus_per_node": 1}),
    "ranges_and_lists": ({"SLURM_PROCID": "5", "SLURM_STEP_NUM_TASKS": "7",
                          "SLURM_STEP_NODELIST": "o[3-4,6,7-9],x", "SLURM_STEP_TASKS_PER_NODE": "1(x7)"},
                         {"gpus_per_node": 1}),
    "chief_ps_worker": (dict(STEP, SLURM_PROCID="0", SLURM_STEP_NUM_TASKS="4",
                             SLURM_STEP_TASKS_PER_NODE="2(x2)"),
                        {"jobs": {"worker": 2, "ps": 1, "chief": 1}, "gpus_per_node": 2}),
    "chief_ps_worker_rank1": (dict(STEP, SLURM_PROCID="1", SLURM_STEP_NUM_TASKS="4",
                                   SLURM_STEP_TASKS_PER_NODE="2(x2)"),
                              {"jobs": {"worker": 2, "ps": 1, "chief": 1}, "gpus_per_node": 2}),
    "chief_ps_worker_rank3": (dict(STEP, SLURM_PROCID="3", SLURM_STEP_NUM_TASKS="4",
                                   SLURM_STEP_TASKS_PER_NODE="2(x2)"),
                              {"jobs": {"worker": 2, "ps": 1, "chief": 1}, "gpus_per_node": 2}),
    "tasks_per_node_given": ({"SLURM_PROCID": "2", "SLURM_STEP_NODELIST": "a,b"},
                             {"jobs": {"worker": 4}, "tasks_per_node": 2, "gpus_per_node": 2,
                              "port_base": 2222, "rpc_layer": None}),
    "tasks_per_node_dict": ({"SLURM_PROCID": "1"},
                            {"jobs": {"worker": 3}, "tasks_per_node": {"b": 1, "a": 2},
                             "gpus_per_node": 4, "gpus_per_task": 2}),
    "no_auto_set_gpu": (dict(STEP, **FOUR_GPUS), {"auto_set_gpu": False}),
    "cpu_nodes_as_the_helper_writes": ({"SLURM_PROCID": "1", "SLURM_STEP_NUM_TASKS": "2",
                                        "SLURM_STEP_NODELIST": "localhost",
                                        "SLURM_STEP_TASKS_PER_NODE": "2"},
                                       {"jobs": {"worker": 2}, "port_base": 40000, "gpus_per_node": 2,
                                        "gpus_per_task": 1, "auto_set_gpu": False}),
    "chief_as_the_helper_writes": ({"SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "3",
                                    "SLURM_STEP_NODELIST": "localhost", "SLURM_STEP_TASKS_PER_NODE": "3"},
                                   {"jobs": {"chief": 1, "worker": 2}, "gpus_per_node": 3,
                                    "gpus_per_task": 1, "auto_set_gpu": False}),
    "empty_cuda_visible_devices": (dict(STEP, SLURM_PROCID="0", SLURM_STEP_NUM_TASKS="2",
                                        SLURM_STEP_TASKS_PER_NODE="1(x2)", CUDA_VISIBLE_DEVICES=""), {}),
    # errors
    "no_procid": ({k: v for k, v in STEP.items() if k != "SLURM_PROCID"}, {}),
    "no_nodelist": ({"SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "2"}, {"gpus_per_node": 2}),
    "no_num_tasks": ({"SLURM_PROCID": "0"}, {}),
    "procid_not_a_number": (dict(STEP, SLURM_PROCID="x"), {}),
    "unclosed_bracket": (dict(STEP, SLURM_STEP_NODELIST="n[01-02"), {"gpus_per_node": 4}),
    "letters_in_range": (dict(STEP, SLURM_STEP_NODELIST="n[a-b]"), {"gpus_per_node": 4}),
    "three_part_range": (dict(STEP, SLURM_STEP_NODELIST="n[1-2-3]"), {"gpus_per_node": 4}),
    "leading_comma": (dict(STEP, SLURM_STEP_NODELIST=",n1"), {"gpus_per_node": 4}),
    "nested_bracket": (dict(STEP, SLURM_STEP_NODELIST="n[1[2]]"), {"gpus_per_node": 4}),
    "bad_tasks_per_node": (dict(STEP, SLURM_STEP_TASKS_PER_NODE="4(x2"), {"gpus_per_node": 4}),
    "more_gpus_than_the_node": (dict(STEP, **FOUR_GPUS), {"gpus_per_task": 2}),
    "fewer_tasks_than_jobs": (dict(STEP, **FOUR_GPUS), {"jobs": {"worker": 9}}),
    "no_gpus": (dict(STEP, SLURM_PROCID="0"), {"gpus_per_node": 0}),
    "rank_outside_the_step": (dict(STEP, SLURM_PROCID="8", **FOUR_GPUS), {"jobs": {"worker": 8}}),
}


def run_case(tf, env, kwargs):
    os.environ.clear()
    os.environ.update(env)
    out = {}
    try:
        resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(**kwargs)
        out["before"] = [resolver.task_type, resolver.task_id]
        out["cluster"] = resolver.cluster_spec().as_dict()
        out["task"] = [resolver.task_type, resolver.task_id]
        out["get_task_info"] = list(resolver.get_task_info())
        out["cuda_visible_devices"] = os.environ.get("CUDA_VISIBLE_DEVICES")
        out["master"] = resolver.master()
        out["master_plain"] = resolver.master(rpc_layer="")
        jobs = sorted(out["cluster"])
        out["master_of_first"] = resolver.master(jobs[-1], 0, rpc_layer="grpc+verbs")
        out["num_accelerators"] = resolver.num_accelerators()
        out["environment"] = resolver.environment
        out["rpc_layer"] = resolver.rpc_layer
    except Exception as e:          # the error is part of the behaviour compared
        out["error"] = [type(e).__name__, str(e)]
    return out


def main(framework):
    saved = dict(os.environ)
    if framework == "tf":
        import tensorflow as tf
    else:
        import sim.tf as tf
    results = {name: run_case(tf, env, kwargs) for name, (env, kwargs) in CASES.items()}
    os.environ.clear()
    os.environ.update(saved)
    print("SLURM-JSON " + json.dumps(results, sort_keys=True), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
