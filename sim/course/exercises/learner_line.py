"""Where in the learner's own code an exception was raised: the line a checker names.

A checker calls the learner's function and catches what it raises; the learner wants the line of
*their* cell that failed, not a traceback through the checker and NumPy. IPython compiles each
cell as its own file, so a frame's line number is the line within that cell, and ``linecache``
holds the cell's text. The learner's frames are those of files outside the installed packages,
the standard library and ``sim`` itself; the last of them is the line to show.
"""
from __future__ import annotations

import linecache
import os
import sys
import sysconfig
import traceback
from dataclasses import dataclass
from pathlib import Path

_SIM_DIR = str(Path(__file__).resolve().parents[1])
_LIBRARY_DIRS = tuple({os.path.realpath(p) for p in (
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
    sysconfig.get_paths()["platlib"], sys.prefix, sys.base_prefix) if p})


@dataclass(frozen=True)
class LearnerLine:
    """Line ``number`` of the learner's cell (or file), whose text is ``code``."""
    number: int
    code: str


def _is_learner_file(filename: str) -> bool:
    if not filename or filename.startswith("<frozen"):
        return False
    real = os.path.realpath(filename)
    if real.startswith(_SIM_DIR + os.sep):
        return False
    # A Jupyter cell lives in a temporary file (/tmp/ipykernel_*/...), never under a library.
    return "ipykernel_" in filename or not real.startswith(_LIBRARY_DIRS)


def where_raised(error: BaseException) -> LearnerLine | None:
    """The last frame of ``error``'s traceback in the learner's code, or None if it has none."""
    found = None
    for frame in traceback.extract_tb(error.__traceback__):
        if _is_learner_file(frame.filename) and frame.lineno:
            code = (frame.line or linecache.getline(frame.filename, frame.lineno)).strip()
            found = LearnerLine(frame.lineno, code)
    return found
