"""``tf.data.Options`` and the auto-shard policy the distribute layer reads.

Options set with ``with_options`` merge along the pipeline: a field set later wins, fields
never set keep their defaults (``auto_shard_policy`` is AUTO unless set).
"""
from __future__ import annotations

import enum

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
SHARD_HINT = -1


class AutoShardPolicy(enum.IntEnum):
    """How a multi-worker strategy shards a dataset (``tf.data.experimental.AutoShardPolicy``)."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class _OptionGroup:
    """Attributes with defaults; remembers which ones were set so merging can respect them."""

    _defaults: dict = {}

    def __init__(self):
        object.__setattr__(self, "_set", {})

    def __getattr__(self, name):
        if name in self._defaults:
            return self._set.get(name, self._defaults[name])
        raise AttributeError(f"{type(self).__name__} has no option {name!r}")

    def __setattr__(self, name, value):
        if name not in self._defaults:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}; "
                                 f"options: {', '.join(sorted(self._defaults))}")
        self._set[name] = value

    def _merge(self, other):
        self._set.update(other._set)

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, k) == getattr(other, k) for k in self._defaults)


class DistributeOptions(_OptionGroup):
    """``options.experimental_distribute``: ``auto_shard_policy``, ``num_devices``."""
    _defaults = {"auto_shard_policy": AutoShardPolicy.AUTO, "num_devices": None}


class OptimizationOptions(_OptionGroup):
    """``options.experimental_optimization``: accepted; nothing to optimize eagerly."""
    _defaults = {"apply_default_optimizations": None, "map_parallelization": None,
                 "parallel_batch": None, "noop_elimination": None, "inject_prefetch": None}


class ThreadingOptions(_OptionGroup):
    _defaults = {"max_intra_op_parallelism": None, "private_threadpool_size": None}


class Options:
    """``tf.data.Options``: ``experimental_distribute.auto_shard_policy`` and the rest."""

    _FLAGS = {"deterministic": None, "experimental_deterministic": None,
              "experimental_slack": False, "experimental_external_state_policy": None,
              "experimental_warm_start": False, "experimental_symbolic_checkpoint": False}

    def __init__(self):
        self.experimental_distribute = DistributeOptions()
        self.experimental_optimization = OptimizationOptions()
        self.threading = ThreadingOptions()
        self._flags = {}

    def __getattr__(self, name):
        if name in Options._FLAGS:
            return self.__dict__["_flags"].get(name, Options._FLAGS[name])
        raise AttributeError(f"tf.data.Options has no option {name!r}")

    def __setattr__(self, name, value):
        if name in Options._FLAGS:
            self._flags[name] = value
        elif name in ("experimental_distribute", "experimental_optimization", "threading",
                      "_flags", "experimental_threading"):
            object.__setattr__(self, name, value)
        else:
            raise AttributeError(f"tf.data.Options has no option {name!r}")

    def merge(self, options):
        """A new Options: these, overridden by whatever ``options`` set."""
        out = Options()
        for src in (self, options):
            out.experimental_distribute._merge(src.experimental_distribute)
            out.experimental_optimization._merge(src.experimental_optimization)
            out.threading._merge(src.threading)
            out._flags.update(src._flags)
        return out

    def __eq__(self, other):
        return (isinstance(other, Options) and self._flags == other._flags
                and self.experimental_distribute == other.experimental_distribute)
