"""``padded_batch``: batch elements of different shapes by padding each component.

TensorFlow's rule: a dimension given in ``padded_shapes`` pads to that size; a dimension left
unknown (None or -1, or every dimension when ``padded_shapes`` is None) pads to the largest size
in the batch. Padding is 0 (b"" for strings, False for bools) unless ``padding_values`` says
otherwise; one scalar ``padding_values`` serves every component.
"""
from __future__ import annotations

import itertools

import numpy as np

from sim.data.dataset import Dataset
from sim.data.transforms._arguments import _positive
from sim.engine import nest
from sim.engine.errors import DataLossError
from sim.engine.shape import TensorShape
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor


class _PaddedBatchDataset(Dataset):
    _kind = "batch"

    def __init__(self, input, batch_size, padded_shapes=None, padding_values=None,
                 drop_remainder=False):
        self._batch_size = _positive(int(batch_size) if isinstance(batch_size, Tensor) else batch_size,
                                     "engine.batch_size")
        self._drop_remainder = bool(drop_remainder)
        in_spec = input.element_spec
        specs = nest.flatten(in_spec)
        if any(s.shape.rank is None for s in specs) and padded_shapes is None:
            raise ValueError("You must provide `padded_shapes` argument because component "
                             "shapes of unknown rank cannot be padded. "
                             + _t("unknown_rank"))
        self._shapes = [_padded_shape(p, s) for p, s in
                        zip(_per_component(padded_shapes, in_spec, lambda s: s.shape), specs)]
        self._values = [_padding_value(v, s) for v, s in
                        zip(_per_component(padding_values, in_spec, lambda s: None), specs)]
        lead = self._batch_size if self._drop_remainder else None
        out = [TensorSpec([lead] + list(shape), s.dtype) for shape, s in zip(self._shapes, specs)]
        super().__init__(input, nest.pack_sequence_as(in_spec, out))

    def _iterate(self):
        it = self._input._iterate()
        while True:
            rows = list(itertools.islice(it, self._batch_size))
            if not rows or (self._drop_remainder and len(rows) < self._batch_size):
                return
            yield self._pad(rows)

    def _pad(self, rows):
        flats = [nest.flatten(r) for r in rows]
        cols = []
        for j, (shape, value) in enumerate(zip(self._shapes, self._values)):
            parts = [f[j]._v for f in flats]
            target = [d if d is not None else max(p.shape[k] for p in parts)
                      for k, d in enumerate(shape)]
            out = np.empty([len(parts)] + target, dtype=parts[0].dtype)
            out[...] = value
            for i, p in enumerate(parts):
                if p.ndim != len(target) or any(a > b for a, b in zip(p.shape, target)):
                    raise DataLossError(  # TensorFlow's class for this, surprisingly
                        None, None, "Attempted to pad to a smaller size than the input element. "
                        + _t("too_small", shape=list(p.shape), padded=target))
                out[(i,) + tuple(slice(0, n) for n in p.shape)] = p
            cols.append(Tensor(out, flats[0][j]._dt))
        return nest.pack_sequence_as(rows[0], cols)

    def _cardinality(self):
        c = self._input._cardinality()
        if c < 0:
            return c
        return c // self._batch_size if self._drop_remainder else -(-c // self._batch_size)


def _t(key, **fields):
    from sim.i18n import t
    return t("data_transforms." + key, **fields)


def _per_component(given, spec, default):
    """``given`` as one entry per flattened component: None means each spec's default, a
    leaf (one shape or value) serves every component, a structure must match the spec's."""
    flat_spec = nest.flatten(spec)
    if given is None:
        return [default(s) for s in flat_spec]
    if not nest.is_nested(spec):
        return [given]
    if _is_leaf_argument(given):
        return [given] * len(flat_spec)
    return _flatten_up_to(spec, given)


def _is_leaf_argument(x):
    return not isinstance(x, (tuple, dict)) and not (isinstance(x, list) and x and
                                                       isinstance(x[0], (list, tuple, TensorShape)))


def _flatten_up_to(spec, given):
    if not nest.is_nested(spec):
        return [given]
    if isinstance(spec, dict):
        return [v for k in sorted(spec) for v in _flatten_up_to(spec[k], given[k])]
    if len(spec) != len(given):
        raise ValueError(f"The two structures don't have the same sequence length. Input "
                         f"structure has length {len(spec)}, while shallow structure has length "
                         f"{len(given)}.")
    return [v for s, g in zip(spec, given) for v in _flatten_up_to(s, g)]


def _padded_shape(given, spec):
    """The target shape as a list whose None entries pad to the batch's maximum."""
    if isinstance(given, Tensor):
        given = given._v.tolist()
    if isinstance(given, TensorShape):
        given = given.as_list() if given.rank is not None else None
    elif isinstance(given, (int, np.integer)):
        given = [int(given)]
    dims = [None if d is None or d == -1 else int(d) for d in given]
    known = spec.shape.as_list() if spec.shape.rank is not None else None
    if known is not None and (len(known) != len(dims) or
                              any(k is not None and d is not None and d < k
                                  for k, d in zip(known, dims))):
        raise ValueError(f"The padded shape {tuple(dims)} is not compatible with the shape "
                         f"{tuple(known)} of the corresponding input component. "
                         + _t("incompatible", padded=dims, shape=known))
    return dims


def _padding_value(given, spec):
    if given is None:
        return b"" if spec.dtype.name == "string" else spec.dtype.as_numpy_dtype(0)
    value = given._v if isinstance(given, Tensor) else np.asarray(given)
    if value.ndim != 0:
        raise ValueError(f"Invalid `padding_values`. `padding_values` values should be scalars, "
                         f"but got {given}. " + _t("scalar_value"))
    return value.item() if spec.dtype.name != "string" else value.item()
