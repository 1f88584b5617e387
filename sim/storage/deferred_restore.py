"""Deferred restoration: a ``Checkpoint.restore`` before the variables exist, as TensorFlow does it.

TensorFlow matches a checkpoint to the object graph, and a value whose variable is not made yet
(a Keras model not built until its first call) waits: it is assigned when the variable is
created. custom_training's last lesson depends on it (restore into a new model, then evaluate).
Here a restore keeps the values it could not place, and each Keras layer, once built, asks every
checkpoint still waiting to place what now exists (``apply_pending``), before the layer computes
anything, so the first call already sees the restored weights.
"""
from __future__ import annotations

import weakref

_waiting = weakref.WeakSet()      # checkpoints with values not yet assigned


def defer(checkpoint):
    """Note that ``checkpoint`` holds values for variables that do not exist yet."""
    _waiting.add(checkpoint)


def waiting():
    """True while some checkpoint holds values for variables not made yet."""
    return any(True for _ in _waiting)


def drop_waiting_value(variable):
    """Forget the waiting value of ``variable`` (True if there was one): Keras 3's symbolic
    first build loses it (sim/keras/keras3_tracking.py)."""
    for checkpoint in list(_waiting):
        for path, var in checkpoint._variables().items():
            if var is variable and path in checkpoint._deferred:
                del checkpoint._deferred[path]
                return True
    return False


def apply_pending():
    """Assign the waiting values whose variables now exist (called after a layer is built)."""
    for checkpoint in list(_waiting):
        if not checkpoint._apply_deferred():
            _waiting.discard(checkpoint)


class RestoreStatus:
    """What ``restore`` returns; its checks look at the checkpoint as it is when called.

    ``assert_consumed``: every value in the file was assigned and every variable reached from
    the checkpoint's objects was restored. ``assert_existing_objects_matched``: every variable
    that exists now was restored (values still waiting for their variable are fine).
    ``expect_partial``: no complaint about values never used."""

    def __init__(self, checkpoint, saved_paths):
        self._checkpoint, self._saved = checkpoint, set(saved_paths)

    def _state(self):
        variables = set(self._checkpoint._variables())
        waiting = set(self._checkpoint._deferred)
        return variables - self._saved, waiting

    def assert_consumed(self):
        missing, waiting = self._state()
        if waiting:
            raise AssertionError(f"Unresolved object in checkpoint: {_dotted(sorted(waiting)[0])} "
                                 f"({len(waiting)} value(s) not restored: {', '.join(map(_dotted, sorted(waiting)))})")
        if missing:
            raise AssertionError(f"Object not assigned a value from checkpoint: "
                                 f"{', '.join(map(_dotted, sorted(missing)))}")
        return self

    def assert_existing_objects_matched(self):
        missing, _ = self._state()
        if missing:
            raise AssertionError(f"Object not assigned a value from checkpoint: "
                                 f"{', '.join(map(_dotted, sorted(missing)))}")
        return self

    def assert_nontrivial_match(self):
        if not (self._saved - set(self._checkpoint._deferred)) and self._saved:
            raise AssertionError("Found no checkpointed value that matched an object in the program.")
        return self

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class NothingToRestore(RestoreStatus):
    """``restore(None)``: TensorFlow's InitializationOnlyStatus (checks fail but restore nothing)."""

    def __init__(self, checkpoint):
        super().__init__(checkpoint, ())

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed


def _dotted(path):
    return "(root)." + path.replace("/", ".")
