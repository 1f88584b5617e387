"""``tf.distribute.experimental``: CentralStorageStrategy, TPUStrategy and communication options."""
from sim.distribute.communication_options import (CollectiveCommunication, CollectiveHints,
                                                  CommunicationImplementation, CommunicationOptions)


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
    if name in ("ValueContext",):
        from sim.distribute import input as _input
        return getattr(_input, name)
    raise AttributeError(f"module 'tf.distribute.experimental' has no attribute {name!r}")
