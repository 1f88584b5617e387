"""``GradientTape.jacobian`` and ``batch_jacobian``: one reverse walk per entry of the target.

Row ``i`` of the jacobian is the gradient of ``target[i]`` alone: the walk seeded with a one-hot
output gradient. TensorFlow vectorises these walks (pfor); the numbers are the same. A
non-persistent tape allows one jacobian, as it allows one gradient. Under a tape that records the
target, the rows are walked on Tensors and stacked (sim/engine/higher_order.py), so that tape can
differentiate the jacobian too.
"""
from __future__ import annotations

import numpy as np

from sim.engine import nest
from sim.engine.tensor import Tensor


def _rows(tape, target, sources, walk=None):
    """Yield (index, grads) for each entry of ``target``, marking the tape used; ``walk`` is the
    reverse walk (default: the tape's own, on arrays)."""
    if tape._used and not tape._persistent:
        raise RuntimeError("A non-persistent GradientTape can only be used to compute one set "
                           "of gradients (or jacobians)")
    tape._used = True
    from sim.engine.tape import _resolve
    target = _resolve(target)
    value = target._v if isinstance(target, Tensor) else target._value
    for index in np.ndindex(value.shape):
        seed = np.zeros_like(value)
        seed[index] = 1
        if walk is None:
            yield index, tape._backward([target], [seed], sources), value.shape
        else:
            yield index, walk(tape, [target], [Tensor(seed)], sources), value.shape


def _recorded(target):
    from sim.engine import higher_order
    from sim.engine.tape import _state
    return bool(_state.recording) and higher_order.wanted([target], [])


def _source_array(source):
    from sim.engine.tape import _resolve
    source = _resolve(source)
    return source, (source._value if hasattr(source, "_as_tensor") else source._v)


def jacobian(tape, target, sources, unconnected_gradients):
    if _recorded(target):
        return _jacobian_tensors(tape, target, sources, unconnected_gradients)
    flat = [_source_array(s) for s in nest.flatten(sources)]
    out = [None] * len(flat)
    seen = [False] * len(flat)
    shape = None
    for index, grads, shape in _rows(tape, target, sources):
        for k, (src, ref) in enumerate(flat):
            g = grads.get(id(src))
            if out[k] is None:
                out[k] = np.zeros(tuple(shape) + ref.shape, dtype=ref.dtype)
            if g is not None:
                seen[k] = True
                out[k][index] = np.asarray(g, ref.dtype).reshape(ref.shape)
    if shape is None:  # an empty target: empty jacobians
        from sim.engine.tape import _resolve
        t = _resolve(target)
        shape = (t._v if isinstance(t, Tensor) else t._value).shape
        out = [np.zeros(tuple(shape) + ref.shape, ref.dtype) for _, ref in flat]
        seen = [True] * len(flat)
    zero = str(getattr(unconnected_gradients, "value", unconnected_gradients)) == "zero"
    results = [Tensor(o) if (s or zero) and o.dtype.kind == "f" else None
               for o, s in zip(out, seen)]
    return nest.pack_sequence_as(sources, results)


def _jacobian_tensors(tape, target, sources, unconnected_gradients):
    """The jacobian as recorded ops: one Tensor-level walk per target entry, rows stacked."""
    from sim.engine import higher_order
    from sim.engine.ops import array
    from sim.engine.tape import UnconnectedGradients
    flat = [_source_array(s) for s in nest.flatten(sources)]
    rows = [[] for _ in flat]
    seen = [False] * len(flat)
    shape = ()
    for _, grads, shape in _rows(tape, target, sources, higher_order.backward):
        for k, (src, _) in enumerate(flat):
            seen[k] = seen[k] or id(src) in grads
            rows[k].append(higher_order.result(grads, src, UnconnectedGradients.ZERO))
    zero = str(getattr(unconnected_gradients, "value", unconnected_gradients)) == "zero"
    results = []
    for (src, ref), r, s in zip(flat, rows, seen):
        if ref.dtype.kind != "f" or not (s or zero or not r):
            results.append(None)
        elif r:
            results.append(array.reshape(array.stack(r), tuple(shape) + ref.shape))
        else:
            results.append(Tensor(np.zeros(tuple(shape) + ref.shape, ref.dtype)))
    return nest.pack_sequence_as(sources, results)


def batch_jacobian(tape, target, source, unconnected_gradients):
    from sim.engine.tape import _resolve
    t = _resolve(target)
    t_shape = (t._v if isinstance(t, Tensor) else t._value).shape
    src, ref = _source_array(source)
    if not t_shape or not ref.shape or t_shape[0] != ref.shape[0]:
        raise ValueError(f"Need first dimension of target shape ({list(t_shape)}) and source shape "
                         f"({list(ref.shape)}) to match.")
    full = jacobian(tape, target, source, unconnected_gradients)
    if full is None:
        return None
    batch = t_shape[0]
    t_rest, s_rest = t_shape[1:], ref.shape[1:]
    blocks = (batch, int(np.prod(t_rest, dtype=int)), batch, int(np.prod(s_rest, dtype=int)))
    diagonal = (np.arange(batch), slice(None), np.arange(batch), slice(None))
    shape = (batch,) + tuple(t_rest) + tuple(s_rest)
    if _recorded(target):  # full is a recorded Tensor: keep its diagonal blocks with ops
        from sim.engine.ops import array, indexing
        return array.reshape(indexing.getitem(array.reshape(full, blocks), diagonal), shape)
    j = full._v.reshape(blocks)  # [b, t..., b, s...]: keep the diagonal blocks
    return Tensor(j[diagonal].reshape(shape))
