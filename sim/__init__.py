"""sim: TensorFlow's tf.distribute on simulated hardware.

Learners write ``import sim.tf as tf``; the rest of the package is the machinery behind it:
``sim.hardware`` (devices, links, presets), ``sim.des`` (the SimPy simulator),
``sim.collectives`` (all-reduce schedules), ``sim.engine`` (NumPy tensors and autodiff),
``sim.distribute`` (strategies), ``sim.plots`` and ``sim.i18n`` (the course's languages),
``sim.exercises`` (checkers for the graded exercises).
"""
from __future__ import annotations

import os as _os

__version__ = "0.1.0"

if _os.environ.get("SIM_LANG"):      # check SIM_LANG at import, not at the first message
    from sim import i18n as _i18n  # noqa: F401


def setup(language: str = "en", seed: int = 0) -> None:
    """Prepare a lesson: set the course language, register the CJK font, seed NumPy.

    Every generated notebook calls this in its first code cell, so plots and messages speak
    the lesson's language and every run prints the same numbers.
    """
    import numpy as np

    from sim import i18n, plots

    i18n.set_language(language)
    plots.setup_fonts()
    np.random.seed(seed)
