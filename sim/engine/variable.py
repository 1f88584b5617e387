"""``tf.Variable``: mutable state, the creator-scope seam, and the distributed-variable protocol.

Creator scopes (``tf.variable_creator_scope``): ``tf.Variable(...)`` does not build the
variable directly. It calls the innermost creator ``creator(next_creator, **kwargs)``; a creator
may change kwargs, call ``next_creator(**kwargs)`` (the next scope out, finally the plain
Variable) or return something else. A strategy's ``scope()`` pushes a creator that returns a
distributed (mirrored, sync-on-read...) variable. This is TensorFlow's own mechanism.

Distributed-variable protocol: any object with a method ``_engine_variable()`` stands for the
engine Variable that method returns (the one of the current replica). Ops convert it through
``convert_to_tensor``, ``GradientTape.watch`` tracks the returned Variable, and a source given to
``tape.gradient`` resolves the same way, so the gradient is the one of that replica's copy.
The distribute layer only has to return the right component for the current replica context.

Reads are snapshots: ``assign*`` replace the array, so a tensor read earlier keeps its value.
"""
from __future__ import annotations

import enum
from contextlib import contextmanager

import numpy as np

from sim.engine import autocast, counting, dtypes, tape
from sim.engine import device as _device
from sim.engine.shape import TensorShape
from sim.engine.tensor import Tensor, _Ref, convert_to_tensor

_creators: list = []       # variable_creator_scope stack, innermost last
_name_scopes: list = []    # tf.name_scope stack


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are synchronized (``tf.VariableSynchronization``)."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How replica updates combine (``tf.VariableAggregation``)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


@contextmanager
def variable_creator_scope(variable_creator):
    """Route every ``tf.Variable(...)`` in the block through ``variable_creator(next_creator, **kw)``."""
    _creators.append(variable_creator)
    try:
        yield
    finally:
        _creators.remove(variable_creator)


@contextmanager
def name_scope(name):
    """``tf.name_scope``: prefix the names of variables created inside (``dense/kernel:0``)."""
    _name_scopes.append(name.rstrip("/"))
    try:
        yield name.rstrip("/") + "/"
    finally:
        _name_scopes.pop()


class _VariableMeta(type):
    def __call__(cls, *args, **kwargs):
        if cls is not Variable:
            return super().__call__(*args, **kwargs)
        kwargs = _bind(*args, **kwargs)

        def create(c=None, **kw):
            return type.__call__(Variable, **kw)
        for creator in _creators:
            create = (lambda nxt, c: lambda **kw: c(nxt, **kw))(create, creator)
        return create(**kwargs)


_ARGS = ("initial_value", "trainable", "validate_shape", "caching_device", "name",
         "variable_def", "dtype", "import_scope", "constraint", "synchronization", "aggregation",
         "shape")


def _bind(*args, **kwargs):
    for k, v in zip(_ARGS, args):
        kwargs[k] = v
    return kwargs


class Variable(metaclass=_VariableMeta):
    """A mutable tensor-like value that training updates (``tf.Variable``)."""

    __array_priority__ = 100
    __array_ufunc__ = None  # NumPy defers to the reflected operators, as for a Tensor

    _keras_path = None   # set when Keras 3 made it (a layer's or metric's weight): its repr then
    _autocast = False    # a Keras weight: read in a mixed layer's compute dtype (autocast.py)
    _dt = None           # as a Tensor's: the tape reads it of every op input


    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, shape=None, **unused):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if callable(initial_value):
            initial_value = initial_value()
        try:
            value = convert_to_tensor(initial_value, dtype=dtype)
        except ValueError as e:
            raise ValueError(f"initial_value: {e}") from None
        if trainable is None:
            trainable = synchronization != VariableSynchronization.ON_READ
        self._value = np.array(value._v)
        self._dtype = value.dtype
        self._trainable = bool(trainable)
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._constraint = constraint
        base = name or "Variable"
        prefix = "/".join(_name_scopes)
        self._name = (f"{prefix}/{base}" if prefix else base) + ("" if ":" in base else ":0")
        self._shape = TensorShape(self._value.shape)
        self._device = _device.current_device_name()   # placed where it was created, as in TF

    # -- reading --------------------------------------------------------------------------
    def _as_tensor(self):
        t = Tensor(self._value, self._dtype if self._dtype is dtypes.bfloat16 else None)
        t._dev = self._device      # a read runs on the variable's device
        if counting._memory:
            counting._memory[-1].note_variable(self)
        if tape._state.recording:
            tape.on_variable_read(self, t)
        if autocast.dtype is not None and self._autocast:
            return autocast.cast_read(self, t)
        return t

    def _engine_variable(self):
        return self

    def read_value(self):
        return self._as_tensor()

    def value(self):
        return self._as_tensor()

    def numpy(self):
        v = self._value
        return v.copy() if v.ndim else v[()]

    def __array__(self, dtype=None, copy=None):
        return self._value if dtype is None else self._value.astype(dtype)

    # -- writing --------------------------------------------------------------------------
    def assign(self, value, use_locking=None, name=None, read_value=True):
        new = convert_to_tensor(value, dtype=self._dtype)._v
        if new.shape != self._value.shape:
            from sim.i18n import t
            raise ValueError(
                f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable "
                f"shape {self._value.shape}, and the assigned value shape {new.shape} are "
                f"incompatible. " + t("engine.assign_shape", name=self._name,
                                      var=self._value.shape, value=new.shape))
        self._value = np.array(new, dtype=self._value.dtype)
        if counting._memory:
            counting._memory[-1].note_variable(self)
        if counting._active:
            counting.add(0, 2 * new.nbytes)
        return self

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, np.add)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, np.subtract)

    def _update(self, delta, ufunc):
        d = convert_to_tensor(delta, dtype=self._dtype)._v
        try:
            new = np.asarray(ufunc(self._value, d), dtype=self._value.dtype)
        except ValueError:      # NumPy cannot broadcast the shapes at all
            new = None
        if new is None or new.shape != self._value.shape:
            from sim.i18n import t
            raise ValueError(f"Shapes {self._value.shape} and {d.shape} are incompatible. "
                             + t("engine.assign_shape", name=self._name, var=self._value.shape,
                                 value=d.shape)) from None
        self._value = new
        if counting._memory:
            counting._memory[-1].note_variable(self)
        if counting._active:
            counting.add(new.size, 3 * new.nbytes)
        return self

    # -- what it is -----------------------------------------------------------------------
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)
    trainable = property(lambda self: self._trainable)
    synchronization = property(lambda self: self._synchronization)
    aggregation = property(lambda self: self._aggregation)
    constraint = property(lambda self: self._constraint)
    ndim = property(lambda self: self._value.ndim)

    @property
    def device(self):
        """The full name of the device the variable was created on."""
        return self._device

    def get_shape(self):
        return self._shape

    def ref(self):
        return _Ref(self)

    experimental_ref = ref

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __bool__(self):
        return bool(self._value)

    def __len__(self):
        return len(self._value)

    def __repr__(self):
        if self._keras_path is not None:
            return keras3_repr(self)
        t = Tensor(self._value, self._dtype if self._dtype is dtypes.bfloat16 else None)
        return (f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}, "
                f"numpy={t._numpy_text(True)}>")


def keras3_repr(variable) -> str:
    """Keras 3's ``Variable.__repr__``: the path, the shape as a tuple, NumPy's text of the value.
    Here, below Keras, because a distributed value of Keras 3 weights prints the same way."""
    value = np.asarray(variable.numpy())
    return (f"<Variable path={variable.path}, shape={tuple(value.shape)}, "
            f"dtype={variable.dtype.name}, value={value}>")
