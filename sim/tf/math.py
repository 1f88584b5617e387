"""``tf.math``: elementwise math, comparisons and reductions under TensorFlow's names."""
from __future__ import annotations

from sim.engine.ops.indexing import where  # noqa: F401
from sim.engine.ops.math import divide_no_nan  # noqa: F401
from sim.engine.ops.math import (abs, add, add_n, ceil, cos, divide, equal, erf, exp,  # noqa: F401
                                 floor, floordiv, floormod, greater, greater_equal, is_finite,
                                 is_inf, is_nan, less, less_equal, log, log1p, logical_and,
                                 logical_not, logical_or, logical_xor, maximum, minimum, mod,
                                 multiply, negative, not_equal, pow, realdiv, reciprocal,
                                 round, rsqrt, sigmoid, sign, sin, softplus, sqrt, square,
                                 squared_difference, subtract, tanh, truediv)
from sim.engine.ops.nn import log_softmax, softmax  # noqa: F401
from sim.engine.ops.reduce import (argmax, argmin, reduce_all, reduce_any,  # noqa: F401
                                   reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
                                   reduce_prod, reduce_std, reduce_sum, reduce_variance)
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.math")
