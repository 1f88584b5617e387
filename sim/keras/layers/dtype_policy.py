"""A layer's dtype policy: ``dtype_policy``, ``compute_dtype``, ``variable_dtype``, autocasting.

A layer takes its policy from ``dtype=`` or, without one, the global policy when it is made
(sim/keras/mixed_precision/policy.py). Its weights are made in the variable dtype and marked
for autocast; its floating inputs are cast to the compute dtype; while it runs ``call`` the
autocast scope (sim/engine/autocast.py) is set by Keras 3's rule (keras/src/layers/layer.py,
``__call__`` step 7): a mixed layer opens a scope of its compute dtype, a layer inside a scope
of another dtype replaces it (a ``dtype='float32'`` head reads its weights in float32).
"""
from __future__ import annotations

from sim.engine import autocast, dtypes
from sim.keras.mixed_precision import policy as policy_mod

KEEP = object()   # call_scope: leave the current autocast scope as it is


class DTypePolicyMixin:
    """The policy properties Keras layers have (``layer.dtype`` is the variable dtype)."""

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value):
        self._dtype_policy = policy_mod.get(value)
        self._dtype = self._dtype_policy.variable_dtype

    @property
    def compute_dtype(self):
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._dtype_policy.variable_dtype

    @property
    def _compute_dtype(self):       # tf-keras's private spelling, used by some layers
        return self._dtype_policy.compute_dtype


def call_scope(layer):
    """The autocast dtype for ``layer.call`` (a DType or None), or KEEP for no change."""
    policy = layer._dtype_policy
    compute = policy._compute_dtype
    current = autocast.dtype
    if current is not None:
        if compute not in _FLOATS:
            return None
        return KEEP if current.name == compute else dtypes.as_dtype(compute)
    if compute != policy._variable_dtype:
        return dtypes.as_dtype(compute)
    return KEEP


def call_in_scope(layer, inputs, args, kwargs):
    """``layer.call(inputs, ...)`` in the autocast scope ``call_scope`` gives."""
    scope = call_scope(layer)
    if scope is KEEP:
        return layer.call(inputs, *args, **kwargs)
    with autocast.scope(scope):
        return layer.call(inputs, *args, **kwargs)


_FLOATS = {"float16", "bfloat16", "float32", "float64"}


def mark_autocast(variable):
    """Let reads of a Keras weight (and of each copy of a distributed one) autocast."""
    for v in [variable, *getattr(variable, "_values", ())]:
        try:
            v._autocast = True
        except AttributeError:
            pass
