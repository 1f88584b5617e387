"""Gradient packing before an all-reduce: TensorFlow's two ways to make few, large collectives.

* ``split_packs`` (``num_packs``, NcclAllReduce/HierarchicalCopyAllReduce, cross_device_ops.py
  ``_ConcatAndSplitPacker``): concatenate every flattened tensor into one vector of T elements
  and cut it into ``num_packs`` pieces of ``T // num_packs``; the last piece takes the rest.
* ``group_by_size`` (``CommunicationOptions.bytes_per_pack``, cross_device_utils.py): walk the
  tensors in order, starting a new pack only when the current one is already *larger* than
  ``bytes_per_pack`` bytes; 0 means one pack.
Packing changes how many collectives run and how big they are, not the numbers.
"""
from __future__ import annotations

import numpy as np


def split_bounds(total, num_packs):
    """(start, end) of each pack: ``num_packs`` pieces of ``total // num_packs``, the last gets the rest."""
    k = max(1, min(int(num_packs), max(int(total), 1)))
    size = total // k
    cuts = [i * size for i in range(k)] + [total]
    return list(zip(cuts[:-1], cuts[1:]))


def concat_flat(arrays):
    """One flat vector of all ``arrays`` (each flattened), and the sizes and shapes to undo it."""
    shapes = [a.shape for a in arrays]
    sizes = [a.size for a in arrays]
    flat = np.concatenate([a.reshape(-1) for a in arrays]) if arrays else np.zeros(0)
    return flat, sizes, shapes


def split_flat(flat, sizes, shapes):
    """Undo ``concat_flat``."""
    out, start = [], 0
    for n, shape in zip(sizes, shapes):
        out.append(flat[start:start + n].reshape(shape))
        start += n
    return out


def group_by_size(nbytes, bytes_per_pack):
    """Indices of the tensors in each pack, from their byte sizes (``group_by_size``)."""
    if bytes_per_pack == 0:
        return [list(range(len(nbytes)))]
    packs, current, size = [], None, 0
    for i, b in enumerate(nbytes):
        if current is None or size > bytes_per_pack:
            current, size = [], 0
            packs.append(current)
        current.append(i)
        size += b
    return packs


def reduce_by_dtype(per_value, reduce_group):
    """``per_value[v][d]`` (value v on local device d) reduced one dtype at a time:
    ``reduce_group([per_value[v] ...])`` gets the values of one dtype, in order, and returns
    their results ``[v][d]``; the results come back in the values' order. Collectives never mix
    dtypes (TensorFlow groups by dtype before it packs)."""
    results = [None] * len(per_value)
    by_dtype: dict = {}
    for i, arrays in enumerate(per_value):
        by_dtype.setdefault(arrays[0].dtype, []).append(i)
    for idx in by_dtype.values():
        for i, r in zip(idx, reduce_group([per_value[i] for i in idx])):
            results[i] = r
    return results


def reduce_concatenated(tensors, reduce_buffers):
    """``tensors[t][d]`` -> reduced ``[t][d]`` through one flat buffer per device:
    ``reduce_buffers(buffers)`` all-reduces the per-device buffers and returns them."""
    n = len(tensors[0])
    flats = [concat_flat([tensors[t][d] for t in range(len(tensors))]) for d in range(n)]
    sizes, shapes = flats[0][1], flats[0][2]
    reduced = reduce_buffers([f[0] for f in flats])
    per_device = [split_flat(np.asarray(reduced[d]), sizes, shapes) for d in range(n)]
    return [[per_device[d][t] for d in range(n)] for t in range(len(tensors))]
