"""A layer in a ``tf.train.Checkpoint`` as Keras 3 tracks it on TensorFlow, and its first build
while a restore waits.

Names (measured on TensorFlow 2.21 with Keras 3.15): a layer's dependencies are the attributes
TensorFlow's AutoTrackable tracks, under their own name, so Dense's and Conv's kernel is
``_kernel`` and Embedding's table ``_embeddings`` (keras/src/layers/core/dense.py:
``self._kernel = self.add_weight(...)``; Conv2DTranspose keeps ``kernel``). Keras's own weight
lists are no dependency (keras/src/layers/layer.py ``_initialize_tracker`` turns TensorFlow's
list tracking off for them): a weight kept in no attribute is not saved.

The first build (keras/src/layers/layer.py ``_maybe_build``): a model or layer with no ``build``
of its own is built by calling ``call`` symbolically. When a sublayer makes there a variable a
pending restore waits for, the variable cannot take the value (TensorFlow 2.21: AttributeError,
'EagerTensor' object has no attribute '_serialize_to_tensors'), the symbolic call fails, and
Keras, in an eager call, ignores it and lets the eager call build the sublayer again. The
variables made before the failure stay in the sublayer's weights (a second kernel, which gets
no gradient: Keras warns), the value they took is gone (the new kernel is not restored), and
the values of variables made afterwards (the bias) are restored as usual. The checkpoint
guide's second model shows it (tests/tf_crosscheck/tutorials/checkpoint.py, cell 10).
"""
from __future__ import annotations

from sim.keras.version import keras_major

_BOOKKEEPING = ("_trainable_weights", "_non_trainable_weights", "_tracked_vars")
_symbolic = [False]


class _RestoreFailed(Exception):
    """A waiting value met its variable inside the symbolic first build."""


def checkpoint_name(layer, attribute):
    """The name of ``layer.<attribute>`` in a checkpoint, or None when it is not one."""
    if keras_major() != 3:
        return attribute.lstrip("_")
    if attribute in _BOOKKEEPING:
        return None
    if attribute in type(layer)._keras3_private_weights:
        return "_" + attribute
    return attribute.lstrip("_")


def symbolic_first_build(layer, inputs):
    """Keras 3's symbolic first build of a layer without a ``build`` of its own, done only while
    a restore waits (otherwise it changes nothing the eager call would not)."""
    from sim.storage import deferred_restore
    if keras_major() != 3 or _symbolic[0] or not deferred_restore.waiting():
        return
    _symbolic[0] = True
    try:
        layer.call(inputs)
    except Exception:   # noqa: BLE001 (Keras: "Will let the actual eager call do state-building")
        pass
    finally:
        _symbolic[0] = False


def check_assigned(layer, value):
    """Inside the symbolic build: a variable a restore waits for fails it, taking the value."""
    if not _symbolic[0] or not hasattr(value, "assign"):
        return
    from sim.storage import deferred_restore
    if deferred_restore.drop_waiting_value(value):
        raise _RestoreFailed(layer.name)
