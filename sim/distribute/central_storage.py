"""``tf.distribute.experimental.CentralStorageStrategy``: one copy of each variable, many replicas.

Variables live once on the parameter device (the CPU, or the only GPU); computation is
replicated on the compute devices; gradients are reduced to the parameter device and applied
once (§8.2). Built on MirroredStrategy's replica threads, with AggregatingVariables and
ReductionToOneDevice to the parameter device (TensorFlow's ParameterServerStrategyExtended in
local mode).

Cost on the simulated clock (collectives.md §1.8, ``g = 1``): each step every replica copies
the variables it reads from the parameter device (all replicas at once, so on one PCIe switch
they share its uplink: ``latency + N·P·W / B_uplink``), the gradients go to the parameter
device (ReductionToOneDevice's gather) and the update runs there once, on its FLOPs.
"""
from __future__ import annotations

from sim.distribute import _machine
from sim.distribute.cross_device_ops import ReductionToOneDevice
from sim.distribute.mirrored import MirroredExtended, resolve_devices
from sim.distribute.strategy import Strategy


class CentralStorageStrategy(Strategy):
    """A one-machine strategy that puts all variables on a single device."""

    _tf_name = "tf.distribute.experimental.CentralStorageStrategy"

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__(CentralStorageExtended(self, compute_devices, parameter_device))

    def __repr__(self):
        from sim.i18n import t
        return t("distribute.repr_on_devices", name=self._tf_name, n=len(self.extended._devices))


class CentralStorageExtended(MirroredExtended):
    """Implementation of CentralStorageStrategy."""

    def __init__(self, container_strategy, compute_devices=None, parameter_device=None):
        devices = resolve_devices(compute_devices)
        # parameter_devices is the name as given, or TF's default: the one compute device, else
        # "/device:CPU:0" (_LOCAL_CPU, parameter_server_strategy.py); variables go to its full name
        self._parameter_name = parameter_device
        if parameter_device is None:
            gpus = _machine.local_devices("GPU")
            parameter_device = gpus[0] if len(gpus) == 1 else (_machine.local_devices("CPU") or devices)[0]
            self._parameter_name = _machine.canonical(parameter_device) if len(devices) == 1 \
                else "/device:CPU:0"
        self._parameter_device = _machine.canonical(parameter_device)
        super().__init__(container_strategy, devices,
                         ReductionToOneDevice(reduce_to_device=self._parameter_device))

    def _step_timer(self, counter):
        """A step timer with the parameter device as a lane: reads from it, the update on it."""
        from sim.distribute import timing
        return timing.StepTimer(self, self._devices, counter, self._parameter_device)

    @property
    def parameter_devices(self):
        return (self._parameter_name,)

    def _make_variable(self, next_creator, kwargs, sync, agg, devices):
        from sim.distribute.variables import AggregatingVariable
        from sim.engine.device import device
        kwargs = dict(kwargs)
        kwargs.pop("colocate_with", None)
        kwargs["synchronization"], kwargs["aggregation"] = sync, agg
        with device(self._parameter_device):
            v = next_creator(**kwargs)
        v._device_name = self._parameter_device
        return AggregatingVariable(self._container_strategy(), [v], agg)
