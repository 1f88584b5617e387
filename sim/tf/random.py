"""``tf.random``: seeded random tensors following TensorFlow's global/op seed rules, and
TensorFlow's counter-based ``Generator`` and stateless ops (Philox, TensorFlow's numbers)."""
from __future__ import annotations

import enum

from sim.distribute.random_generator import (Generator, create_rng_state,  # noqa: F401
                                             get_global_generator, set_global_generator)
from sim.engine.ops.random import (categorical, normal, set_seed, shuffle,  # noqa: F401
                                   truncated_normal, uniform)
from sim.engine.ops.stateless_random import (stateless_binomial, stateless_normal,  # noqa: F401
                                             stateless_truncated_normal, stateless_uniform)
from sim.tf._lazy import module_getattr


class Algorithm(enum.Enum):
    """``tf.random.Algorithm``: the RNG algorithms a Generator or stateless op can name."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


class experimental:  # noqa: N801 - tf.random.experimental's names
    Generator = Generator
    create_rng_state = staticmethod(create_rng_state)
    get_global_generator = staticmethod(get_global_generator)
    set_global_generator = staticmethod(set_global_generator)
    Algorithm = Algorithm


__getattr__ = module_getattr("sim.tf.random")
