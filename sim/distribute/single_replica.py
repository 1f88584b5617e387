"""The machinery shared by the default strategy and OneDeviceStrategy: one replica, no threads.

``run`` calls ``fn`` once in a replica context with id 0; reductions return the value
(there is nothing to combine); ``update`` calls ``fn(var, *args)``. Its FLOPs become compute
time on the one device, so even a single-device run advances the simulated clock.
"""
from __future__ import annotations

from sim.distribute.replica_context import ReplicaContext
from sim.distribute.strategy import StrategyExtended


class SingleReplicaExtended(StrategyExtended):
    """One replica on one device."""

    _replica_context_class = ReplicaContext

    def __init__(self, container_strategy, device):
        super().__init__(container_strategy)
        self._device = device
        self._devices = (device,)
        self._num_replicas_in_sync = 1

    def _call_for_each_replica(self, fn, args, kwargs):
        from sim.distribute.timing import StepTimer, current
        from sim.engine.counting import counting
        ctx = self._replica_context_class(self._container_strategy(), 0)
        if current() is not None:        # nested inside a running step: no new step
            with ctx:
                return fn(*args, **kwargs)
        with counting() as c, StepTimer(self, self._devices, c):
            with ctx:
                return fn(*args, **kwargs)

    def _reduce_to(self, reduce_op, value, destinations, options):
        return value

    def _gather_to(self, value, destinations, axis):
        return value

    def _update(self, var, fn, args, kwargs, group):
        with self._container_strategy().scope():
            return fn(var._engine_variable() if hasattr(var, "_engine_variable") else var,
                      *args, **kwargs)

    def _experimental_distribute_values_from_function(self, value_fn):
        from sim.distribute.input import ValueContext
        return value_fn(ValueContext())
