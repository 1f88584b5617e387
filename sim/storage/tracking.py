"""Lists and dicts assigned to a ``tf.train.Checkpoint``, tracked as TensorFlow tracks them.

TensorFlow wraps them (tensorflow/python/trackable/data_structures.py): ``ListWrapper([...])``
and ``_DictWrapper({...})`` behave as the list or dict, print as ``ListWrapper([...])`` and
``DictWrapper({...})``, and their items are checkpoint dependencies named by index or key
(``listed/0``, ``mapped/one``). A variable put into one after a ``restore`` gets its saved value
at once (deferred restoration), as the checkpoint guide shows with ``restore.listed.append(v1)``.
"""
from __future__ import annotations


def _changed():
    from sim.storage import deferred_restore
    deferred_restore.apply_pending()


def wrap(value):
    """A list or dict as its tracking wrapper (anything else unchanged)."""
    if isinstance(value, (ListWrapper, DictWrapper)):
        return value
    if isinstance(value, list):
        return ListWrapper(value)
    if isinstance(value, dict):
        return DictWrapper(value)
    return value


class ListWrapper(list):
    """A tracked list: mutations may complete a pending restore."""

    def __init__(self, items=()):
        super().__init__(wrap(v) for v in items)

    def append(self, value):
        super().append(wrap(value))
        _changed()

    def extend(self, values):
        super().extend(wrap(v) for v in values)
        _changed()

    def insert(self, index, value):
        super().insert(index, wrap(value))
        _changed()

    def __setitem__(self, index, value):
        super().__setitem__(index, wrap(value) if not isinstance(index, slice) else [wrap(v) for v in value])
        _changed()

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


class DictWrapper(dict):
    """A tracked dict: setting a key may complete a pending restore."""

    def __init__(self, items=()):
        super().__init__((k, wrap(v)) for k, v in dict(items).items())

    def __setitem__(self, key, value):
        super().__setitem__(key, wrap(value))
        _changed()

    def update(self, *args, **kwargs):
        for k, v in dict(*args, **kwargs).items():
            super().__setitem__(k, wrap(v))
        _changed()

    def __repr__(self):
        return f"DictWrapper({dict.__repr__(self)})"


class Later:
    """A dependency named only if nothing else names its variables (checkpoint.py's walk)."""

    def __init__(self, value):
        self.value = value
