"""Run a tutorial file of tutorials/ cell by cell, as Jupyter's "Run all" would, on either engine.

    python tutorial_cells.py tutorials/NAME.py                              # sim.tf
    python -m sim.launch.tf_task tutorial_cells.py tutorials/NAME.py        # TensorFlow

The working directory is the caller's (a temporary folder). The cells (``# ---- cell N``) run in
one namespace; the value of a cell's last expression is printed as Jupyter displays it; a cell that
starts ``# %%writefile NAME`` writes its body to NAME; other magics are comments and do not run.
Unlike "Run all", an error does not stop the run: it is printed and the next cell runs, so one
comparison sees every cell. Each cell's output is preceded by ``TUTORIAL-CELL N`` and an error
printed as ``TUTORIAL-ERROR N Type: first line``.
On sim the machine has ``TUTORIAL_GPUS`` GPUs (default 0: a CPU machine, as TensorFlow here)
and SIM_SAME_INIT's hooks (sim/launch/same_init.py) are installed when it is set, as the task
runner installs them on TensorFlow.
"""
from __future__ import annotations

import ast
import linecache
import os
import re
import sys
import traceback
from pathlib import Path

CELL = re.compile(r"^# ---- cell (\d+).*$", re.M)
WRITEFILE = re.compile(r"^# %%writefile (\S+)\n")


def cells(text):
    parts = CELL.split(text)
    return [(int(n), body) for n, body in zip(parts[1::2], parts[2::2])]


def engine():
    import sim.tf
    from sim.launch.tf_alias import _Forward
    return "tensorflow" if isinstance(sim.tf, _Forward) else "sim"


def run_cell(body, namespace, filename):
    # AutoGraph (TensorFlow's tf.function) reads a function's source through linecache, as it
    # reads a notebook cell's: without it a loop over tf.range is not converted.
    linecache.cache[filename] = (len(body), None, body.splitlines(keepends=True), filename)
    tree = ast.parse(body, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), filename, "eval"), namespace)
        if value is not None:
            print(repr(value))


def main(path):
    path = Path(path).resolve()
    sys.path.insert(0, str(path.parent))          # the data stand-ins (tensorflow_datasets.py)
    sys.path.insert(0, os.getcwd())               # the %%writefile modules, as in the notebook
    which = engine()
    if which == "sim":
        from sim.hardware.presets import workstation_4gpu
        from sim.runtime import use_machine
        use_machine(workstation_4gpu(int(os.environ.get("TUTORIAL_GPUS", "0"))))
    from sim.launch.same_init import install
    install(which)
    namespace = {"__name__": "__main__"}
    for number, body in cells(path.read_text(encoding="utf-8")):
        print(f"TUTORIAL-CELL {number}", flush=True)
        written = WRITEFILE.match(body.lstrip("\n"))
        try:
            if written:
                Path(written.group(1)).write_text(body.lstrip("\n")[written.end():], encoding="utf-8")
            else:
                run_cell(body, namespace, f"{path.name}:cell{number}")
        except Exception as e:
            traceback.print_exc()
            first = (str(e).strip().splitlines() or [""])[0]
            print(f"TUTORIAL-ERROR {number} {type(e).__name__}: {first}", flush=True)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
