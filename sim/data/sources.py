"""Dataset sources: from_tensors, from_tensor_slices, range, from_generator, zip."""
from __future__ import annotations

import numpy as np

from sim.data import structure
from sim.data.dataset import Dataset
from sim.data.options import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from sim.engine import dtypes, nest
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor


class _TensorDataset(Dataset):
    """``from_tensors``: the whole structure as one element."""
    _kind = "from_tensors"

    def __init__(self, tensors):
        self._element = structure.normalize(tensors, lists_are_tensors=True)
        super().__init__(None, structure.spec_of(self._element))

    def _iterate(self):
        yield self._element

    def _cardinality(self):
        return 1


class _TensorSliceDataset(Dataset):
    """``from_tensor_slices``: one element per row of the first dimension of every component."""
    _kind = "from_tensor_slices"

    def __init__(self, tensors):
        tensors = structure.normalize(tensors, lists_are_tensors=True)
        flat = nest.flatten(tensors)
        sizes = [t._v.shape[0] if t._v.ndim else None for t in flat]
        if None in sizes or len(set(sizes)) > 1:
            from sim.i18n import t
            raise ValueError(f"Dimensions {' and '.join(str(s) for s in sorted(set(map(str, sizes))))} "
                             f"are not compatible. " + t("engine.slices_mismatch", sizes=sizes))
        self._arrays = [t._v for t in flat]
        self._dts = [t._dt for t in flat]
        self._structure = tensors
        self._n = sizes[0] if sizes else 0
        spec = nest.map_structure(lambda t: TensorSpec(t.shape[1:], t.dtype), tensors)
        super().__init__(None, spec)

    def _iterate(self):
        arrays, dts, st = self._arrays, self._dts, self._structure
        for i in range(self._n):
            yield nest.pack_sequence_as(st, [Tensor(np.array(a[i]), d) for a, d in zip(arrays, dts)])

    def _cardinality(self):
        return self._n


class _RangeDataset(Dataset):
    """``range(start, stop, step)``: int64 scalars."""
    _kind = "range"

    def __init__(self, *args, dtype=dtypes.int64):
        self._args = [int(a) for a in args]
        self._dtype = dtypes.as_dtype(dtype)
        super().__init__(None, TensorSpec([], self._dtype))

    def _iterate(self):
        npd = self._dtype.as_numpy_dtype
        for i in range(*self._args):
            yield Tensor(np.array(i, dtype=npd))

    def _cardinality(self):
        return len(range(*self._args))


class _GeneratorDataset(Dataset):
    """``from_generator``: elements from a Python generator function."""
    _kind = "from_generator"

    def __init__(self, generator, output_types=None, output_shapes=None, args=None,
                 output_signature=None):
        if output_signature is None:
            if output_types is None:
                raise TypeError("To specify the output signature you need to provide either the "
                                "`output_signature` argument or the `output_types` argument.")
            shapes = output_shapes if output_shapes is not None else nest.map_structure(
                lambda _: None, output_types)
            if not nest.is_nested(output_types):  # one dtype: output_shapes is its one shape
                output_signature = TensorSpec(shapes, output_types)
            else:
                output_signature = nest.map_structure(lambda d, s: TensorSpec(s, d),
                                                      output_types, shapes)
        self._gen, self._args = generator, tuple(args or ())
        super().__init__(None, output_signature)

    def _iterate(self):
        sig = self._spec
        specs = nest.flatten(sig)
        for value in self._gen(*self._args):
            values = _values_up_to(sig, value)
            if values is None:
                from sim.i18n import t
                raise TypeError(
                    "`generator` yielded an element that did not match the expected structure. "
                    f"The expected structure was {sig}, but the yielded element was {value}. "
                    + t("engine.generator_structure", got=len(nest.flatten(value)),
                        expected=len(specs)))
            yield nest.pack_sequence_as(sig, [_convert(v, s) for v, s in zip(values, specs)])


def _values_up_to(sig, value):
    """The yielded ``value`` cut at ``sig``'s leaves (TensorFlow's flatten_up_to): a list
    yielded for one TensorSpec stays one value. None when the structures differ."""
    if not nest.is_nested(sig):
        return [value]
    if isinstance(sig, dict):
        if not isinstance(value, dict) or set(value) != set(sig):
            return None
        pairs = [(sig[k], value[k]) for k in sorted(sig)]
    elif isinstance(value, (list, tuple)) and len(value) == len(sig):
        pairs = list(zip(sig, value))
    else:
        return None
    out = []
    for s, v in pairs:
        part = _values_up_to(s, v)
        if part is None:
            return None
        out += part
    return out


def _convert(value, spec):
    """One yielded component as a tensor of the spec's dtype."""
    if spec.dtype is dtypes.string:
        return structure.normalize(value)
    try:
        return Tensor(np.asarray(value, dtype=spec.dtype.as_numpy_dtype))
    except (TypeError, ValueError):
        from sim.i18n import t
        raise TypeError(
            "`generator` yielded an element that could not be converted to the expected type. "
            f"The expected type was {spec.dtype.name}, but the yielded element was {value}. "
            + t("engine.generator_value", value=repr(value)[:60], dtype=spec.dtype.name)) from None


class _ZipDataset(Dataset):
    """``zip(datasets)``: tuples (or the given structure) of one element from each."""
    _kind = "zip"

    def __init__(self, datasets):
        self._datasets = datasets
        super().__init__(None, nest.map_structure(lambda d: d.element_spec, datasets))

    def _iterate(self):
        flat = nest.flatten(self._datasets)
        for items in zip(*(d._iterate() for d in flat)):
            yield nest.pack_sequence_as(self._datasets, list(items))

    def _cardinality(self):
        cards = [d._cardinality() for d in nest.flatten(self._datasets)]
        finite = [c for c in cards if c >= 0]
        if finite:
            return min(finite)
        return UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in cards else INFINITE_CARDINALITY


class _FnDataset(Dataset):
    """A node from a generator function (used by rewrites such as rebatching)."""

    def __init__(self, make_iter, element_spec, input, kind, cardinality):
        self._make_iter, self._kind, self._card = make_iter, kind, cardinality
        super().__init__(input, element_spec)

    def _iterate(self):
        return iter(self._make_iter())

    def _cardinality(self):
        return self._card


def from_tensors(tensors, name=None):
    return _TensorDataset(tensors)


def from_tensor_slices(tensors, name=None):
    return _TensorSliceDataset(tensors)


def range_(*args, **kwargs):
    kwargs.pop("name", None)
    output_type = kwargs.pop("output_type", kwargs.pop("dtype", dtypes.int64))
    return _RangeDataset(*args, dtype=output_type)


def from_generator(generator, output_types=None, output_shapes=None, args=None,
                   output_signature=None, name=None):
    return _GeneratorDataset(generator, output_types, output_shapes, args, output_signature)


def zip_(*datasets, name=None):
    if len(datasets) == 1 and isinstance(datasets[0], (tuple, list, dict)):
        datasets = datasets[0]
    return _ZipDataset(datasets)
