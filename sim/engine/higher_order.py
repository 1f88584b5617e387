"""Higher-order gradients: the backward walk run through the engine's own ops, so the tapes that
are still recording record it (``tf.GradientTape`` nested in another, as the autodiff guide does).

Every op records two gradients. Its NumPy ``grad_fns`` serve the ordinary, single-tape walk in
tape.py (fast: no Tensor, no recording). Its ``tgrad(i, g, inputs, out)`` gives the gradient for
``inputs[i]`` written with engine ops on Tensors; ``gradient`` uses it when a recording tape
tracks a target, so ``dy_dx`` is an ordinary recorded tensor and an outer tape differentiates it.

An op with no Tensor-level gradient (a ``FirstOrderOnly`` marker, or a record from outside the
engine) still gives its first derivative: its NumPy gradient, wrapped as a constant and marked on
the recording tapes. Differentiating through such a constant raises NotImplementedError naming
the op, never a silent None or a wrong zero.
"""
from __future__ import annotations

import numpy as np

from sim.engine import counting, nest
from sim.engine.tape import _resolve, _state
from sim.engine.tensor import Tensor, convert_to_tensor


class FirstOrderOnly:
    """The ``tgrad`` of an op whose gradient is not yet written on Tensors (conv2d...)."""

    __slots__ = ("op",)

    def __init__(self, op):
        self.op = op


def wanted(targets, output_gradients):
    """Does a recording tape track a target (or a given output gradient)? Then the gradient
    must be computed where that tape sees it."""
    for tape in _state.recording:
        ids = tape._ids
        for t in targets:
            if id(_resolve(t)) in ids:
                return True
        for t in output_gradients:
            if t is not None and id(_resolve(t)) in ids:
                return True
    return False


def gradient(tape, targets, output_gradients, sources, unconnected):
    """``tape.gradient`` with every gradient a recorded Tensor."""
    grads = backward(tape, targets, output_gradients, sources)
    return nest.map_structure(lambda s: result(grads, _resolve(s), unconnected), sources)


def backward(tape, targets, seeds, sources):
    """The reverse walk on Tensors: ``{id: Tensor}`` from each target's seed (None: ones)."""
    from sim.engine.ops import math
    grads: dict = {}
    ids = tape._ids
    for tg, og in zip(targets, seeds):
        tg = _resolve(tg)
        if hasattr(tg, "_as_tensor") and id(tg) not in ids:
            continue
        ref = tg._v if isinstance(tg, Tensor) else tg._value
        if og is None:
            seed = Tensor(np.ones_like(ref))
        else:
            seed = convert_to_tensor(og)
            if seed._v.dtype != ref.dtype:
                seed = math.cast(seed, tg.dtype)
        _accumulate(grads, id(tg), seed)
    if counting._memory:
        from sim.engine.tape import _source_bytes
        counting._memory[-1].note_backward(tape._kept_bytes(), _source_bytes(sources))
    for out, inputs, grad_fns, _, _, tgrad in reversed(list(tape._records)):
        g = grads.get(id(out))
        if g is None:
            continue
        for i, (x, fn) in enumerate(zip(inputs, grad_fns)):
            if fn is None or id(x) not in ids or not _floating(x):
                continue
            if tgrad is None or type(tgrad) is FirstOrderOnly:
                gx = _constant(fn, g, x, out, getattr(tgrad, "op", None))
            else:
                gx = tgrad(i, g, inputs, out)
            if gx is not None:
                _accumulate(grads, id(x), gx)
    from sim.engine.tape import _refuse_higher_order
    _refuse_higher_order(tape, grads)
    return grads


def _floating(x):
    v = x._v if isinstance(x, Tensor) else getattr(x, "_value", None)
    return v is not None and v.dtype.kind == "f"


def _constant(fn, g, x, out, op):
    """The NumPy gradient of an op without a Tensor-level one, as a constant the recording tapes
    refuse to differentiate through (they would otherwise return a wrong zero)."""
    gx = Tensor(np.asarray(fn(g._v)))
    for outer in _state.recording:
        ids = outer._ids
        if id(g) in ids or id(x) in ids or id(out) in ids:
            ids[id(gx)] = gx
            outer._higher_order[id(gx)] = op or "an operation recorded outside sim.engine.ops"
    return gx


def _accumulate(grads, key, g):
    prev = grads.get(key)
    if prev is None:
        grads[key] = g
    else:
        from sim.engine.ops import math
        grads[key] = math.add(prev, g)


def result(grads, src, unconnected):
    """The gradient for one source: the recorded Tensor, in the source's dtype and shape."""
    from sim.engine.ops import array, math
    from sim.engine.tape import UnconnectedGradients
    g = grads.get(id(src))
    ref = src._value if hasattr(src, "_as_tensor") else src._v
    if g is None:
        if unconnected in (UnconnectedGradients.ZERO, "zero"):
            return Tensor(np.zeros_like(ref))
        return None
    if ref.dtype.kind != "f":
        return None
    if g._v.dtype != ref.dtype:
        g = math.cast(g, src.dtype)
    if g._v.shape != ref.shape:
        g = array.reshape(g, ref.shape)
    return g
