"""How TensorFlow cuts a global batch into per-replica batches: two algorithms (§3.1).

* ``legacy_split`` (RebatchDataset, what in-memory datasets get under AUTO/DATA): each input
  batch of b rows is cut on its own into N slices of ``ceil(b/N)`` rows; the last slices may
  be short or empty.
* ``rebatch_v2`` (RebatchDatasetV2, under OFF/FILE): the input is a flat stream of rows; output
  batch j has ``batch_sizes[j % len]`` rows and may cross input batches.
* ``batch_sizes_for_worker``: the balanced per-replica sizes RebatchV2 uses (floor/ceil,
  rotated per worker), from tf.data's distribute.py.
"""
from __future__ import annotations

import numpy as np

from sim.engine import nest
from sim.engine.tensor import Tensor


def batch_sizes_for_worker(global_batch_size, num_workers, num_replicas_per_worker, worker_index):
    """Per-replica batch sizes for one worker: [f+1]*c + [f]*(n-c), rotated left by w*R."""
    n = num_workers * num_replicas_per_worker
    floor = global_batch_size // n
    extra = global_batch_size - n * floor
    sizes = [floor + 1] * extra + [floor] * (n - extra)
    shift = worker_index * num_replicas_per_worker % n
    return sizes[shift:] + sizes[:shift]


def _rows(batch):
    flat = nest.flatten(batch)
    for t in flat:
        if t._v.ndim == 0:
            from sim.distribute.errors import explain
            from sim.engine.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, explain(
                "Cannot rebatch dataset: All components must have at least one dimension. "
                "Perhaps your input dataset is not batched?", "rebatch_rank0"))
    return flat, flat[0]._v.shape[0]


def _slice(structure, flat, lo, hi):
    return nest.pack_sequence_as(structure, [Tensor(t._v[lo:hi], t._dt) for t in flat])


def empty_like(batch):
    """A batch with the same structure, dtypes and trailing dims but 0 rows (a dummy batch)."""
    flat = nest.flatten(batch)
    return nest.pack_sequence_as(batch, [Tensor(t._v[:0], t._dt) for t in flat])


def legacy_split(batches, num_replicas):
    """For each input batch, its N slices of ceil(b/N) rows (a list per global step)."""
    for batch in batches:
        flat, b = _rows(batch)
        s = -(-b // num_replicas)
        yield [_slice(batch, flat, min(k * s, b), min((k + 1) * s, b)) for k in range(num_replicas)]


def rebatch_v2(batches, batch_sizes, drop_remainder=False):
    """Output batches of ``batch_sizes[j % len]`` rows cut from the flat stream of rows."""
    pending = []          # list of (structure, flat tensors, start row, rows)
    available = 0
    it = iter(batches)
    j = 0
    exhausted = False
    template = None
    while True:
        size = batch_sizes[j % len(batch_sizes)]
        j += 1
        while available < size and not exhausted:
            try:
                batch = next(it)
            except StopIteration:
                exhausted = True
                break
            flat, b = _rows(batch)
            template = batch
            pending.append((batch, flat, 0, b))
            available += b
        if size == 0:
            if template is None and exhausted:
                return
            yield empty_like(template) if template is not None else None
            continue
        if available == 0 or (available < size and drop_remainder):
            return
        take = min(size, available)
        parts = []
        need = take
        while need:
            batch, flat, start, b = pending[0]
            n = min(need, b - start)
            parts.append([t._v[start:start + n] for t in flat])
            if start + n == b:
                pending.pop(0)
            else:
                pending[0] = (batch, flat, start + n, b)
            need -= n
        available -= take
        flat0 = nest.flatten(template)
        cols = [np.concatenate([p[i] for p in parts]) if len(parts) > 1 else parts[0][i]
                for i in range(len(flat0))]
        yield nest.pack_sequence_as(template, [Tensor(c, t._dt) for c, t in zip(cols, flat0)])
