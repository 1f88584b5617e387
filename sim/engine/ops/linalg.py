"""``tf.matmul`` (with transpose flags and batch dimensions) and ``tf.tensordot``."""
from __future__ import annotations

import numpy as np

from sim.engine import conversion
from sim.engine.errors import InvalidArgumentError
from sim.engine.ops import _tgrad
from sim.engine.ops._core import binary, out, unbroadcast
from sim.engine.tensor import Tensor


def _t(m):
    return np.swapaxes(m, -1, -2)


_F16, _F32 = np.dtype(np.float16), np.float32


def _product(A, B, bf16=False):
    """``A @ B`` as TensorFlow's CPU kernels give it (measured on TF 2.21): float16 accumulates in
    float32 and rounds once; bfloat16 (kept in float32) accumulates in float32 and truncates to
    bfloat16 (Eigen's float-to-bfloat16 of the MatMul kernel), where other ops round."""
    if A.dtype == _F16:
        return (A.astype(_F32) @ B.astype(_F32)).astype(_F16)
    v = A @ B
    if bf16:
        v = (np.ascontiguousarray(v, _F32).view(np.uint32) & np.uint32(0xFFFF0000)).view(_F32)
    return v


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """C = op(A) @ op(B). Gradients: dA = g @ B^T, dB = A^T @ g (then undo the transposes)."""
    x, y = (a, b) if type(a) is Tensor and type(b) is Tensor and a._v.dtype == b._v.dtype \
        else conversion.hinted(a, b, "MatMul")
    av, bv = x._v, y._v
    ta, tb = transpose_a or adjoint_a, transpose_b or adjoint_b
    if av.ndim < 2 or bv.ndim < 2:
        raise InvalidArgumentError(
            f"In[0] and In[1] has different ndims: {list(av.shape)} vs. {list(bv.shape)} "
            f"[Op:MatMul] " + _fix(av.shape, bv.shape, ta, tb, rank=True))
    A = _t(av) if ta else av
    B = _t(bv) if tb else bv
    if A.shape[-1] != B.shape[-2]:
        raise InvalidArgumentError(
            f"Matrix size-incompatible: In[0]: [{','.join(map(str, A.shape))}], "
            f"In[1]: [{','.join(map(str, B.shape))}] [Op:MatMul] "
            + _fix(av.shape, bv.shape, ta, tb))
    bf16 = x._dt is not None
    v = _product(A, B, bf16) if bf16 or A.dtype == _F16 else A @ B

    def grad_a(g):
        dA = unbroadcast(_product(g, _t(B), bf16), A.shape)
        return _t(dA) if ta else dA

    def grad_b(g):
        dB = unbroadcast(_product(_t(A), g, bf16), B.shape)
        return _t(dB) if tb else dB
    return out(v, (x, y), (grad_a, grad_b), 2 * v.size * A.shape[-1], x._dt,
               _TGRADS[bool(ta), bool(tb)])


class _MatmulGrad:
    """``tgrad`` of matmul for one pair of transpose flags: the same products on Tensors."""

    __slots__ = ("ta", "tb")

    def __init__(self, ta, tb):
        self.ta, self.tb = ta, tb

    def __call__(self, i, g, inputs, out):
        a, b = inputs
        A = _tgrad.swap_last(a) if self.ta else a
        B = _tgrad.swap_last(b) if self.tb else b
        if i == 0:
            d = _tgrad.unbroadcast(matmul(g, B, transpose_b=True), A._v.shape)
            return _tgrad.swap_last(d) if self.ta else d
        d = _tgrad.unbroadcast(matmul(A, g, transpose_a=True), B._v.shape)
        return _tgrad.swap_last(d) if self.tb else d


_TGRADS = {(ta, tb): _MatmulGrad(ta, tb) for ta in (False, True) for tb in (False, True)}


def _fix(sa, sb, ta, tb, rank=False):
    from sim.i18n import t
    return t("engine.matmul_rank" if rank else "engine.matmul_shapes",
             a=tuple(sa), b=tuple(sb), ta=ta, tb=tb)


def tensordot(a, b, axes, name=None):
    """``tf.tensordot`` for the common ``axes=1`` / ``axes=[[i],[j]]`` forms, via reshape+matmul."""
    from sim.engine.ops import array
    x, y = binary(a, b, "MatMul")
    if isinstance(axes, int):
        ax_a = list(range(x._v.ndim - axes, x._v.ndim))
        ax_b = list(range(axes))
    else:
        ax_a, ax_b = [list(np.atleast_1d(v)) for v in axes]
    ax_a = [i % x._v.ndim for i in ax_a]
    ax_b = [i % y._v.ndim for i in ax_b]
    free_a = [i for i in range(x._v.ndim) if i not in ax_a]
    free_b = [i for i in range(y._v.ndim) if i not in ax_b]
    k = int(np.prod([x._v.shape[i] for i in ax_a]))
    xa = array.reshape(array.transpose(x, free_a + ax_a), [-1, k])
    yb = array.reshape(array.transpose(y, ax_b + free_b), [k, -1])
    shape = [x._v.shape[i] for i in free_a] + [y._v.shape[i] for i in free_b]
    return array.reshape(matmul(xa, yb), shape)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    """``tf.norm`` of a vector (or of the flattened tensor, or along ``axis``): 'euclidean'/2,
    1 or np.inf, written with differentiable ops (the guide takes its gradient again)."""
    from sim.engine.ops import math, reduce
    from sim.engine.ops._core import tensor as _tensor
    x = _tensor(tensor)
    keep = bool(keepdims)
    if ord in ("euclidean", "fro", 2, 2.0):
        return math.sqrt(reduce.reduce_sum(math.square(x), axis, keepdims=keep))
    if ord in (1, 1.0):
        return reduce.reduce_sum(math.abs(x), axis, keepdims=keep)
    if ord == np.inf:
        return reduce.reduce_max(math.abs(x), axis, keepdims=keep)
    raise ValueError(f"'ord' must be a supported vector norm, got {ord!r}; sim.tf supports "
                     "'euclidean' (2), 1 and np.inf.")
