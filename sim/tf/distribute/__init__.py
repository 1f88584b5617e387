"""``tf.distribute``: TensorFlow's names, re-exported from ``sim.distribute`` (no logic here)."""
from sim.distribute.communication_options import CommunicationImplementation, CommunicationOptions
from sim.distribute.context import (experimental_set_strategy, get_replica_context, get_strategy,
                                    has_strategy, in_cross_replica_context)
from sim.distribute.context import get_cross_replica_context
from sim.distribute.one_device import OneDeviceStrategy
from sim.distribute.reduce_op import ReduceOp
from sim.distribute.replica_context import ReplicaContext
from sim.distribute.strategy import Strategy, StrategyExtended
from sim.distribute.values import DistributedValues
from sim.tf.distribute import cluster_resolver, coordinator, experimental

_LAZY = {
    "MirroredStrategy": ("sim.distribute.mirrored", "MirroredStrategy"),
    "CentralStorageStrategy": ("sim.distribute.central_storage", "CentralStorageStrategy"),
    "TPUStrategy": ("sim.distribute.tpu", "TPUStrategy"),
    "MultiWorkerMirroredStrategy": ("sim.distribute.multi_worker_mirrored", "MultiWorkerMirroredStrategy"),
    "CrossDeviceOps": ("sim.distribute.cross_device_ops", "CrossDeviceOps"),
    "NcclAllReduce": ("sim.distribute.cross_device_ops", "NcclAllReduce"),
    "HierarchicalCopyAllReduce": ("sim.distribute.cross_device_ops", "HierarchicalCopyAllReduce"),
    "ReductionToOneDevice": ("sim.distribute.cross_device_ops", "ReductionToOneDevice"),
    "InputContext": ("sim.distribute.input", "InputContext"),
    "InputOptions": ("sim.distribute.input", "InputOptions"),
    "InputReplicationMode": ("sim.distribute.input", "InputReplicationMode"),
    "DistributedDataset": ("sim.distribute.input", "DistributedDataset"),
    "DistributedIterator": ("sim.distribute.input", "DistributedIterator"),
    "ParameterServerStrategy": ("sim.distribute.ps.strategy", "ParameterServerStrategy"),
    "Server": ("sim.distribute.ps.server", "Server"),
}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    if name.startswith("_"):
        raise AttributeError(f"module 'tf.distribute' has no attribute {name!r}")
    from sim.tf._lazy import unsupported
    raise unsupported(f"tf.distribute.{name}")
