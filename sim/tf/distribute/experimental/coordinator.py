"""``tf.distribute.experimental.coordinator``: the same classes under their older names."""
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.distribute.experimental.coordinator", (), {
    "ClusterCoordinator": "sim.distribute.ps.coordinator:ClusterCoordinator",
    "RemoteValue": "sim.distribute.ps.remote_value:RemoteValue",
    "PerWorkerValues": "sim.distribute.ps.remote_value:PerWorkerValues",
})
