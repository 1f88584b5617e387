"""``import sim.tf as tf``: TensorFlow's names over the simulator. Names only, no logic.

Every name here is TensorFlow's, with TensorFlow's signature and behaviour; the work is done
in sim.engine (tensors, ops, autodiff), sim.data (tf.data), sim.distribute and sim.keras.
Submodules load on first use so ``import sim.tf`` stays fast. A TensorFlow name we do not
provide raises NotImplementedError naming it (see docs/tf_subset.md).
"""
from __future__ import annotations

from sim.engine import dtypes as _dt
from sim.engine.dtypes import DType, as_dtype  # noqa: F401
from sim.engine.function import function  # noqa: F401
from sim.engine.ops.array import (broadcast_to, clip_by_value, concat, expand_dims, fill,  # noqa: F401
                                  identity, linspace, ones, ones_like, pad, range, rank, reshape,
                                  shape, size, split, squeeze, stack, stop_gradient, tile,
                                  transpose, unstack, zeros, zeros_like)
from sim.engine.ops.indexing import gather, one_hot, where  # noqa: F401
from sim.engine.ops.linalg import matmul, tensordot  # noqa: F401
from sim.engine.ops.math import (abs, add, add_n, cast, cos, divide, equal, exp, floor,  # noqa: F401
                                 floordiv, greater, greater_equal, less, less_equal, log, logical_and,
                                 logical_not, logical_or, maximum, minimum, multiply, negative,
                                 not_equal, pow, round, sigmoid, sign, sin, sqrt, square,
                                 subtract, tanh, truediv)
from sim.engine.ops.reduce import (argmax, argmin, reduce_all, reduce_any,  # noqa: F401
                                   reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
                                   reduce_prod, reduce_std, reduce_sum, reduce_variance)
from sim.engine.shape import TensorShape  # noqa: F401
from sim.engine.tape import GradientTape, UnconnectedGradients  # noqa: F401
from sim.engine.spec import TensorSpec  # noqa: F401
from sim.engine.tensor import Tensor, constant, convert_to_tensor, is_tensor  # noqa: F401
from sim.engine.variable import (Variable, VariableAggregation,  # noqa: F401
                                 VariableSynchronization, name_scope, variable_creator_scope)
from sim.engine.device import device  # noqa: F401
from sim.engine.module import Module  # noqa: F401
from sim.tf._lazy import module_getattr as _module_getattr
from sim.tf._print import print  # noqa: F401,A004

float16, bfloat16, float32, float64 = _dt.float16, _dt.bfloat16, _dt.float32, _dt.float64
half, double = _dt.float16, _dt.float64
int8, int16, int32, int64, uint8 = _dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.uint8
uint16, uint32, uint64 = _dt.uint16, _dt.uint32, _dt.uint64
bool, string = _dt.bool, _dt.string  # noqa: A001
newaxis = None
__version__ = "2.21.0"  # the TensorFlow version whose behaviour sim.tf follows
version = type("version", (), {"VERSION": __version__, "__doc__": "tf.version"})

_SUBMODULES = ("nn", "math", "random", "config", "data", "train", "errors", "dtypes", "nest",
               "linalg", "saved_model", "keras", "distribute", "experimental", "compat",
               "debugging", "tpu", "io")
# Ops a functional Keras model may apply to its symbolic tensors (recorded as TFOpLambda layers).
from sim.engine.dispatch import dispatching as _dispatching  # noqa: E402
for _name in ("reduce_mean", "reduce_sum", "reduce_max", "reduce_min", "concat", "cast",
              "squeeze", "expand_dims", "reshape", "stack"):
    globals()[_name] = _dispatching(globals()[_name])
del _name

__getattr__ = _module_getattr("sim.tf", _SUBMODULES, {
    "executing_eagerly": "sim.tf._misc:executing_eagerly",
    "ones_initializer": "sim.tf._misc:unsupported_v1",
    "control_dependencies": "sim.tf._misc:control_dependencies",
    "init_scope": "sim.tf._misc:init_scope",
    "py_function": "sim.tf._misc:py_function",
    "numpy_function": "sim.tf._misc:py_function",
    "get_static_value": "sim.tf._misc:get_static_value",
    "sort": "sim.tf._misc:sort",
    "argsort": "sim.tf._misc:argsort",
    "norm": "sim.engine.ops.linalg:norm",
    "get_logger": "sim.tf._misc:get_logger",
    # TensorFlow's aliases of the selected Keras's modules (tf.metrics is tf.keras.metrics)
    "metrics": "sim.tf.keras:metrics",
    "losses": "sim.tf.keras:losses",
    "optimizers": "sim.tf.keras:optimizers",
    "initializers": "sim.tf.keras:initializers",
})
