"""``tf.Module``: a named container whose variables and submodules are found by walking it.

As tensorflow/python/module/module.py: ``variables``, ``trainable_variables``,
``non_trainable_variables`` and ``submodules`` walk the module's attributes in sorted order,
looking inside lists, tuples and dicts (dicts by sorted key), each object once; a submodule's
own attributes are walked after its parent's. ``name_scope`` opens the module's name.
"""
from __future__ import annotations

import re

from sim.engine.variable import name_scope

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


def _is_variable(x):
    return hasattr(x, "_engine_variable") or (hasattr(x, "_as_tensor") and hasattr(x, "assign"))


def _snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _leaves(value, seen):
    """The leaves of a nested list/tuple/dict (dicts by sorted key), as tf.nest.flatten gives."""
    if isinstance(value, dict):
        for k in sorted(value, key=str):
            yield from _leaves(value[k], seen)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v, seen)
    else:
        yield value


class Module:
    """``tf.Module(name=None)``."""

    _TF_MODULE_IGNORED_PROPERTIES = frozenset(("_self_unconditional_checkpoint_dependencies",))

    def __init__(self, name=None):
        if name is None:
            name = _snake(type(self).__name__)
        elif not _NAME.match(name):
            raise ValueError(f"'{name}' is not a valid module name. Module names must be valid "
                             f"Python identifiers (e.g. a valid class name).")
        self._name = name
        self._scope_name = name

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return name_scope(self._scope_name)

    def _flatten(self, predicate, recursive=True):
        seen, found, queue = set(), [], [self]
        while queue:
            module, queue = queue[0], queue[1:]
            subs = []
            for key in sorted(vars(module)):
                if key in self._TF_MODULE_IGNORED_PROPERTIES:
                    continue
                for leaf in _leaves(vars(module)[key], seen):
                    if id(leaf) in seen:
                        continue
                    seen.add(id(leaf))
                    if predicate(leaf):
                        found.append(leaf)
                    if recursive and isinstance(leaf, Module):
                        subs.append(leaf)
            queue = queue + subs if recursive else []
        return tuple(found)

    @property
    def variables(self):
        return self._flatten(_is_variable)

    @property
    def trainable_variables(self):
        return self._flatten(lambda v: _is_variable(v) and v.trainable)

    @property
    def non_trainable_variables(self):
        return self._flatten(lambda v: _is_variable(v) and not v.trainable)

    @property
    def submodules(self):
        return self._flatten(lambda m: isinstance(m, Module))

    @classmethod
    def with_name_scope(cls, method):
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        wrapped.__name__ = method.__name__
        return wrapped
