"""The files a Slurm cluster needs: an sbatch script and the task command that writes TF_CONFIG.

``sbatch NAME.sbatch`` asks for the nodes; its one ``srun`` starts one task per worker on them;
each task runs ``slurm_tf_config.py``, which asks TensorFlow's ``SlurmClusterResolver`` for the
cluster and its own rank's role, exports that as TF_CONFIG and replaces itself (``os.execvp``)
with the training command, so the script is the one every other way runs, unedited.
"""
from __future__ import annotations

import shlex

HELPER = "slurm_tf_config.py"

_HELPER_TEXT = '''"""TF_CONFIG for this Slurm task, from its job step, then the training command after it.

srun starts one copy per task. TensorFlow's SlurmClusterResolver reads the step's variables
(SLURM_PROCID: this task's rank; SLURM_STEP_NODELIST, SLURM_STEP_TASKS_PER_NODE: where the
tasks run), gives each task of a node its own port from PORT_BASE (and, on GPU nodes, its own
GPUs through CUDA_VISIBLE_DEVICES); this file writes that as TF_CONFIG and becomes the command.
Written by: {written_by}
"""
import json
import os
import sys

import tensorflow as tf

CHIEF = {chief}        # rank 0 is the chief, the other tasks are workers
GPU_NODES = {gpu_nodes}    # the nodes have GPUs (Slurm sets CUDA_VISIBLE_DEVICES to theirs)

tasks = int(os.environ["SLURM_STEP_NUM_TASKS"])
jobs = {{"chief": 1, "worker": tasks - 1}} if CHIEF else {{"worker": tasks}}
port_base = int(os.environ.get("PORT_BASE", "{port}"))
if GPU_NODES:
    resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(jobs=jobs, port_base=port_base)
else:
    # CPU nodes: the resolver's arithmetic needs a GPU per task, so it is given one per task
    # and leaves CUDA_VISIBLE_DEVICES alone.
    resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(
        jobs=jobs, port_base=port_base, gpus_per_node=tasks, gpus_per_task=1, auto_set_gpu=False)
cluster = resolver.cluster_spec().as_dict()
task = {{"type": resolver.task_type, "index": resolver.task_id}}
os.environ["TF_CONFIG"] = json.dumps({{"cluster": cluster, "task": task}})
print("Slurm task", os.environ["SLURM_PROCID"], "is", task["type"], task["index"], "at",
      cluster[task["type"]][task["index"]], file=sys.stderr, flush=True)
os.execvp(sys.argv[1], sys.argv[1:])
'''


def files(plan, written_by):
    """{file name: text} for ``plan`` (an ``EmitPlan`` of kind "slurm")."""
    return {f"{plan.name}.sbatch": sbatch(plan, written_by),
            HELPER: _HELPER_TEXT.format(written_by=written_by, chief=plan.chief,
                                        gpu_nodes=bool(plan.gpus_per_node), port=plan.port)}


def sbatch(plan, written_by):
    directives = [f"--job-name={plan.name}", f"--nodes={plan.nodes}",
                  f"--ntasks-per-node={plan.tasks_per_node}"]
    if plan.gpus_per_node:
        directives.append(f"--gpus-per-node={plan.gpus_per_node}")
    if plan.cpus_per_task:
        directives.append(f"--cpus-per-task={plan.cpus_per_task}")
    if plan.mem:
        directives.append(f"--mem={plan.mem}")
    if plan.time:
        directives.append(f"--time={plan.time}")
    if plan.workdir:
        directives.append(f"--chdir={plan.workdir}")
    directives += ["--requeue", "--open-mode=append", f"--output={plan.name}-%j.out"]
    command = [plan.python, HELPER, plan.python, plan.script, *plan.args]
    lines = ["#!/bin/bash", *(f"#SBATCH {d}" for d in directives), "",
             f"# Written by: {written_by}",
             f"# Submit it from the folder that holds {plan.script} and {HELPER}"
             f" (on storage every node sees): sbatch {plan.name}.sbatch",
             "set -euo pipefail",
             f'export PORT_BASE="${{PORT_BASE:-{plan.port}}}"',
             "srun --kill-on-bad-exit=1 " + " ".join(shlex.quote(w) for w in command), ""]
    return "\n".join(lines)
