"""``tf.train``: Checkpoint, CheckpointManager, latest_checkpoint; ClusterSpec from sim.distribute.cluster_spec."""
from __future__ import annotations

from sim.tf._lazy import module_getattr
from sim.storage.checkpoint import Checkpoint, CheckpointManager, latest_checkpoint  # noqa: F401
from sim.storage.checkpoint_reader import load_checkpoint, list_variables  # noqa: F401

__getattr__ = module_getattr("sim.tf.train", (), {
    "ClusterSpec": "sim.distribute.cluster_spec:ClusterSpec",
    "Server": "sim.distribute.ps.server:Server",
})
