"""``tf.distribute.experimental.partitioners``: re-exported from sim.distribute.ps (no logic)."""
from sim.distribute.ps.partitioners import (FixedShardsPartitioner, MaxSizePartitioner,  # noqa: F401
                                            MinSizePartitioner, Partitioner)
