"""``tf.GradientTape``: reverse-mode autodiff by recording ops, then walking them backwards.

While a tape is recording, every op whose input the tape tracks appends one record:
``(output, inputs, grad_fns, flops, nbytes)``. ``grad_fns[i](g)`` is the gradient with respect
to ``inputs[i]`` given the output gradient ``g`` (NumPy arrays), written next to the op's
forward in ``sim/engine/ops``. ``gradient`` walks the records in reverse and calls only the
grad_fns of inputs the tape tracks, so the gradient of a constant input (the batch) is never
computed. Variables are tracked by identity; reading one records an identity op.
Higher-order gradients are not supported: grad_fns compute on NumPy arrays, so ``gradient``
raises NotImplementedError when an outer tape differentiates through a gradient taken under it. ``jacobian`` and
``batch_jacobian`` (sim/engine/jacobian.py) replay the walk once per target entry.

The stack of recording tapes is per thread, as TensorFlow's tape stack is: a MirroredStrategy
replica thread records only on the tapes it opened, even while another replica is paused at a
merge_call with its own tapes open. Ops read it as ``_state.recording``.
"""
from __future__ import annotations

import enum
import threading
from contextlib import contextmanager

import numpy as np

from sim.engine import counting, nest
from sim.engine.tensor import Tensor



class _State(threading.local):
    """This thread's tapes currently recording, innermost last."""

    def __init__(self):
        self.recording = []


_state = _State()


def __getattr__(name):
    """``tape._recording``: this thread's recording tapes (kept for callers of the old name)."""
    if name == "_recording":
        return _state.recording
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


def record(out, inputs, grad_fns, flops, nbytes, tgrad=None):
    """Called by every op: append a record to each recording tape that tracks an input.
    ``tgrad(i, g, inputs, out)``: the gradient for ``inputs[i]`` on Tensors (higher_order.py)."""
    for tape in _state.recording:
        ids = tape._ids
        for x in inputs:
            if id(x) in ids:
                tape._records.append((out, inputs, grad_fns, flops, nbytes, tgrad))
                ids[id(out)] = out
                break


def on_variable_read(var, read):
    """Called when a Variable is read: tapes that watch it (or all trainable reads) track it."""
    for tape in _state.recording:
        ids = tape._ids
        if id(var) not in ids:
            if not (tape._watch_accessed and var.trainable):
                continue
            ids[id(var)] = var
            tape._variables.append(var)
        tape._records.append((read, (var,), (_identity,), 0, 0, _pass_through))
        ids[id(read)] = read


def _identity(g):
    return g


def _pass_through(i, g, inputs, out):
    return g


def _resolve(x):
    """A distributed variable stands for its current replica's engine Variable."""
    return x._engine_variable() if hasattr(x, "_engine_variable") else x


class GradientTape:
    """Record operations for automatic differentiation (``tf.GradientTape``)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._ids: dict = {}        # id -> object, the tensors/variables this tape tracks
        self._records: list = []
        self._variables: list = []
        self._used = False
        self._higher_order: dict = {}  # id -> op: constants this tape must not differentiate

    def __enter__(self):
        _state.recording.append(self)
        return self

    def __exit__(self, *exc):
        recording = _state.recording
        if self in recording:
            recording.remove(self)
        return False

    def watch(self, tensor):
        """Track ``tensor`` (a tensor, variable or nest of them) so gradients flow to it."""
        for x in nest.flatten(tensor):
            x = _resolve(x)
            if id(x) not in self._ids:
                self._ids[id(x)] = x
                if hasattr(x, "_as_tensor"):
                    self._variables.append(x)

    def watched_variables(self):
        return tuple(self._variables)

    @contextmanager
    def stop_recording(self):
        """Ops inside this block are not recorded on this tape."""
        recording = _state.recording
        if self not in recording:
            raise RuntimeError("Tape.stop_recording() was called while the tape was not recording.")
        i = recording.index(self)
        recording.remove(self)
        try:
            yield
        finally:
            recording.insert(i, self)

    def reset(self):
        """Forget everything recorded so far (the tape keeps recording)."""
        self._ids, self._records, self._variables = {}, [], []
        self._higher_order = {}

    def _kept_bytes(self):
        """Bytes of the distinct tensors the records keep for the backward pass (the memory a
        step holds at its peak, sim/distribute/memory.py); a variable read, recorded as
        ``(read, (variable,), ...)``, aliases the variable's storage and is not counted."""
        records = self._records
        seen = set()
        for rec in records:
            out, inputs = rec[0], rec[1]
            if len(inputs) == 1 and type(inputs[0]) is not Tensor and hasattr(inputs[0], "_value"):
                seen.add(id(out))
        total = 0
        for rec in records:
            for t in (rec[0], *rec[1]):
                key = id(t)
                if key not in seen:
                    seen.add(key)
                    v = getattr(t, "_v", None)
                    if v is not None:
                        total += v.nbytes
        return total

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(sum of targets)/d(sources), with the structure of ``sources``."""
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set "
                               "of gradients (or jacobians)")
        self._used = True
        targets = nest.flatten(target)
        outs = [None] * len(targets) if output_gradients is None else nest.flatten(output_gradients)
        if _state.recording:
            from sim.engine import higher_order
            if higher_order.wanted(targets, outs):
                return higher_order.gradient(self, targets, outs, sources, unconnected_gradients)
        grads = self._backward(targets, outs, sources)
        return nest.map_structure(lambda s: _result(grads, _resolve(s), unconnected_gradients),
                                  sources)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source[j...] for every pair: shape target.shape + source.shape."""
        from sim.engine.jacobian import jacobian
        return jacobian(self, target, sources, unconnected_gradients)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobians: target[b, i...] / source[b, j...], shape [b, i..., j...]."""
        from sim.engine.jacobian import batch_jacobian
        return batch_jacobian(self, target, source, unconnected_gradients)

    def _backward(self, targets, seeds, sources):
        """The reverse walk: ``{id: gradient array}`` from each target's seed (None: ones);
        ``sources`` only sizes the gradients for the memory account."""
        grads: dict = {}
        for tg, og in zip(targets, seeds):
            tg = _resolve(tg)
            if hasattr(tg, "_as_tensor") and id(tg) not in self._ids:
                continue
            v = tg._v if isinstance(tg, Tensor) else tg._value
            seed = np.ones_like(v) if og is None else np.asarray(og, dtype=v.dtype)
            _accumulate(grads, id(tg), seed)
        if counting._memory:
            counting._memory[-1].note_backward(self._kept_bytes(), _source_bytes(sources))
        ids = self._ids
        counters = counting._active
        for out, inputs, grad_fns, flops, nbytes, _ in reversed(self._records):
            g = grads.get(id(out))
            if g is None:
                continue
            for x, fn in zip(inputs, grad_fns):
                if fn is not None and id(x) in ids:
                    _accumulate(grads, id(x), fn(g), x._dt)
                    if counters and flops:
                        counting.add(flops, nbytes)
        _refuse_higher_order(self, grads)
        return grads


def _refuse_higher_order(tape, grads):
    """Differentiating through a gradient that an op without a Tensor-level gradient gave as a
    constant (higher_order.py) would be silently wrong: name the op instead."""
    marked = tape._higher_order
    if marked:
        for key, op in marked.items():
            if key in grads:
                from sim.engine.errors import UnsupportedName
                from sim.i18n import t
                raise UnsupportedName(t("engine.higher_order", op=op))


def _source_bytes(sources):
    """Bytes of the gradients ``gradient`` returns: one array per source, of its size."""
    total = 0
    for s in nest.flatten(sources):
        s = _resolve(s)
        v = getattr(s, "_value", None) if hasattr(s, "_as_tensor") else getattr(s, "_v", None)
        if v is not None:
            total += v.nbytes
    return total


def _accumulate(grads, key, g, bf16=None):
    prev = grads.get(key)
    g = g if prev is None else prev + g
    if bf16 is not None:        # a bfloat16 tensor's gradient is bfloat16 (rounded per op)
        from sim.engine.tensor import round_bfloat16
        g = round_bfloat16(g)
    grads[key] = g


def _result(grads, src, unconnected):
    g = grads.get(id(src))
    is_var = hasattr(src, "_as_tensor")
    ref = src._value if is_var else src._v
    if g is None:
        if unconnected in (UnconnectedGradients.ZERO, "zero"):
            return Tensor(np.zeros_like(ref))
        return None
    if ref.dtype.kind not in "f":
        return None
    return Tensor(np.asarray(g, dtype=ref.dtype).reshape(ref.shape))
