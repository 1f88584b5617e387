"""``GradientTape.jacobian`` and ``batch_jacobian``: one reverse walk per entry of the target.

Row ``i`` of the jacobian is the gradient of ``target[i]`` alone: the walk seeded with a one-hot
output gradient. TensorFlow vectorises these walks (pfor); the numbers are the same. A
non-persistent tape allows one jacobian, as it allows one gradient.
"""
from __future__ import annotations

import numpy as np

from sim.engine import nest
from sim.engine.tensor import Tensor


def _rows(tape, target, sources):
    """Yield (index, grads) for each entry of ``target``, marking the tape used."""
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
        yield index, tape._backward([target], [seed], sources), value.shape


def _source_array(source):
    from sim.engine.tape import _resolve
    source = _resolve(source)
    return source, (source._value if hasattr(source, "_as_tensor") else source._v)


def jacobian(tape, target, sources, unconnected_gradients):
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
    j = full._v  # [b, t..., b, s...]: keep the diagonal blocks
    t_rest, s_rest = t_shape[1:], ref.shape[1:]
    j = j.reshape((batch, int(np.prod(t_rest, dtype=int)), batch, int(np.prod(s_rest, dtype=int))))
    diag = j[np.arange(batch), :, np.arange(batch), :]
    return Tensor(diag.reshape((batch,) + tuple(t_rest) + tuple(s_rest)))
