"""``tf.random.Generator``: a random stream whose state is a variable, as TensorFlow 2.21 has it.

Follows tensorflow/python/ops/stateful_random_ops.py line by line: the state is an int64 variable
``[counter_lo, counter_hi, key]`` (Philox) or ``[counter, key]`` (ThreeFry); ``from_seed``
chops the seed into 64-bit words; every draw first reads the state and skips it by the draw's
size (``rng_read_and_skip``: 256 Philox counters per element), then runs the stateless kernel on
that key and counter (sim/engine/philox.py), so the numbers are TensorFlow's. Under a strategy
whose scope made the generator, a replica's key is hashed with its replica id (one stateless
full-int draw), so replicas get different, reproducible streams; a generator made outside any
strategy is one variable that the replicas draw from one after another.
"""
from __future__ import annotations

import numpy as np

from sim.distribute import context
from sim.engine import dtypes, philox
from sim.engine.errors import InvalidArgumentError
from sim.engine.ops import random as _random
from sim.engine.ops.stateless_random import alg_id, check_alg, draw
from sim.engine.tensor import Tensor, convert_to_tensor
from sim.engine.variable import Variable, name_scope

STATE_SIZE = {1: 3, 2: 2, 3: 3}     # philox, threefry, auto_select
COUNTER_SIZE = {1: 2, 2: 1, 3: 2}


def _to_int64(seed):
    return seed - (1 << 64) if isinstance(seed, int) and seed > (1 << 63) - 1 else seed


def create_rng_state(seed, alg):
    """``tf.random.create_rng_state``: a seed's 64-bit words, low first, padded at the front."""
    alg = alg_id(alg)
    size = STATE_SIZE[alg]
    if isinstance(seed, int):
        words = []
        for _ in range(size):
            words.append(seed & 0xFFFFFFFFFFFFFFFF)
            seed >>= 64
        seed = words
    flat = np.asarray([_to_int64(int(s)) for s in np.ravel(np.asarray(seed, dtype=object))],
                      dtype=np.int64)[:size]
    return np.concatenate([np.zeros(size - flat.size, np.int64), flat])


def _state_array(state):
    a = state.numpy() if hasattr(state, "numpy") else np.asarray(
        [_to_int64(int(s)) for s in np.ravel(np.asarray(state, dtype=object))])
    return np.asarray(a).astype(np.int64)


class Generator:
    """A random stream with its own state variable (``tf.random.Generator``)."""

    def __init__(self, copy_from=None, state=None, alg=None):
        self._distribution_strategy = context.get_strategy() if context.has_strategy() else None
        if copy_from is not None:
            assert (alg or state) is None
            self._state_var = self._create_variable(copy_from.state.numpy())
            self._alg = copy_from.algorithm
            return
        assert alg is not None and state is not None
        alg = alg_id(alg)
        if isinstance(state, Variable) or hasattr(state, "_engine_variable"):
            self._state_var = state
        else:
            state = _state_array(state)
            if state.shape != (STATE_SIZE[alg],):
                raise ValueError(f"Shapes {tuple(state.shape)} and ({STATE_SIZE[alg]},) are incompatible")
            self._state_var = self._create_variable(state)
        self._alg = alg

    @staticmethod
    def _create_variable(state):
        with name_scope("random_generator"):
            return Variable(np.asarray(state, np.int64), trainable=False, name="StateVar",
                            dtype=dtypes.int64)

    # -- making one -------------------------------------------------------------------
    @classmethod
    def from_state(cls, state, alg):
        return cls(alg=alg, state=state)

    @classmethod
    def from_seed(cls, seed, alg=None):
        alg = alg_id(1 if alg is None else alg)
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """TensorFlow draws the state from the OS; the course stays repeatable: the state comes
        from the global seed's stream (tf.random.set_seed), different at each call."""
        alg = alg_id(1 if alg is None else alg)
        rng = _random._rng(None)
        state = rng.integers(-(1 << 63), (1 << 63) - 1, size=STATE_SIZE[alg], dtype=np.int64)
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        alg = alg_id(alg)
        counter = _state_array(counter).reshape(-1)
        if counter.shape != (STATE_SIZE[alg] - 1,):
            raise ValueError(f"Shapes {tuple(counter.shape)} and ({STATE_SIZE[alg] - 1},) are incompatible")
        return cls(state=np.concatenate([counter, _state_array([key])]), alg=alg)

    # -- its state ----------------------------------------------------------------------
    def reset(self, state):
        state = _state_array(state)
        if state.shape != (STATE_SIZE[self._alg],):
            raise ValueError(f"Shapes {tuple(state.shape)} and ({STATE_SIZE[self._alg]},) are incompatible")
        self._state_var.assign(state)

    def reset_from_seed(self, seed):
        self._state_var.assign(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        counter = _state_array(counter).reshape(-1)
        self._state_var.assign(np.concatenate([counter, _state_array([key])]))

    @property
    def state(self):
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return self._state_var[-1]

    def _local_state(self):
        """The variable a draw reads and skips: the running replica's copy of a mirrored state."""
        var = self._state_var
        return var._get() if hasattr(var, "_get") else var

    def skip(self, delta):
        """Advance the counter by ``delta`` draws (256 counters each for Philox); returns the old
        state (``rng_read_and_skip``)."""
        if self._distribution_strategy is not None and context.in_cross_replica_context() \
                and hasattr(self._state_var, "values"):
            old = [self._skip_one(v, delta) for v in self._state_var.values]
            return old[0]
        return self._skip_one(self._local_state(), delta)

    def _skip_one(self, var, delta):
        check_alg(self._alg)
        old = np.asarray(var.numpy(), np.int64)
        new = old.copy()
        words = [int(w) & 0xFFFFFFFFFFFFFFFF for w in old]
        if self._alg == 2:
            new[0] = _to_int64((words[0] + int(delta) * 256) & 0xFFFFFFFFFFFFFFFF)
        else:
            ctr = philox.skip([words[0] & 0xFFFFFFFF, words[0] >> 32, words[1] & 0xFFFFFFFF,
                               words[1] >> 32], int(delta) * 256)
            new[0] = _to_int64(ctr[0] | ctr[1] << 32)
            new[1] = _to_int64(ctr[2] | ctr[3] << 32)
        var.assign(new)
        return Tensor(old)

    def _key_counter(self, shape):
        size = int(np.prod([int(d) for d in shape], dtype=np.int64))
        old = [int(w) & 0xFFFFFFFFFFFFFFFF for w in self.skip(size).numpy()]
        n = COUNTER_SIZE[self._alg]
        counter, key = old[:n], old[n]
        if self._distribution_strategy is not None:
            ctx = context.get_replica_context()
            if ctx is not None and context.get_strategy() is self._distribution_strategy:
                rid = int(ctx.replica_id_in_sync_group)
                key = int(draw("full_int", [1], key, [rid, 0], self._alg, np.uint64)[0])
        return key, counter

    # -- drawing ----------------------------------------------------------------------
    def _draw(self, kind, shape, dtype, **kw):
        shape = [int(d) for d in (shape.numpy() if hasattr(shape, "numpy") else shape)]
        key, counter = self._key_counter(shape)
        return draw(kind, shape, key, counter, self._alg, dtype, **kw)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        mean, stddev = convert_to_tensor(mean, dt), convert_to_tensor(stddev, dt)
        return self._draw("normal", shape, dt.as_numpy_dtype) * stddev + mean

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        mean, stddev = convert_to_tensor(mean, dt), convert_to_tensor(stddev, dt)
        return self._draw("truncated_normal", shape, dt.as_numpy_dtype) * stddev + mean

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        if dt.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dt}, minval and maxval must be both `None` or "
                                 f"both non-`None`; got minval={minval} and maxval={maxval}")
            if minval is None:
                return self.uniform_full_int(shape, dtype=dt)
            lo, hi = convert_to_tensor(minval, dt), convert_to_tensor(maxval, dt)
            return self._draw("uniform_int", shape, dt.as_numpy_dtype, lo=int(lo._v), hi=int(hi._v))
        lo = convert_to_tensor(minval, dt)
        hi = convert_to_tensor(1 if maxval is None else maxval, dt)
        return self._draw("uniform", shape, dt.as_numpy_dtype) * (hi - lo) + lo

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        dt = dtypes.as_dtype(dtype)
        return self._draw("full_int", shape, dt.as_numpy_dtype)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """Counts of successes: each of ``counts`` trials succeeds with ``probs``, TensorFlow's
        StatefulRandomBinomial kernel on this generator's Philox state (sim/engine/binomial.py)."""
        from sim.engine import binomial
        counts, probs = convert_to_tensor(counts), convert_to_tensor(probs)
        if not counts.dtype.is_floating:   # kernels are registered for half, float, double
            raise InvalidArgumentError(None, None, "No OpKernel was registered to support Op "
                                       "'StatefulRandomBinomial' used by {{node StatefulRandomBinomial}} "
                                       f"with these attrs: [T=DT_{counts.dtype.name.upper()}, "
                                       f"dtype=DT_{_DT.get(dtypes.as_dtype(dtype).name, dtypes.as_dtype(dtype).name.upper())}, S=DT_INT32]")
        if counts.dtype != probs.dtype:
            raise InvalidArgumentError(None, None, f"cannot compute StatefulRandomBinomial as input "
                                       f"#4(zero-based) was expected to be a {counts.dtype.name} "
                                       f"tensor but is a {probs.dtype.name} tensor")
        if self._alg != 1:
            raise InvalidArgumentError(None, None, f"Unsupported algorithm id: {self._alg}")
        shape = [int(d) for d in (shape.numpy() if hasattr(shape, "numpy") else shape)]
        batch_ndim = len(np.broadcast_shapes(counts._v.shape, probs._v.shape))
        old = [int(w) & 0xFFFFFFFFFFFFFFFF for w in
               self.skip(binomial.state_advance(shape, batch_ndim)).numpy()]
        counter = [old[0] & 0xFFFFFFFF, old[0] >> 32, old[1] & 0xFFFFFFFF, old[1] >> 32]
        key = [old[2] & 0xFFFFFFFF, old[2] >> 32]
        v = binomial.sample(shape, counts._v, probs._v, key, counter)
        return Tensor(v.astype(dtypes.as_dtype(dtype).as_numpy_dtype))

    def make_seeds(self, count=1):
        keys = self.uniform_full_int([count], dtype=dtypes.int64)._v
        return Tensor(np.stack([keys, np.zeros_like(keys)]))

    def split(self, count=1):
        keys = self.uniform_full_int([count], dtype=dtypes.int64)._v
        size = STATE_SIZE[self._alg]
        return [Generator(state=[0] * (size - 1) + [int(k)], alg=self._alg) for k in keys]

    # checkpoints track the state variable (tf.train.Checkpoint(generator=g))
    def _checkpoint_dependencies(self):
        return {"_state_var": self._state_var}


_global_generator = None
_DT = {"float16": "HALF", "float32": "FLOAT", "float64": "DOUBLE"}   # TensorFlow's DT_ names


def get_global_generator():
    """``tf.random.get_global_generator``: made on first use (from the course's seeded stream)."""
    global _global_generator
    if _global_generator is None:
        _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


def set_global_generator(generator):
    global _global_generator
    _global_generator = generator
