"""Lesson 12's helpers: a Slurm job step's variables for a moment, and a run's lines in order.

``slurm_step(**variables)`` sets SLURM_* variables (and CUDA_VISIBLE_DEVICES) as a job step
would, and puts the environment back afterwards, so a notebook can ask SlurmClusterResolver
what each task of an allocation gets. ``task_lines(lines, word)`` keeps one run's lines that
start with ``word``, grouped by task, so a lesson prints the same text at every run whatever order the
tasks wrote in.
"""
from __future__ import annotations

import contextlib
import os

_KEYS = ("SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_STEP_NODELIST", "SLURM_STEP_TASKS_PER_NODE",
         "CUDA_VISIBLE_DEVICES")


@contextlib.contextmanager
def slurm_step(**variables):
    saved = {k: os.environ.get(k) for k in set(_KEYS) | set(variables)}
    try:
        os.environ.update({k: str(v) for k, v in variables.items()})
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def task_lines(lines, word):
    """The text of every line that starts with ``word`` (after an srun label), grouped by the
    task it names (its text before ":"), each task's lines in the order it wrote them."""
    out = []
    for _, line in lines:
        label, sep, text = line.partition(": ")
        text = text if sep and label.isdigit() else line
        if text.startswith(word):
            out.append(text)
    return sorted(out, key=lambda text: text.partition(":")[0])
