"""``tf.random``: seeded, deterministic random tensors.

TensorFlow's rule: with a global seed (``tf.random.set_seed``) and no op seed, each op call
gets the next op seed from a counter; ``set_seed`` restarts the counter, so a program repeats
its numbers. With neither seed we still start from seed 0 (the course is deterministic). The
numbers come from NumPy's Philox generator, not TensorFlow's kernels, so they differ from
TensorFlow's values while following the same seeding rules.

Libraries that draw from their own NumPy generator (Keras's initializers and dropout) register
with ``add_seed_listener`` so ``set_seed`` reseeds them too: in TF2 the global seed reaches
every unseeded random op, so ``tf.random.set_seed(s)`` alone makes a model's initial weights
repeat.
"""
from __future__ import annotations

import numpy as np

from sim.engine import dtypes
from sim.engine.ops._core import out
from sim.engine.ops.array import _ints

DEFAULT_GLOBAL_SEED = 0
_global_seed = None
_op_counter = 0
_calls: dict = {}
_seed_listeners: list = []


def set_seed(seed):
    """``tf.random.set_seed``: fix the global seed and restart the op-seed counter."""
    global _global_seed, _op_counter
    _global_seed = None if seed is None else int(seed)
    _op_counter = 0
    _calls.clear()
    if _global_seed is not None:
        for listener in _seed_listeners:
            listener(_global_seed)


def add_seed_listener(listener):
    """Call ``listener(seed)`` on every ``set_seed``, and now if a global seed is already set
    (a library imported after ``set_seed`` still starts from it)."""
    _seed_listeners.append(listener)
    if _global_seed is not None:
        listener(_global_seed)


def get_seed(op_seed):
    """TensorFlow's (global_seed, op_seed) pair for the next random op."""
    global _op_counter
    g = DEFAULT_GLOBAL_SEED if _global_seed is None else _global_seed
    if op_seed is None:
        _op_counter += 1
        return g, _op_counter
    return g, int(op_seed)


def _rng(seed):
    """A NumPy generator for one op call: the same (seeds, call number) gives the same numbers."""
    key = get_seed(seed)
    n = _calls.get(key, 0)
    _calls[key] = n + 1
    return np.random.Generator(np.random.Philox(key=[key[0] & (2**64 - 1), (key[1] << 20) + n]))


def _float(dtype):
    dt = dtypes.as_dtype(dtype)
    return dt, dt.as_numpy_dtype


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    dt, npd = _float(dtype)
    rng = _rng(seed)
    shape = _ints(shape)
    if dt.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype")
        v = rng.integers(int(minval), int(maxval), size=shape).astype(npd)
    else:
        hi = 1 if maxval is None else maxval
        v = (rng.random(size=shape) * (np.asarray(hi) - np.asarray(minval)) + np.asarray(minval))
    return out(np.asarray(v).astype(npd), (), None, 0)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    dt, npd = _float(dtype)
    v = _rng(seed).standard_normal(size=_ints(shape)) * np.asarray(stddev) + np.asarray(mean)
    return out(np.asarray(v).astype(npd), (), None, 0)


def _truncated(rng, shape):
    v = rng.standard_normal(size=shape)
    bad = np.abs(v) > 2
    while bad.any():
        v[bad] = rng.standard_normal(size=int(bad.sum()))
        bad = np.abs(v) > 2
    return v


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values re-drawn until within two standard deviations of the mean."""
    dt, npd = _float(dtype)
    v = _truncated(_rng(seed), _ints(shape)) * np.asarray(stddev) + np.asarray(mean)
    return out(np.asarray(v).astype(npd), (), None, 0)


def shuffle(value, seed=None, name=None):
    from sim.engine.ops._core import tensor
    x = tensor(value)
    perm = _rng(seed).permutation(x._v.shape[0]) if x._v.ndim else None
    return out(x._v[perm] if perm is not None else x._v, (), None, 0)


def categorical(logits, num_samples, dtype=dtypes.int64, seed=None, name=None):
    from sim.engine.ops._core import tensor
    a = tensor(logits)._v.astype(np.float64)
    p = np.exp(a - a.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    rng = _rng(seed)
    v = np.stack([rng.choice(p.shape[-1], size=int(num_samples), p=row) for row in p])
    return out(v.astype(dtypes.as_dtype(dtype).as_numpy_dtype), (), None, 0)
