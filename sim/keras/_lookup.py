"""Resolve what Keras accepts for a loss or a metric: an object, a callable, a class or a name."""
from __future__ import annotations

from sim.keras import _errors


def resolve(identifier, base: type, functions: dict, classes: dict, kind: str):
    """The ``kind`` ("loss" or "metric") that ``identifier`` names, as tf.keras.<kind>s.get does."""
    if isinstance(identifier, base) or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, base):
        return identifier()
    if isinstance(identifier, str):
        if identifier in functions:
            return functions[identifier]
        if identifier in classes:
            return classes[identifier]()
    label = "loss function" if kind == "loss" else "metric function"
    raise ValueError(_errors.msg(
        "unknown_name", f"Unknown {label}: '{identifier}'. Please ensure you are using a "
        "`keras.utils.custom_object_scope` and that this object is included in the scope.",
        kind=kind, name=identifier, known=_errors.known_list(functions)))
