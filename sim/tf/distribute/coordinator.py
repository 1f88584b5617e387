"""``tf.distribute.coordinator``: ClusterCoordinator, RemoteValue, PerWorkerValue (no logic)."""
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.distribute.coordinator", (), {
    "ClusterCoordinator": "sim.distribute.ps.coordinator:ClusterCoordinator",
    "RemoteValue": "sim.distribute.ps.remote_value:RemoteValue",
    "PerWorkerValue": "sim.distribute.ps.remote_value:PerWorkerValues",
})
