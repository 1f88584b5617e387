"""``python -m sim launch --emit slurm|kubernetes|ssh SCRIPT``: write what a real cluster runs.

The launcher runs a script as local tasks; a real cluster needs files instead: an sbatch script
(emit_slurm), a Kubeflow TFJob manifest (emit_kubernetes) or one SSH command per node
(emit_ssh). ``emit(argv)`` reads the options (emit_options), writes the files atomically into
``--out`` (executable when they are shell scripts) and returns their paths.
"""
from __future__ import annotations

import os
import shlex

from sim.launch import emit_kubernetes, emit_options, emit_slurm, emit_ssh

WRITERS = {"slurm": emit_slurm.files, "kubernetes": emit_kubernetes.files, "ssh": emit_ssh.files}


def written_by(argv):
    return "python -m sim launch --emit " + shlex.join(argv)


def contents(argv):
    """(plan, {file name: text}) for the options after ``--emit``."""
    plan = emit_options.parse(argv)
    return plan, WRITERS[plan.kind](plan, written_by(argv))


def emit(argv):
    """Write the files; returns their paths, in the order written."""
    from sim.storage.safe_io import atomic_write
    plan, texts = contents(argv)
    paths = []
    for name, text in texts.items():
        path = atomic_write(os.path.join(plan.out, name), lambda f, s=text: f.write(s.encode()))
        if text.startswith("#!"):
            os.chmod(path, os.stat(path).st_mode | 0o111 & ~_umask())
        paths.append(path)
    return paths


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
