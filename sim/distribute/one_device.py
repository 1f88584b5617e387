"""``tf.distribute.OneDeviceStrategy``: everything on one named device, through the strategy API.

Unlike the default strategy it places variables and ``run`` on its device and sends the input
through the distribution machinery (prefetch to the device, no split), so code tested under it
exercises the same calls as a multi-device strategy.
"""
from __future__ import annotations

from sim.distribute import _machine
from sim.distribute.single_replica import SingleReplicaExtended
from sim.distribute.strategy import Strategy


class OneDeviceStrategy(Strategy):
    """A distribution strategy for running on a single device."""

    _tf_name = "tf.distribute.OneDeviceStrategy"

    def __init__(self, device):
        super().__init__(OneDeviceExtended(self, _machine.canonical(device)))

    def __repr__(self):
        return f"<tf.distribute.OneDeviceStrategy on {self.extended._device}>"


class OneDeviceExtended(SingleReplicaExtended):
    """Implementation of OneDeviceStrategy."""

    def _call_for_each_replica(self, fn, args, kwargs):
        from sim.engine.device import device
        with device(self._device):     # placement is forced: ops in ``run`` land on the device
            return super()._call_for_each_replica(fn, args, kwargs)

    def _create_variable(self, next_creator, **kwargs):
        from sim.engine.device import device
        kwargs.pop("colocate_with", None)
        with device(self._device):
            v = next_creator(**kwargs)
        v._distribute_strategy = self._container_strategy()
        return v
