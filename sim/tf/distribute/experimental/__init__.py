"""``tf.distribute.experimental``: CentralStorageStrategy, TPUStrategy and communication options."""
from sim.distribute.communication_options import (CollectiveCommunication, CollectiveHints,
                                                  CommunicationImplementation, CommunicationOptions)

_PS = {   # parameter-server training (sim.distribute.ps)
    "partitioners": ("sim.tf.distribute.experimental.partitioners", None),
    "ShardedVariable": ("sim.distribute.ps.sharded_variable", "ShardedVariable"),
    "ParameterServerStrategy": ("sim.distribute.ps.strategy", "ParameterServerStrategy"),
    "coordinator": ("sim.tf.distribute.experimental.coordinator", None),
}


def __getattr__(name):
    if name == "CentralStorageStrategy":
        from sim.distribute.central_storage import CentralStorageStrategy
        return CentralStorageStrategy
    if name == "TPUStrategy":
        from sim.distribute.tpu import TPUStrategy
        return TPUStrategy
    if name == "MultiWorkerMirroredStrategy":
        from sim.distribute.multi_worker_mirrored import _CollectiveAllReduceStrategyExperimental
        return _CollectiveAllReduceStrategyExperimental
    if name in _PS:
        import importlib
        module, attr = _PS[name]
        return getattr(importlib.import_module(module), attr) if attr else importlib.import_module(module)
    if name in ("ValueContext",):
        from sim.distribute import input as _input
        return getattr(_input, name)
    if name.startswith("_"):
        raise AttributeError(f"module 'tf.distribute.experimental' has no attribute {name!r}")
    from sim.tf._lazy import unsupported
    raise unsupported(f"tf.distribute.experimental.{name}")
