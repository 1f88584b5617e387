"""Which strategy and which context (cross-replica, replica, default) the current thread is in.

TensorFlow keeps a per-thread stack of "thread modes" (distribute_lib.py): each mode names the
strategy, the cross-replica context (a strategy, or None) and the replica context (or None).
Outside any scope the mode is the default one: the default strategy, no cross-replica context,
and the default replica context (replica id 0). Replica threads of MirroredStrategy push their
own replica mode; ``merge_call`` pushes a cross-replica mode. We keep exactly that model.
"""
from __future__ import annotations

import threading

_tls = threading.local()


class ThreadMode:
    """One entry of the per-thread stack: (strategy, cross_replica_context, replica_context)."""

    __slots__ = ("strategy", "cross_replica_context", "replica_context")

    def __init__(self, strategy, cross_replica_context, replica_context):
        self.strategy = strategy
        self.cross_replica_context = cross_replica_context
        self.replica_context = replica_context


_default_mode = None


def _default():
    global _default_mode
    if _default_mode is None:
        from sim.distribute.default import default_strategy
        strategy = default_strategy()
        _default_mode = ThreadMode(strategy, None, strategy.extended._default_replica_context)
    return _default_mode


def _stack():
    s = getattr(_tls, "stack", None)
    if s is None:
        s = _tls.stack = []
    return s


def current_mode():
    s = _stack()
    return s[-1] if s else _default()


def is_default_mode(mode):
    return mode is _default()


def push_mode(mode):
    _stack().append(mode)


def pop_mode():
    _stack().pop()


def cross_replica_mode(strategy):
    return ThreadMode(strategy, strategy, None)


def replica_mode(replica_context):
    return ThreadMode(replica_context._strategy, None, replica_context)


# -- TensorFlow's public functions -------------------------------------------------------
def get_strategy():
    """The current strategy: the one whose scope we are in, else the default strategy."""
    return current_mode().strategy


def has_strategy():
    """True when a non-default strategy is in scope (``tf.distribute.has_strategy``)."""
    from sim.distribute.default import default_strategy
    return current_mode().strategy is not default_strategy()


def get_replica_context():
    """The ReplicaContext inside ``strategy.run`` (or outside any scope); None in cross-replica."""
    return current_mode().replica_context


def get_cross_replica_context():
    """The strategy when in cross-replica context, else None (outside any scope too)."""
    return current_mode().cross_replica_context


def in_cross_replica_context():
    """True inside ``strategy.scope()`` but outside ``strategy.run`` (or inside a merge_call)."""
    return current_mode().cross_replica_context is not None


def experimental_set_strategy(strategy):
    """Set a strategy for this thread without a ``with`` block (``tf.distribute.experimental_set_strategy``)."""
    old = getattr(_tls, "set_scope", None)
    if old is not None:
        old.__exit__(None, None, None)
        _tls.set_scope = None
    if strategy is not None:
        scope = strategy.scope()
        scope.__enter__()
        _tls.set_scope = scope


def require_cross_replica_or_default(extended, error_message=None):
    """TensorFlow's ``_require_cross_replica_or_default_context_extended``, with its messages."""
    mode = current_mode()
    cross = mode.cross_replica_context
    if cross is not None and cross.extended is extended:
        return
    if mode is _default():
        return
    strategy = extended._container_strategy()
    if mode.strategy is not strategy:
        wrong_strategy_scope(strategy, mode)
    from sim.distribute.errors import explain
    raise RuntimeError(explain(error_message or (
        "Method requires being in cross-replica context, use get_replica_context().merge_call()"),
        "cross_replica_required"))


def wrong_strategy_scope(strategy, mode):
    from sim.distribute.errors import explain
    if not has_strategy():
        raise RuntimeError(explain(f'Need to be inside "with strategy.scope()" for {strategy}',
                                   "need_scope"))
    raise RuntimeError(explain(f"Mixing different tf.distribute.Strategy objects: "
                               f"{mode.strategy} is not {strategy}", "mixing_strategies"))
