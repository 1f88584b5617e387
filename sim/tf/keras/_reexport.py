"""Fill a tf.keras facade module with the public names its sim.keras module defines.

Only what sim.keras itself defines is copied: not its imports (``np``, ``tf``, engine helpers)
nor private names, so ``dir(tf.keras.layers)`` shows TensorFlow's names and nothing else.
"""
from __future__ import annotations

import importlib
import types


def reexport(namespace: dict, module_name: str) -> None:
    module = importlib.import_module(module_name)
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        if not (getattr(value, "__module__", None) or module_name).startswith("sim.keras"):
            continue
        namespace[name] = value
    from sim.tf._lazy import module_getattr  # a name sim.keras lacks: NotImplementedError
    namespace["__getattr__"] = module_getattr(namespace["__name__"])
