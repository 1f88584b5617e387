"""Weight initializers (``tf.keras.initializers``), seeded and drawn in NumPy.

They return NumPy arrays that become a tf.Variable's initial value; with a ``seed`` the draw
depends on the seed only, otherwise on the Keras generator set by ``set_random_seed``.
"""
from __future__ import annotations

import math

import numpy as np

from sim.engine.ops import random as _tf_random
from sim.keras import _errors, backend

# tf.random.set_seed(s) reseeds the generator unseeded initializers draw from (TF2's global seed).
_tf_random.add_seed_listener(backend.seed_everything)


def _dtype(dtype):
    name = getattr(dtype, "name", dtype) or backend.floatx()
    return np.dtype(str(name))


def _fans(shape):
    shape = tuple(int(s) for s in shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """Base class: ``init(shape, dtype)`` returns an array of that shape."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Zeros(Initializer):
    def __call__(self, shape, dtype=None, **kwargs):
        return np.zeros(tuple(shape), _dtype(dtype))


class Ones(Initializer):
    def __call__(self, shape, dtype=None, **kwargs):
        return np.ones(tuple(shape), _dtype(dtype))


class Constant(Initializer):
    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        return np.broadcast_to(np.asarray(self.value, _dtype(dtype)), tuple(shape)).copy()

    def get_config(self):
        return {"value": self.value}


class _Random(Initializer):
    def __init__(self, seed=None):
        self.seed = seed

    def _gen(self):
        return np.random.default_rng(self.seed) if self.seed is not None else backend.rng()

    def get_config(self):
        return {"seed": self.seed}


class RandomNormal(_Random):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, **kwargs):
        return self._gen().normal(self.mean, self.stddev, tuple(shape)).astype(_dtype(dtype))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(_Random):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None, **kwargs):
        return self._gen().uniform(self.minval, self.maxval, tuple(shape)).astype(_dtype(dtype))

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


def _truncated(gen, mean, stddev, shape):
    """Normal draws re-drawn until within two standard deviations (as TF's truncated_normal)."""
    out = gen.normal(0.0, 1.0, shape)
    bad = np.abs(out) > 2.0
    while bad.any():
        out[bad] = gen.normal(0.0, 1.0, int(bad.sum()))
        bad = np.abs(out) > 2.0
    return mean + stddev * out


class TruncatedNormal(_Random):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, **kwargs):
        return _truncated(self._gen(), self.mean, self.stddev, tuple(shape)).astype(_dtype(dtype))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class VarianceScaling(_Random):
    """The family behind Glorot and He (scale / fan, normal or uniform)."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        super().__init__(seed)
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape, dtype=None, **kwargs):
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out}.get(self.mode, (fan_in + fan_out) / 2.0)
        scale = self.scale / max(1.0, n)
        shape = tuple(shape)
        gen = self._gen()
        if self.distribution == "truncated_normal":
            # 0.879... is the stddev of a unit normal truncated to [-2, 2].
            out = _truncated(gen, 0.0, math.sqrt(scale) / 0.87962566103423978, shape)
        elif self.distribution == "untruncated_normal":
            out = gen.normal(0.0, math.sqrt(scale), shape)
        else:
            limit = math.sqrt(3.0 * scale)
            out = gen.uniform(-limit, limit, shape)
        return out.astype(_dtype(dtype))

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed}


class _PresetVarianceScaling(VarianceScaling):
    """A named VarianceScaling whose scale, mode and distribution are fixed: only the seed is
    an argument, so the config (as in TensorFlow) holds only the seed."""

    PRESET = (1.0, "fan_in", "truncated_normal")   # scale, mode, distribution

    def __init__(self, seed=None):
        super().__init__(*self.PRESET, seed)

    def get_config(self):
        return {"seed": self.seed}


class GlorotUniform(_PresetVarianceScaling):
    PRESET = (1.0, "fan_avg", "uniform")


class GlorotNormal(_PresetVarianceScaling):
    PRESET = (1.0, "fan_avg", "truncated_normal")


class HeNormal(_PresetVarianceScaling):
    PRESET = (2.0, "fan_in", "truncated_normal")


class HeUniform(_PresetVarianceScaling):
    PRESET = (2.0, "fan_in", "uniform")


class LecunNormal(_PresetVarianceScaling):
    PRESET = (1.0, "fan_in", "truncated_normal")


class LecunUniform(_PresetVarianceScaling):
    PRESET = (1.0, "fan_in", "uniform")


# TensorFlow's lower-case aliases.
zeros, ones, constant = Zeros, Ones, Constant
glorot_uniform, glorot_normal, he_normal, he_uniform = GlorotUniform, GlorotNormal, HeNormal, HeUniform
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal

_BY_NAME = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal, "he_normal": HeNormal, "he_uniform": HeUniform,
    "random_normal": RandomNormal, "random_uniform": RandomUniform,
    "truncated_normal": TruncatedNormal, "lecun_normal": LecunNormal,
    "lecun_uniform": LecunUniform, "variance_scaling": VarianceScaling,
    "uniform": RandomUniform, "normal": RandomNormal,
}
_BY_NAME.update({cls.__name__: cls for cls in list(_BY_NAME.values())})


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, Initializer) or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict):
        cls = _BY_NAME.get(identifier.get("class_name"))
        if cls is not None:
            return cls(**identifier.get("config", {}))
        identifier = identifier.get("class_name")
    raise ValueError(_errors.msg(
        "unknown_name", f"Unknown initializer: '{identifier}'. Please ensure you are using a "
        "`keras.utils.custom_object_scope` and that this object is included in the scope.",
        kind="initializer", name=identifier,
        known=_errors.known_list(k for k in _BY_NAME if k.islower())))
