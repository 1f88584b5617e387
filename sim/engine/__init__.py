"""The NumPy engine behind ``sim.tf``: tensors, ops that count their cost, GradientTape, Variable.

Modules: dtypes, shape (TensorShape), tensor (Tensor, conversion), ops/ (one file per op family),
tape (GradientTape), variable (Variable, creator scopes, the distributed-variable protocol),
counting (FLOPs and bytes), function (tf.function), nest, errors, device.
"""
from __future__ import annotations

import warnings

from sim.engine import dtypes, errors, nest, ops  # noqa: F401
from sim.engine.counting import Counter, counting  # noqa: F401
from sim.engine.function import function  # noqa: F401
from sim.engine.shape import TensorShape  # noqa: F401
from sim.engine.tape import GradientTape, UnconnectedGradients  # noqa: F401
from sim.engine.tensor import Tensor, constant, convert_to_tensor, is_tensor  # noqa: F401
from sim.engine.variable import (Variable, VariableAggregation,  # noqa: F401
                                 VariableSynchronization, name_scope, variable_creator_scope)

# TensorFlow computes inf and nan silently (tf.debugging.check_numerics finds them on request);
# NumPy warns "divide by zero encountered in log" from inside our kernels. Silence exactly those
# floating-point warnings, only where the engine's own code raises them (learner code keeps its
# own NumPy warnings). A filter costs nothing until a warning is raised.
warnings.filterwarnings("ignore", message=r".* encountered in ", category=RuntimeWarning,
                        module=r"sim\.engine(\.|$)")
