"""Record lesson 10's comparison of the two engines, for where TensorFlow is not installed.

    python -m tools.record_two_engines [--python .venv-tf/bin/python]

Runs ``sim.course.two_engines.compare`` (the one-import script and the seed chapter's MWMS script as 2
workers, each on sim.tf and on TensorFlow under ``--python``, default SIM_TF_PYTHON) and writes
``sim/course/two_engines_record.json`` (temp file + rename) with its provenance: the versions of
TensorFlow, tf-keras, Keras, NumPy and Python that produced it, and this command. No date and no
machine path. Both engines are deterministic here, so re-running it gives the same file while
the versions stay the same.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys

import numpy as np

from sim.course import two_engines
from sim.storage.safe_io import atomic_write


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", help="a Python with TensorFlow (default: SIM_TF_PYTHON)")
    args = parser.parse_args(argv)
    python = two_engines.tensorflow_python(args.python)
    if python is None:
        from sim.i18n import t
        print(t("tfengine.not_installed", python=args.python or "SIM_TF_PYTHON"), file=sys.stderr)
        return 2
    record = two_engines.compare(python)
    record["provenance"] = dict(two_engines.tensorflow_versions(python), numpy=np.__version__,
                                python=".".join(platform.python_version_tuple()[:2]),
                                made_by="python -m tools.record_two_engines")
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    atomic_write(str(two_engines.RECORD), lambda f: f.write(text.encode("utf-8")))
    print(f"wrote {two_engines.RECORD.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
