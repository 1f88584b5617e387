"""sim: TensorFlow's tf.distribute on simulated hardware.

Learners write ``import sim.tf as tf``; the rest of the package is the machinery behind it:
``sim.hardware`` (devices, links, presets), ``sim.des`` (the SimPy simulator),
``sim.collectives`` (all-reduce schedules), ``sim.engine`` (NumPy tensors and autodiff),
``sim.distribute`` (strategies), ``sim.plots`` and ``sim.i18n`` (the course's languages),
``sim.exercises`` (checkers for the graded exercises).
"""
from __future__ import annotations

__version__ = "0.1.0"


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


def _check_sim_lang():
    """An unknown SIM_LANG fails at ``import sim``, as ``sim.setup`` fails on an unknown language,
    not at the first message."""
    import os
    if os.environ.get("SIM_LANG"):
        from sim import i18n  # noqa: F401  (importing it checks SIM_LANG)


_check_sim_lang()
