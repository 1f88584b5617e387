"""Dtype policies: what a layer computes in and what its weights are stored in.

A policy names a compute dtype and a variable dtype: ``'mixed_float16'`` is float16 and
float32, ``'mixed_bfloat16'`` bfloat16 and float32, any float dtype name both the same. Keras 3
calls the class ``DTypePolicy`` (printed ``<DTypePolicy "mixed_float16">``,
keras/src/dtype_policies/dtype_policy.py), tf-keras ``Policy`` (``<Policy "mixed_float16">``,
tf_keras/mixed_precision/policy.py); ``tf.keras.mixed_precision.Policy`` is either, per the
selected Keras. The global policy is the default of every layer made afterwards.
"""
from __future__ import annotations

import contextlib

from sim.keras.version import keras_major

_MIXED = {"mixed_float16": ("float16", "float32"), "mixed_bfloat16": ("bfloat16", "float32")}
_global = None   # the policy set by set_global_policy; None: floatx's


def _parse(name):
    if not isinstance(name, str):
        raise TypeError("'name' must be a string, such as 'mixed_float16'. Received: "
                        f"name={name} (of type {type(name)})")
    if name in _MIXED:
        return _MIXED[name]
    from sim.engine import dtypes
    try:
        dt = dtypes.as_dtype(name)
    except TypeError:
        dt = None
    if dt is None:   # 'string', 'int32', 'bool' are policies too (TF 2.21: <DTypePolicy "string">)
        if keras_major() == 3:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid "
                             "policies include 'mixed_float16', 'mixed_bfloat16', and the name of "
                             "any float dtype such as 'float32'.")
        raise ValueError(f"Cannot convert value {name} to a mixed precision Policy. Valid policies "
                         "include 'mixed_float16', 'mixed_bfloat16', and the name of any dtype "
                         "such as 'float32'.")
    return dt.name, dt.name


class Policy:
    """``tf.keras.mixed_precision.Policy(name)``: ``name``, ``compute_dtype``, ``variable_dtype``."""

    def __init__(self, name=None):
        if name is None:
            if keras_major() != 3:
                raise TypeError("Policy.__init__() missing 1 required positional argument: 'name'")
            name = global_policy().name
        self._compute_dtype, self._variable_dtype = _parse(name)
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        return self._compute_dtype

    @property
    def variable_dtype(self):
        return self._variable_dtype

    @property
    def quantization_mode(self):
        return None

    @property
    def is_mixed(self):
        return self._compute_dtype != self._variable_dtype

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)

    def __eq__(self, other):
        return isinstance(other, Policy) and other._name == self._name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<{"DTypePolicy" if keras_major() == 3 else "Policy"} "{self._name}">'


DTypePolicy = Policy


def global_policy():
    """The policy a layer made now gets without ``dtype=``: the one set last, else floatx's."""
    if _global is not None:
        return _global
    from sim.keras import backend
    return Policy(backend.floatx())


@contextlib.contextmanager
def global_policy_kept():
    """sim's own code and tests: whatever sets a global policy inside is undone at the end, back to
    the state found, "none set" included (layers then follow floatx). ``set_global_policy("float32")``
    would pin float32 instead, and Keras 3 has no public reset."""
    global _global
    outer = _global
    try:
        yield
    finally:
        _global = outer


def set_global_policy(policy):
    """``tf.keras.mixed_precision.set_global_policy``: a Policy or its name (tf-keras: None resets)."""
    global _global
    if policy is None and keras_major() != 3:
        _global = None
        return
    if isinstance(policy, str):
        policy = Policy(policy)
    elif not isinstance(policy, Policy):
        raise ValueError("Invalid `policy` argument. Expected the string name of a policy (such as "
                         f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy} "
                         f"(of type {type(policy)})")
    from sim.engine import dtypes
    if keras_major() != 3 and not dtypes.as_dtype(policy.compute_dtype).is_floating:
        raise ValueError("set_global_policy can only be used to set the global policy to "
                         'floating-point policies, such as "float32" and "mixed_float16", but '
                         f"got policy: {policy.name}")
    _global = policy


def get(identifier):
    """A layer's ``dtype=`` argument as a policy: None is the global policy."""
    if identifier is None:
        return global_policy()
    if isinstance(identifier, Policy):
        return identifier
    if isinstance(identifier, dict):
        return Policy(identifier.get("config", identifier).get("name"))
    return Policy(str(getattr(identifier, "name", identifier)))
