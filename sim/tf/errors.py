"""``tf.errors``: TensorFlow's exception types."""
from __future__ import annotations

from sim.engine.errors import *  # noqa: F401,F403
from sim.engine.errors import (AbortedError, AlreadyExistsError, CancelledError,  # noqa: F401
                               DataLossError, DeadlineExceededError, FailedPreconditionError,
                               InternalError, InvalidArgumentError, NotFoundError, OpError,
                               OutOfRangeError, PermissionDeniedError, ResourceExhaustedError,
                               UnauthenticatedError, UnavailableError, UnimplementedError,
                               UnknownError)
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.errors")
