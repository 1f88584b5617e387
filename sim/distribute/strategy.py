"""``tf.distribute.Strategy`` and ``StrategyExtended``: the API every strategy shares.

The rules are TensorFlow's (distribute_lib.py): ``run`` enters the scope and calls the
function once per replica; ``reduce``/``gather`` need cross-replica (or default) context;
``reduce`` with an axis first reduces inside each replica (and MEAN divides by the true
global count, so uneven batches weigh correctly). Concrete strategies supply the per-replica
machinery in their ``StrategyExtended`` subclass.
"""
from __future__ import annotations

import weakref
from contextlib import contextmanager

from sim.distribute import context
from sim.distribute.errors import explain
from sim.distribute.reduce_op import ReduceOp, as_reduce_op
from sim.distribute.values import DistributedValues, PerReplica


class _Scope:
    """``with strategy.scope():`` enter cross-replica context and route variable creation."""

    def __init__(self, strategy):
        self._strategy = strategy
        self._pushed = []

    def __enter__(self):
        strategy = self._strategy
        if context.has_strategy():
            context.require_cross_replica_or_default(strategy.extended)
            self._pushed.append(False)
        else:
            context.push_mode(context.cross_replica_mode(strategy))
            creator = strategy.extended._variable_creator_scope()
            creator.__enter__()
            self._pushed.append(creator)
        return strategy

    def __exit__(self, *exc):
        creator = self._pushed.pop()
        if creator is not False:
            creator.__exit__(*exc)
            context.pop_mode()
        return False


class Strategy:
    """A state and compute distribution policy on a list of devices (``tf.distribute.Strategy``)."""

    _tf_name = "tf.distribute.Strategy"

    def __init__(self, extended):
        self._extended = extended

    # -- what it is -------------------------------------------------------------------------
    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return self._extended._num_replicas_in_sync

    @property
    def cluster_resolver(self):
        return getattr(self._extended, "_cluster_resolver", None)

    def scope(self):
        """Make this strategy current: variables created inside become distributed variables."""
        return _Scope(self)

    def __repr__(self):
        from sim.i18n import t
        return t("distribute.repr_replicas", name=self._tf_name, n=self.num_replicas_in_sync)

    # -- running ----------------------------------------------------------------------------
    def run(self, fn, args=(), kwargs=None, options=None):
        """Call ``fn`` once per replica; replica r gets component r of each distributed argument."""
        if not isinstance(args, (list, tuple)):
            raise ValueError(explain(f"positional args must be a list or tuple, got {type(args)}",
                                     "run_args"))
        if not callable(fn):
            raise TypeError(explain(f"{type(fn).__name__!r} object is not callable",
                                    "misuse.run_not_callable", got=repr(fn)[:60]))
        kwargs = kwargs or {}
        with self.scope():
            return self._extended._call_for_each_replica(fn, tuple(args), kwargs)

    def reduce(self, reduce_op, value, axis):
        """Reduce ``value`` across replicas (and along ``axis`` when given) to one tensor."""
        context.require_cross_replica_or_default(self._extended)
        reduce_op = as_reduce_op(reduce_op)
        if axis is None:
            return self._extended._reduce(reduce_op, value)
        from sim.distribute import _ops
        if reduce_op == ReduceOp.SUM:
            value = self.run(lambda v: _ops.reduce_sum(v, axis), args=(value,))
            return self._extended._reduce(reduce_op, value)
        if reduce_op != ReduceOp.MEAN:
            raise TypeError(f"Expected `reduce_op` to be a `tf.distribute.ReduceOp`, not: {reduce_op!r}")

        def mean_reduce_helper(v, axes=axis):
            rank = _ops.rank(v)
            if isinstance(axes, int):
                axes_list = [axes]
            elif isinstance(axes, (tuple, list)):
                axes_list = list(axes)
            else:
                raise TypeError(f"Expected `axis` to be an integer, tuple or list not: {axes!r}")
            for a in axes_list:
                if not -rank <= a < rank:
                    raise ValueError(f"`axis` = {axes!r} out of range for `value` with rank {rank}")
            numer = _ops.reduce_sum(v, axes)
            denom = 1
            for a in axes_list:
                denom *= _ops.dim(v, a)
            return numer, _ops.constant(denom, "int64")

        numer, denom = self.run(mean_reduce_helper, args=(value,))
        numer = self._extended._reduce(ReduceOp.SUM, numer)
        denom = self._extended._reduce(ReduceOp.SUM, denom)
        return _ops.truediv(numer, _ops.cast_like(denom, numer))

    def gather(self, value, axis):
        """Concatenate every replica's ``value`` along ``axis`` on the current device."""
        context.require_cross_replica_or_default(self._extended)
        return self._extended._gather_to(value, None, axis)

    def experimental_local_results(self, value):
        """The components of ``value`` on this worker, as a tuple (``(value,)`` if not distributed)."""
        return self._extended._local_results(value)

    # -- input ------------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None):
        """Split each global batch of ``dataset`` between the replicas (see input.py)."""
        return self._extended._experimental_distribute_dataset(dataset, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """Call ``dataset_fn(InputContext)`` per input pipeline; its batches are per-replica batches."""
        return self._extended._distribute_datasets_from_function(dataset_fn, options)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        """A PerReplica of ``value_fn(ValueContext)`` for each replica."""
        return self._extended._experimental_distribute_values_from_function(value_fn)

    def make_experimental_numpy_dataset(self, numpy_input, session=None):
        from sim.distribute import _ops
        return _ops.dataset_from_tensor_slices(numpy_input)


class StrategyExtended:
    """The less common part of the Strategy API (``strategy.extended``)."""

    def __init__(self, container_strategy):
        # A weak reference, as in TensorFlow: the strategy owns its extended, not the reverse,
        # so a dropped strategy is freed at once (and its replica threads stopped) without
        # waiting for the cycle collector.
        self._container_strategy_ref = weakref.ref(container_strategy)
        self._default_device = None
        self._colocate_with = []
        self.last_step_time = None
        self.last_step_trace = ()
        self.last_step_memory = {}     # device name -> peak bytes of the last step (memory.py)
        self._enable_get_next_as_optional = True

    def _container_strategy(self):
        return self._container_strategy_ref()

    # -- placement and properties -----------------------------------------------------------
    @property
    def worker_devices(self):
        return self._devices

    @property
    def parameter_devices(self):
        return self._devices

    @property
    def should_checkpoint(self):
        return True

    @property
    def should_save_summary(self):
        return True

    @property
    def experimental_should_init(self):
        return True

    @property
    def _in_multi_worker_mode(self):
        return False

    @property
    def experimental_enable_get_next_as_optional(self):
        return self._enable_get_next_as_optional

    def variable_created_in_scope(self, v):
        """True if ``v`` was created while this strategy's scope was active."""
        return getattr(v, "_distribute_strategy", None) is self._container_strategy()

    @contextmanager
    def colocate_vars_with(self, colocate_with_variable):
        """Variables created in the block are placed like ``colocate_with_variable``."""
        self._colocate_with.append(colocate_with_variable)
        try:
            yield
        finally:
            self._colocate_with.pop()

    def value_container(self, value):
        from sim.distribute.values import value_container
        return value_container(value)

    def _local_results(self, value):
        if isinstance(value, DistributedValues):
            return value._values
        return (value,)

    # -- input (the default strategy overrides: it does not split) ---------------------------
    def _experimental_distribute_dataset(self, dataset, options):
        from sim.distribute.input import distribute_dataset
        return distribute_dataset(self, dataset, options)

    def _distribute_datasets_from_function(self, dataset_fn, options):
        from sim.distribute.input import distribute_datasets_from_function
        return distribute_datasets_from_function(self, dataset_fn, options)

    def _variable_creator_scope(self):
        from sim.engine.variable import variable_creator_scope
        return variable_creator_scope(self._create_variable)

    # -- cross-replica operations -----------------------------------------------------------
    def update(self, var, fn, args=(), kwargs=None, group=True):
        """Run ``fn(component, *args)`` on each component of ``var`` (cross-replica context)."""
        context.require_cross_replica_or_default(self)
        return self._update(var, fn, tuple(args), kwargs or {}, group)

    def update_non_slot(self, colocate_with, fn, args=(), kwargs=None, group=True):
        context.require_cross_replica_or_default(self)
        return fn(*args, **(kwargs or {}))

    def reduce_to(self, reduce_op, value, destinations, options=None):
        """Reduce a PerReplica ``value`` to ``destinations`` (a device, variable or distributed value)."""
        context.require_cross_replica_or_default(self)
        return self._reduce_to(as_reduce_op(reduce_op), value, destinations, options)

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        """``reduce_to`` for many (value, destinations) pairs in one call (packed when possible)."""
        context.require_cross_replica_or_default(self)
        return self._batch_reduce_to(as_reduce_op(reduce_op), list(value_destination_pairs), options)

    def _batch_reduce_to(self, reduce_op, pairs, options):
        return [self._reduce_to(reduce_op, v, d, options) for v, d in pairs]

    def call_for_each_replica(self, fn, args=(), kwargs=None):
        with self._container_strategy().scope():
            return self._call_for_each_replica(fn, tuple(args), kwargs or {})

    def _reduce(self, reduce_op, value):
        return self._local_results(self._reduce_to(reduce_op, value, "/device:CPU:0", None))[0]

    def experimental_run_steps_on_iterator(self, *a, **k):
        raise NotImplementedError("sim.tf does not support the TF1 experimental_run_steps_on_iterator.")


def is_per_replica(x):
    return isinstance(x, PerReplica)
