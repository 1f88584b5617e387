"""Module ``__getattr__`` for the facade: lazy submodules, and a clear error for unknown names.

A TensorFlow name outside the subset raises ``UnsupportedName`` (a NotImplementedError that is
also an AttributeError, so ``hasattr`` stays False) instead of silently doing something else.
"""
from __future__ import annotations

import importlib

from sim.engine.errors import UnsupportedName, unsupported  # noqa: F401  (the facade's modules import it here)


def module_getattr(module_name, submodules=(), lazy=None):
    """A ``__getattr__`` for ``module_name`` (e.g. "sim.tf.nn"): submodules import on first use,
    ``lazy`` maps names to ``"module:attr"`` strings, anything else is unsupported."""
    lazy = lazy or {}
    tf_name = "tf" + module_name[len("sim.tf"):]

    def __getattr__(name):
        if name in submodules:
            return importlib.import_module(f"{module_name}.{name}")
        if name in lazy:
            mod, _, attr = lazy[name].partition(":")
            return getattr(importlib.import_module(mod), attr)
        if name.startswith("_"):
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        raise unsupported(f"{tf_name}.{name}")
    return __getattr__
