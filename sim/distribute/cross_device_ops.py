"""TensorFlow's cross-device ops: how MirroredStrategy combines the replicas' values.

* ``ReductionToOneDevice``: copy every component to one device, ``add_n`` there, divide for
  MEAN, copy the result to every destination (collectives.md §1.2). Per tensor, no packing;
  the copies of each phase run at once on the simulated machine (``_copies``).
* ``NcclAllReduce`` / ``HierarchicalCopyAllReduce`` (``AllReduceCrossDeviceOps``): pack the
  gradients (``num_packs``), all-reduce each pack with NCCL's algorithm or the DGX-1 copy tree
  (§1.7), unpack. They fall back to ReductionToOneDevice when the destinations are not the
  values' own devices or include a CPU, as TensorFlow's do.
The arrays are reduced by sim.collectives' executor and timed by its replay (``_collective``).
"""
from __future__ import annotations

import numpy as np

from sim.distribute import _collective, _copies, _ops, packing, timing
from sim.distribute.errors import addn_shape_error, explain
from sim.distribute.reduce_op import ReduceOp
from sim.distribute.values import DistributedValues, Mirrored, PerReplica


def devices_of(x):
    """The device names a value or destination lives on (a tuple)."""
    if isinstance(x, str):
        return (x,)
    names = getattr(x, "_device_names", None)
    if names is not None:
        return tuple(names)
    if isinstance(x, DistributedValues):
        return tuple(getattr(v, "_device_name", None) or "" for v in x._values)
    return (getattr(x, "_device_name", None) or "",)


def validate_destinations(destinations):
    if not isinstance(destinations, (DistributedValues, str)) and not hasattr(destinations, "_as_tensor"):
        raise ValueError(explain("destinations must be one of a `DistributedValues` object, a "
                                 "tf.Variable object, or a device string.", "destinations"))
    if isinstance(destinations, str) and not destinations:
        raise ValueError(explain("destinations can not be empty", "destinations"))


def _check_op(reduce_op):
    if reduce_op not in (ReduceOp.SUM, ReduceOp.MEAN):
        raise ValueError(explain("`reduce_op` must be Reduce.SUM or Reduce.MEAN.", "reduce_op"))


def reduce_non_distributed_value(reduce_op, value, destinations, num_replicas_in_sync):
    """Reduce a value that is not a PerReplica (TensorFlow's ``reduce_non_distributed_value``)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0 \
            and type(value) is int:
        return 0
    if reduce_op == ReduceOp.MEAN:
        return value
    if num_replicas_in_sync != 1:
        raise ValueError(explain(
            f"A non-DistributedValues value {value!s} cannot be reduced with the given reduce op "
            f"{reduce_op}.", "non_distributed_reduce", n=num_replicas_in_sync))
    dests = devices_of(destinations)
    if len(dests) == 1:
        return value
    return _mirrored([value] * len(dests), dests)


def _mirrored(values, devices):
    """One component per device; each device gets its own Tensor object (its own copy)."""
    if len(values) == 1:
        return values[0]
    from sim.engine.tensor import Tensor
    values = [Tensor(v._v, v._dt) if type(v) is Tensor and i and v is values[0] else v
              for i, v in enumerate(values)]
    m = Mirrored(values)
    m._device_names = tuple(devices)
    return m


def _arrays(value):
    return [np.asarray(_ops.to_numpy(v)) for v in value._values]


def _check_shapes(arrays, device=None):
    shapes = [a.shape for a in arrays]
    if any(s != shapes[0] for s in shapes) and device is not None:
        raise addn_shape_error(shapes, device)
    if any(s != shapes[0] for s in shapes):
        from sim.engine.errors import InvalidArgumentError
        from sim.i18n import join_list
        raise InvalidArgumentError(explain(
            f"Shapes of all inputs must match: values[0].shape = {list(shapes[0])} != "
            f"values[{next(i for i, s in enumerate(shapes) if s != shapes[0])}].shape = "
            f"{list(next(s for s in shapes if s != shapes[0]))} [Op:AddN]",
            "reduce_shape_mismatch", shapes=join_list(str(tuple(s)) for s in shapes)))


def batch_all_reduce_arrays(reduce_op, values, reduce_group, num_replicas):
    """The arrays of each value summed one dtype at a time, then divided for MEAN.

    ``values``: PerReplica values with one component per local replica; ``reduce_group`` gets one
    dtype's ``tensors[t][d]`` and returns their sums ``[t][d]`` (packed however the caller packs).
    Returns ``[value][d]`` arrays, MEAN divided by ``num_replicas`` in the values' own dtype.
    Shared by the one-worker all-reduces and MultiWorkerMirroredStrategy's collective ops."""
    per_value = [_arrays(v) for v in values]
    for arrays in per_value:
        _check_shapes(arrays)
    reduced = packing.reduce_by_dtype(per_value, reduce_group)
    if reduce_op == ReduceOp.MEAN:
        reduced = [[(a / num_replicas).astype(a.dtype, copy=False) for a in per_device]
                   for per_device in reduced]
    return reduced


class CrossDeviceOps:
    """Base class for cross-device reduction and broadcasting algorithms."""

    def reduce(self, reduce_op, per_replica_value, destinations, options=None):
        """Reduce ``per_replica_value`` to ``destinations``: a tensor (one device) or a Mirrored."""
        if not isinstance(per_replica_value, DistributedValues):
            per_replica_value = PerReplica((per_replica_value,))
        validate_destinations(destinations)
        dests = devices_of(destinations)
        if len(per_replica_value._values) == 1 and len(dests) == 1 \
                and devices_of(per_replica_value) == dests:
            return per_replica_value._values[0]
        return self.reduce_implementation(reduce_op, per_replica_value, destinations, options)

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None):
        """Reduce many (value, destinations) pairs in one call; a list of results."""
        pairs = []
        for value, dest in value_destination_pairs:
            if not isinstance(value, DistributedValues):
                value = PerReplica((value,))
            validate_destinations(dest)
            pairs.append((value, dest))
        if all(len(v._values) == 1 and devices_of(v) == devices_of(d) for v, d in pairs):
            return [v._values[0] for v, _ in pairs]
        return self.batch_reduce_implementation(reduce_op, pairs, options)

    def broadcast(self, tensor, destinations):
        """Copy ``tensor`` to every destination device."""
        validate_destinations(destinations)
        dests = devices_of(destinations)
        return _mirrored([tensor] * len(dests), dests)

    def batch_reduce_implementation(self, reduce_op, pairs, options):
        return [self.reduce_implementation(reduce_op, v, d, options) for v, d in pairs]

    def _gather(self, value, destinations, axis):
        """Concatenate the components along ``axis`` on one device, copy to the destinations."""
        values = value._values if isinstance(value, DistributedValues) else (value,)
        out = _ops.concat(list(values), axis)
        dests = devices_of(destinations) if destinations is not None else ("",)
        return _mirrored([out] * len(dests), dests)


class ReductionToOneDevice(CrossDeviceOps):
    """Copy all values to one device, reduce there, broadcast the result back."""

    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn

    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options):
        _check_op(reduce_op)
        if not per_replica_value._values:
            raise ValueError(explain("`per_replica_value` must be non-empty", "reduce_op"))
        dests = devices_of(destinations)
        root = self.reduce_to_device or dests[0]
        arrays = _arrays(per_replica_value)
        _check_shapes(arrays, root)
        if self.accumulation_fn is not None:
            total = _ops.to_numpy(self.accumulation_fn(list(per_replica_value._values)))
        else:
            total = arrays[0].copy()
            for a in arrays[1:]:
                total = total + a
        if reduce_op == ReduceOp.MEAN:
            total = (total / len(arrays)).astype(arrays[0].dtype, copy=False)
        sources = devices_of(per_replica_value)
        if all(sources) and all(dests):
            _time_reduce_then_copy(sources, root, dests, arrays[0].nbytes)
        result = _ops.like(total, per_replica_value._values[0])
        return _mirrored([result] * len(dests), dests)


def _time_reduce_then_copy(sources, root, dests, nbytes):
    """TF's ReductionToOneDevice on the clock: every source copies to ``root`` at once (they
    share the links, collectives.md §1.2), then ``root`` copies the sum to every destination."""
    for label, items in (("ReductionToOneDevice", [(s, root, nbytes) for s in sources]),
                         ("ReductionToOneDevice/copy", [(root, d, nbytes) for d in dests])):
        seconds, events = _copies.concurrent(items, label)
        if seconds:
            timing.communicate(seconds, label, root, nbytes, events)


class AllReduceCrossDeviceOps(CrossDeviceOps):
    """All-reduce the packed values across their devices (base of Nccl and HierarchicalCopy)."""

    _algorithm = "nccl"

    def __init__(self, all_reduce_alg="nccl", num_packs=1):
        self._all_reduce_alg = all_reduce_alg
        self._num_packs = num_packs
        self._simple = ReductionToOneDevice()

    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options):
        return self.batch_reduce_implementation(reduce_op, [(per_replica_value, destinations)],
                                                options)[0]

    def batch_reduce_implementation(self, reduce_op, pairs, options):
        _check_op(reduce_op)
        if all(_all_reducible(v, d) for v, d in pairs):
            return self._batch_all_reduce(reduce_op, [v for v, _ in pairs])
        return [self._simple.reduce_implementation(reduce_op, v, d, options) for v, d in pairs]

    def _batch_all_reduce(self, reduce_op, values):
        devices = devices_of(values[0])
        results = batch_all_reduce_arrays(
            reduce_op, values, lambda group: self._all_reduce_group(group, devices), len(devices))
        return [_mirrored([_ops.like(a, v._values[0]) for a in per_device], devices)
                for v, per_device in zip(values, results)]

    def _all_reduce_group(self, tensors, devices):
        """``tensors[t][d]``: tensor t on device d. Returns the reduced ``[t][d]``."""
        if self._num_packs == 0:
            packs_out = []
            for arrays in tensors:
                res, _ = self._run([a.reshape(-1) for a in arrays], devices, arrays[0].nbytes)
                packs_out.append([r.reshape(arrays[0].shape) for r in res])
            return packs_out
        return packing.reduce_concatenated(tensors, lambda buffers: self._run_packed(buffers, devices))

    def _run_packed(self, flat_buffers, devices):
        total = flat_buffers[0].size
        out = [np.empty_like(b) for b in flat_buffers]
        for lo, hi in packing.split_bounds(total, self._num_packs):
            res, _ = self._run([b[lo:hi] for b in flat_buffers], devices,
                               (hi - lo) * flat_buffers[0].itemsize)
            for d, r in enumerate(res):
                out[d][lo:hi] = r
        return out

    def _run(self, buffers, devices, nbytes, **options):
        results, seconds = _collective.all_reduce(buffers, self._algorithm, devices, **options)
        timing.communicate(seconds, type(self).__name__, ",".join(devices), nbytes)
        return results, seconds


def _all_reducible(value, destinations):
    """TF's rule: all-reduce only when the destinations are the values' devices and none is a CPU."""
    src, dst = devices_of(value), devices_of(destinations)
    return src == dst and len(src) > 1 and all(src) and not any("CPU" in d.upper() for d in dst)


class NcclAllReduce(AllReduceCrossDeviceOps):
    """NCCL all-reduce: NCCL picks ring or tree by its cost model (sim.collectives.nccl_model)."""

    _algorithm = "nccl"

    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(explain(f"NCCL all-reduce requires num_packs >= 0, but {num_packs} "
                                     "is specified", "num_packs"))
        super().__init__("nccl", num_packs)


class HierarchicalCopyAllReduce(AllReduceCrossDeviceOps):
    """Hierarchical copy all-reduce, built for the DGX-1 GPU topology (collectives.md §1.7)."""

    _algorithm = "hierarchical_copy"

    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(explain(f"HierarchicalCopy requires num_packs >= 0, but {num_packs} "
                                     "is specified", "num_packs"))
        super().__init__("hierarchical_copy", num_packs)

    def _run_packed(self, flat_buffers, devices):
        # The schedule itself packs (the roots rotate with the pack index, as TF's do).
        res, _ = self._run(flat_buffers, devices, flat_buffers[0].nbytes,
                           num_packs=self._num_packs)
        return res


def select_cross_device_ops(devices):
    """MirroredStrategy's default (§8.1): NCCL on an all-GPU device list, else ReductionToOneDevice."""
    if any("GPU" not in d.upper().rsplit("/", 1)[-1] for d in devices):
        return ReductionToOneDevice()
    return NcclAllReduce(num_packs=1)
