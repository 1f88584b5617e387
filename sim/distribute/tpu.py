"""``tf.distribute.TPUStrategy`` on a simulated TPU host, and how a program reaches the TPU.

The guide's three steps are kept: ``TPUClusterResolver(tpu=...)`` names the TPU (a preset name
such as "tpu-v3-8", or any address, which means the default "tpu-v3-8"),
``experimental_connect_to_cluster`` makes that machine current, and
``initialize_tpu_system`` must run before the strategy is built. The cores then run as
synchronous replicas, like MirroredStrategy (§8.5); ``run`` is accepted with or without
``tf.function`` (TensorFlow wraps a plain function itself).
"""
from __future__ import annotations

from sim.distribute import _machine
from sim.distribute.cross_device_ops import AllReduceCrossDeviceOps
from sim.distribute.errors import explain
from sim.distribute.mirrored import MirroredExtended
from sim.distribute.strategy import Strategy

DEFAULT_TPU = "tpu-v3-8"
_initialized: set = set()


class TPUClusterResolver:
    """Finds the (simulated) TPU (``tf.distribute.cluster_resolver.TPUClusterResolver``)."""

    def __init__(self, tpu=None, zone=None, project=None, job_name="worker",
                 coordinator_name=None, coordinator_address=None, credentials="default",
                 service=None, discovery_url=None):
        from sim.hardware import preset_names
        self._tpu = tpu
        self.task_type, self.task_id, self.rpc_layer = job_name, 0, "grpc"
        if isinstance(tpu, str) and tpu in preset_names():
            self._preset = tpu
        else:
            current = _machine.current_machine()
            self._preset = current if current.devices_of("TPU") else DEFAULT_TPU

    def machine(self):
        if isinstance(self._preset, str):
            from sim.hardware import preset
            self._preset = preset(self._preset)
        return self._preset

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        return "" if self._tpu in (None, "", "local") else f"grpc://{self._tpu}"

    def get_master(self):
        return self.master()

    def cluster_spec(self):
        return {"worker": ["localhost:8470"]}

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {"TPU": len(self.machine().devices_of("TPU"))}

    def __repr__(self):
        return f"<TPUClusterResolver tpu={self._tpu!r}>"


def experimental_connect_to_cluster(cluster_spec_or_resolver, *args, **kwargs):
    """Make the resolver's simulated TPU machine the current machine."""
    if isinstance(cluster_spec_or_resolver, TPUClusterResolver):
        _machine.use_machine(cluster_spec_or_resolver.machine())


def initialize_tpu_system(cluster_resolver=None):
    """Initialize the TPU devices (required before TPUStrategy); returns a small topology record."""
    resolver = cluster_resolver or TPUClusterResolver()
    machine = resolver.machine()
    if not machine.devices_of("TPU"):
        raise ValueError(explain("Could not find any TPU devices", "tpu_not_found"))
    _machine.use_machine(machine)
    _initialized.add(id(machine))
    return TPUTopology(len(machine.devices_of("TPU")))


def shutdown_tpu_system(cluster_resolver=None):
    _initialized.discard(id(_machine.current_machine()))


class TPUTopology:
    """What initialize_tpu_system returns: the number of TPU cores."""

    def __init__(self, num_cores):
        self.num_tasks, self.num_tpus_per_task = 1, num_cores

    def __repr__(self):
        return f"<tf.tpu.experimental.Topology: {self.num_tpus_per_task} TPU cores>"


class _TPUAllReduce(AllReduceCrossDeviceOps):
    """The cores' all-reduce over the ICI links: a ring on the simulated torus."""

    _algorithm = "ring"

    def __init__(self):
        super().__init__("ring", num_packs=1)


class TPUStrategy(Strategy):
    """Synchronous training on TPU cores (``tf.distribute.TPUStrategy``)."""

    _tf_name = "tf.distribute.TPUStrategy"

    def __init__(self, tpu_cluster_resolver=None, experimental_device_assignment=None,
                 experimental_spmd_xla_partitioning=False):
        resolver = tpu_cluster_resolver or TPUClusterResolver()
        machine = resolver.machine()
        if id(machine) not in _initialized or _machine.current_machine() is not machine:
            raise RuntimeError(explain(
                "TPU system is not initialized: call "
                "tf.tpu.experimental.initialize_tpu_system(cluster_resolver) before creating "
                "TPUStrategy.", "tpu_not_initialized"))
        devices = tuple(d.name for d in machine.devices_of("TPU"))
        super().__init__(TPUExtended(self, devices, _TPUAllReduce()))
        self.extended._cluster_resolver = resolver

    def __repr__(self):
        from sim.i18n import t
        return t("distribute.repr_tpu_cores", name=self._tf_name, n=self.num_replicas_in_sync)


class TPUExtended(MirroredExtended):
    """TPU cores as mirrored replicas."""

    @property
    def num_hosts(self):
        return 1

    @property
    def num_replicas_per_host(self):
        return self._num_replicas_in_sync
