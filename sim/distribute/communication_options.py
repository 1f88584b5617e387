"""``tf.distribute.experimental.CommunicationOptions``: how collectives are packed and run.

``bytes_per_pack`` groups tensors into packs (see cross_device_ops.group_by_size);
``implementation`` picks RING or NCCL for collective-based strategies. Validation and
``merge`` follow TensorFlow's collective_util.py.
"""
from __future__ import annotations

import enum


class CommunicationImplementation(enum.Enum):
    """Which collective implementation to use (``AUTO``, ``RING``, ``NCCL``)."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


CollectiveCommunication = CommunicationImplementation


class CommunicationOptions:
    """Options for cross-device communication (``tf.distribute.experimental.CommunicationOptions``)."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        from sim.distribute.errors import explain
        if bytes_per_pack < 0:
            raise ValueError(explain(f"Argument `bytes_per_pack` must be >=0, Received "
                                     f"{bytes_per_pack}.", "bytes_per_pack"))
        if isinstance(implementation, str) and implementation.upper() in CommunicationImplementation.__members__:
            implementation = CommunicationImplementation[implementation.upper()]
        if not isinstance(implementation, CommunicationImplementation):
            raise ValueError(explain("Argument `implementation` must be instance of "
                                     "`tf.distribute.experimental.CommunicationImplementation`.",
                                     "implementation"))
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation

    __init__.__doc__ = None

    def merge(self, options):
        """A copy of ``self`` where the non-default fields of ``options`` win."""
        merged = CommunicationOptions(self.bytes_per_pack, self.timeout_seconds, self.implementation)
        if options is None:
            return merged
        if options.bytes_per_pack != 0:
            merged.bytes_per_pack = options.bytes_per_pack
        if options.timeout_seconds is not None:
            merged.timeout_seconds = options.timeout_seconds
        if options.implementation != CommunicationImplementation.AUTO:
            merged.implementation = options.implementation
        return merged

    def __repr__(self):
        return (f"CommunicationOptions(bytes_per_pack={self.bytes_per_pack}, "
                f"timeout_seconds={self.timeout_seconds}, implementation={self.implementation})")


class CollectiveHints(CommunicationOptions):
    """Deprecated alias of CommunicationOptions (``tf.distribute.experimental.CollectiveHints``)."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None):
        super().__init__(bytes_per_pack, timeout_seconds)
