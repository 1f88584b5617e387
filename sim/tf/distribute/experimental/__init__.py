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
    if name in ("ValueContext",):
        from sim.distribute import input as _input
        return getattr(_input, name)
    if name.startswith("_"):
        raise AttributeError(f"module 'tf.distribute.experimental' has no attribute {name!r}")
    from sim.tf._lazy import unsupported
    raise unsupported(f"tf.distribute.experimental.{name}")
