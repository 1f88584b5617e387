"""The variable surface TensorFlow's wrappers share: reads, refs and the three assigns.

``MirroredVariable`` and friends (``variables.py``) and ``ShardedVariable`` (``ps/``) hold
other variables and answer like one. What they answer the same way lives here, on two hooks
each class defines: ``_as_tensor()`` reads the value, ``_write(op, value)`` applies ``assign``,
``assign_add`` or ``assign_sub``.
"""
from __future__ import annotations


class VariableSurface:
    def get_shape(self):
        return self.shape

    def read_value(self):
        return self._as_tensor()

    def value(self):
        return self._as_tensor()

    def ref(self):
        from sim.engine.tensor import _Ref
        return _Ref(self)

    experimental_ref = ref

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._write("assign", value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._write("assign_add", delta)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._write("assign_sub", delta)
