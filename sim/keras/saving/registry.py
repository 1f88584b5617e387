"""Custom classes a saved file may name: ``register_keras_serializable``, ``custom_objects``.

Keras 3 writes a custom class as ``registered_name`` "Package>Name" (registered) or its class
name; loading finds it in the ``custom_objects`` given to ``load_model``, then in a
``custom_object_scope``, then among the registered ones, and otherwise raises Keras's TypeError
"Could not locate class ...".
"""
from __future__ import annotations

import contextlib

_REGISTERED: dict = {}      # "Package>Name" -> class or function
_NAMES: dict = {}           # class or function -> "Package>Name"
_scopes: list = []          # dicts entered with custom_object_scope


def register_keras_serializable(package="Custom", name=None):
    """Decorator: the class is saved as "package>name" and found again when loading."""
    def decorate(arg):
        key = f"{package}>{name or arg.__name__}"
        if key in _REGISTERED and _REGISTERED[key] is not arg:
            raise ValueError(f"{key} has already been registered to {_REGISTERED[key]}")
        if arg in _NAMES:
            raise ValueError(f"{arg} has already been registered to {_NAMES[arg]}")
        _REGISTERED[key] = arg
        _NAMES[arg] = key
        return arg
    return decorate


def get_registered_name(obj) -> str:
    return _NAMES.get(obj, getattr(obj, "__name__", str(obj)))


def get_registered_object(name, custom_objects=None):
    for scope in [custom_objects or {}] + _scopes[::-1]:
        if name in scope:
            return scope[name]
    return _REGISTERED.get(name)


def get_custom_objects() -> dict:
    """Keras's global dict of custom objects (here: the registered ones, by name)."""
    return _REGISTERED


@contextlib.contextmanager
def custom_object_scope(*scopes):
    merged = {}
    for scope in scopes:
        merged.update(scope or {})
    _scopes.append(merged)
    try:
        yield merged
    finally:
        _scopes.remove(merged)


CustomObjectScope = custom_object_scope


def lookup(class_name, registered_name, custom_objects, config):
    """The class a config names, or Keras's TypeError saying how to make it findable."""
    for key in (registered_name, class_name):
        if key:
            found = get_registered_object(key, custom_objects)
            if found is not None:
                return found
    if registered_name and ">" in registered_name:      # registered under another package
        found = get_registered_object(registered_name.split(">", 1)[1], custom_objects)
        if found is not None:
            return found
    raise TypeError(
        f"Could not locate class '{class_name}'. Make sure custom classes and functions are "
        "decorated with `@keras.saving.register_keras_serializable()`. If they are already "
        "decorated, make sure they are all imported so that the decorator is run before trying "
        f"to load them. Full object config: {config}")
