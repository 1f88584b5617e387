"""The default strategy: what ``tf.distribute.get_strategy()`` returns outside any scope.

A pass-through singleton (TensorFlow's ``_DefaultDistributionStrategy``): ``run(fn)`` just
calls ``fn``, ``reduce`` with ``axis=None`` returns the value, datasets are not split. It lets
library code (Keras, optimizers) call the Strategy API unconditionally.
"""
from __future__ import annotations

from sim.distribute.errors import explain
from sim.distribute.replica_context import DefaultReplicaContext
from sim.distribute.single_replica import SingleReplicaExtended
from sim.distribute.strategy import Strategy

_instance = None
_creating = False


class _DefaultDistributionStrategy(Strategy):
    """Default `tf.distribute.Strategy` if none is explicitly selected."""

    _tf_name = "tf.distribute default strategy"

    def __init__(self):
        if not _creating:
            raise RuntimeError(explain("Should only create a single instance of "
                                       "_DefaultDistributionStrategy", "default_singleton"))
        super().__init__(_DefaultDistributionExtended(self))

    def __deepcopy__(self, memo):
        raise RuntimeError(explain("Should only create a single instance of "
                                   "_DefaultDistributionStrategy", "default_singleton"))

    def __repr__(self):
        from sim.i18n import t
        return t("distribute.repr_default")


def _default_device():
    """Where code outside any strategy runs: the current machine's first GPU, else CPU."""
    from sim.distribute._machine import current_machine
    machine = current_machine()
    gpus = machine.devices_of("GPU")
    return (gpus or machine.devices_of("CPU") or machine.devices)[0].name


class _DefaultDistributionExtended(SingleReplicaExtended):
    """Pass-through: no placement, no splitting."""

    _replica_context_class = DefaultReplicaContext

    def __init__(self, container_strategy):
        super().__init__(container_strategy, _default_device())
        self._default_replica_context = DefaultReplicaContext(container_strategy, 0)

    def _call_for_each_replica(self, fn, args, kwargs):
        self._devices = (_default_device(),)     # the current machine may have changed
        return super()._call_for_each_replica(fn, args, kwargs)

    def variable_created_in_scope(self, v):
        return getattr(v, "_distribute_strategy", None) is None

    def _create_variable(self, next_creator, **kwargs):
        kwargs.pop("colocate_with", None)
        return next_creator(**kwargs)

    def _variable_creator_scope(self):
        from contextlib import nullcontext
        return nullcontext()

    @property
    def worker_devices(self):
        raise RuntimeError(explain("worker_devices() method unsupported by default "
                                   "tf.distribute.Strategy.", "default_devices"))

    @property
    def parameter_devices(self):
        raise RuntimeError(explain("parameter_devices() method unsupported by default "
                                   "tf.distribute.Strategy.", "default_devices"))

    def _experimental_distribute_dataset(self, dataset, options):
        return dataset

    def _distribute_datasets_from_function(self, dataset_fn, options):
        from sim.distribute.input import InputContext
        return dataset_fn(InputContext())


def default_strategy():
    """The default strategy singleton."""
    global _instance, _creating
    if _instance is None:
        _creating = True
        try:
            _instance = _DefaultDistributionStrategy()
        finally:
            _creating = False
    return _instance
