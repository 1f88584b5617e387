"""``tf.errors``: TensorFlow's exception types, so learner code can catch what TF raises.

``OpError`` subclasses keep TensorFlow's names and bases (InvalidArgumentError is raised for
shape mismatches, OutOfRangeError at the end of a dataset iterator).
"""
from __future__ import annotations


class OpError(Exception):
    """Base of TensorFlow's runtime errors: ``message``, ``node_def``, ``op``."""

    def __init__(self, node_def=None, op=None, message="", *args):
        super().__init__(message)
        self.node_def, self.op, self.message = node_def, op, message

    def __str__(self):
        return self.message


def _make(name, doc):
    return type(name, (OpError,), {"__doc__": doc, "__init__": _init})


def _init(self, node_def=None, op=None, message="", *args, **kwargs):
    # TF's constructors take (node_def, op, message); allow Error("text") too.
    if isinstance(node_def, str) and op is None and not message:
        node_def, message = None, node_def
    OpError.__init__(self, node_def, op, message)


CancelledError = _make("CancelledError", "An operation was cancelled.")
UnknownError = _make("UnknownError", "An unknown error.")
InvalidArgumentError = _make("InvalidArgumentError", "An op got an invalid argument (often a shape).")
DeadlineExceededError = _make("DeadlineExceededError", "A deadline expired.")
NotFoundError = _make("NotFoundError", "A file or resource was not found.")
AlreadyExistsError = _make("AlreadyExistsError", "An entity already exists.")
PermissionDeniedError = _make("PermissionDeniedError", "No permission.")
ResourceExhaustedError = _make("ResourceExhaustedError", "Out of memory or quota.")
FailedPreconditionError = _make("FailedPreconditionError", "The system is not in a state for the op.")
AbortedError = _make("AbortedError", "The operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", "Iterated past the end (end of a dataset).")
UnimplementedError = _make("UnimplementedError", "The op is not implemented.")
InternalError = _make("InternalError", "An internal invariant broke.")
UnavailableError = _make("UnavailableError", "A worker or service is unavailable.")
DataLossError = _make("DataLossError", "Unrecoverable data loss.")
UnauthenticatedError = _make("UnauthenticatedError", "No valid credentials.")

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16


class EndOfDataset(StopIteration):
    """The end of a tf.data iterator's ``next()``: a StopIteration, so Python's ``for`` and
    ``next()`` end as in eager TensorFlow; a ``tf.function`` it escapes raises OutOfRangeError
    instead, as TensorFlow's graph does (its ``next()`` is an IteratorGetNext op)."""


# Shown as the StopIteration TensorFlow's eager iterators raise (tracebacks, type(e).__name__).
EndOfDataset.__name__ = EndOfDataset.__qualname__ = "StopIteration"
EndOfDataset.__module__ = "builtins"


class UnsupportedName(NotImplementedError, AttributeError):
    """A TensorFlow name outside the sim.tf subset (also an AttributeError, so hasattr works)."""


def unsupported(tf_name):
    """The error for a TensorFlow name outside the subset, with what to use instead where known."""
    from sim.engine.alternatives import instead
    from sim.i18n import t
    return UnsupportedName(t("engine.unsupported", name=tf_name) + instead(tf_name))
