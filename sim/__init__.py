"""sim: TensorFlow's tf.distribute on simulated hardware.

Learners write ``import sim.tf as tf``; the rest of the package is the machinery behind it:
``sim.hardware`` (devices, links, presets), ``sim.des`` (the SimPy simulator),
``sim.collectives`` (all-reduce schedules), ``sim.engine`` (NumPy tensors and autodiff),
``sim.distribute`` (strategies), ``sim.course.plots`` and ``sim.i18n`` (the course's languages),
``sim.course.exercises`` (checkers for the graded exercises). ``sim.show_error()`` shows a lesson's
deliberate error as ``Type: message`` (no traceback).
"""
from __future__ import annotations

__version__ = "0.1.0"


def show_error(expected: type = Exception):
    """``with sim.show_error(): ...`` prints the block's error as ``Type: message`` (see
    sim.course.error_display)."""
    from sim.course.error_display import show_error as shown

    return shown(expected)


def setup(language: str = "en", seed: int = 0) -> None:
    """Prepare a lesson: set the course language, register the CJK font, write tick labels in the
    language's number format, seed NumPy.

    Every generated notebook calls this in its first code cell, so plots and messages speak
    the lesson's language and every run prints the same numbers.
    """
    import numpy as np

    from sim import i18n
    from sim.course import plots

    i18n.set_language(language)
    plots.setup_fonts()
    plots.number_format.install()        # tick labels in the course language's number format
    np.random.seed(seed)


def _check_sim_lang():
    """An unknown SIM_LANG fails at ``import sim``, as ``sim.setup`` fails on an unknown language,
    not at the first message."""
    import os
    if os.environ.get("SIM_LANG"):
        from sim import i18n  # noqa: F401  (importing it checks SIM_LANG)


_check_sim_lang()
