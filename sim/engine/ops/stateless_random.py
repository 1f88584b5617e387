"""TensorFlow's stateless random ops (``tf.random.stateless_normal``...) on its Philox kernel.

A seed pair becomes a key and a counter (stateless_random_ops.cc's GenerateKey), then the same
kernels as ``tf.random.Generator`` draw from them (sim/engine/philox.py), so
``tf.random.stateless_normal([2, 3], seed=[1, 2])`` prints TensorFlow's numbers. The CPU kernels
take Philox only: ThreeFry is TensorFlow's UnimplementedError off XLA.
"""
from __future__ import annotations

import numpy as np

from sim.engine import dtypes, philox
from sim.engine.errors import InvalidArgumentError, UnimplementedError
from sim.engine.ops._core import out, tensor

_ALGS = {"philox": 1, "threefry": 2, "auto_select": 3}


def alg_id(alg):
    """An algorithm given as a name, an int or ``tf.random.Algorithm``, as its int."""
    alg = getattr(alg, "value", alg)
    if isinstance(alg, str):
        if alg.lower() not in _ALGS:
            raise ValueError(f"Unsupported algorithm name: {alg}")
        return _ALGS[alg.lower()]
    return int(alg)


def check_alg(alg):
    if alg == 2:
        raise UnimplementedError("Non-XLA devices don't support the ThreeFry algorithm. "
                                 "[Op:RngReadAndSkip] name: ")
    if alg not in (1, 3):
        raise InvalidArgumentError(f"Unsupported algorithm id: {alg}")


def _key_words(key):
    key = int(key) & 0xFFFFFFFFFFFFFFFF
    return [key & 0xFFFFFFFF, key >> 32]


def _counter_words(counter):
    c = [int(x) & 0xFFFFFFFFFFFFFFFF for x in counter] + [0]
    return [c[0] & 0xFFFFFFFF, c[0] >> 32, c[1] & 0xFFFFFFFF, c[1] >> 32]


def draw(kind, shape, key, counter, alg, dtype, lo=None, hi=None):
    """One stateless kernel: ``kind`` values of ``dtype`` from a uint64 key and counter."""
    check_alg(alg)
    size = int(np.prod(shape, dtype=np.int64))
    k, c = _key_words(key), _counter_words(counter)
    npd = np.dtype(dtype)
    if kind == "uniform_int":
        if not lo < hi:
            raise InvalidArgumentError(f"Need minval < maxval, got {lo} >= {hi}")
        v = philox.uniform_int(k, c, size, lo, hi, npd)
    else:
        v = getattr(philox, kind)(k, c, size, npd)
    return out(np.asarray(v).reshape(shape), (), None, 0)


def _from_seed(seed):
    s = tensor(seed)._v.reshape(-1)
    if s.size != 2:
        raise ValueError(f"Shape must be rank 1 but is rank {tensor(seed)._v.ndim}")
    key, ctr = philox.key_counter_from_seed([int(x) for x in s])
    return key[0] | key[1] << 32, [ctr[0] | ctr[1] << 32, ctr[2] | ctr[3] << 32]


def _shape(shape):
    return [int(d) for d in (shape.numpy() if hasattr(shape, "numpy") else shape)]


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    dt = dtypes.as_dtype(dtype)
    key, ctr = _from_seed(seed)
    v = draw("normal", _shape(shape), key, ctr, alg_id(alg), dt.as_numpy_dtype)
    return v * tensor(stddev, dt) + tensor(mean, dt)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    dt = dtypes.as_dtype(dtype)
    key, ctr = _from_seed(seed)
    v = draw("truncated_normal", _shape(shape), key, ctr, alg_id(alg), dt.as_numpy_dtype)
    return v * tensor(stddev, dt) + tensor(mean, dt)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select"):
    dt = dtypes.as_dtype(dtype)
    key, ctr = _from_seed(seed)
    if dt.is_integer:
        if minval is None and maxval is None:
            return draw("full_int", _shape(shape), key, ctr, alg_id(alg), dt.as_numpy_dtype)
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
        lo, hi = int(tensor(minval, dt)._v), int(tensor(maxval, dt)._v)
        return draw("uniform_int", _shape(shape), key, ctr, alg_id(alg), dt.as_numpy_dtype, lo, hi)
    v = draw("uniform", _shape(shape), key, ctr, alg_id(alg), dt.as_numpy_dtype)
    lo, hi = tensor(minval, dt), tensor(1 if maxval is None else maxval, dt)
    return v * (hi - lo) + lo


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """TensorFlow's StatelessRandomBinomial (sim/engine/binomial.py); ``probs`` float32 unless
    typed, ``counts`` converted to its dtype (stateless_random_ops.py's dtype hints)."""
    from sim.engine import binomial
    from sim.engine.tensor import convert_to_tensor
    probs = convert_to_tensor(probs, dtype_hint=dtypes.float32)
    counts = convert_to_tensor(counts, dtype_hint=probs.dtype)
    key, ctr = _from_seed(seed)
    counter = [ctr[0] & 0xFFFFFFFF, ctr[0] >> 32, ctr[1] & 0xFFFFFFFF, ctr[1] >> 32]
    v = binomial.sample(_shape(shape), counts._v, probs._v, [key & 0xFFFFFFFF, key >> 32], counter)
    return out(v.astype(dtypes.as_dtype(output_dtype).as_numpy_dtype), (), None, 0)
