"""``tf.print``: prints tensors by value (TensorFlow's format), not their repr."""
from __future__ import annotations

import builtins
import sys

import numpy as np


def _text(x, summarize=3):
    from sim.engine.tensor import Tensor
    if hasattr(x, "_as_tensor") or hasattr(x, "_engine_variable") or isinstance(x, Tensor):
        from sim.engine.tensor import convert_to_tensor
        return _fmt(convert_to_tensor(x)._v, summarize, 1)
    if isinstance(x, (list, tuple)):
        inner = ", ".join(_text(i, summarize) for i in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner})"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k!r}: {_text(v, summarize)}" for k, v in x.items()) + "}"
    return str(x)


def _scalar(x):
    if isinstance(x, (float, np.floating)):
        return f"{x:g}"
    if isinstance(x, bytes):
        return x.decode("utf-8", "replace")
    return str(x)


def _fmt(v, summarize, depth):
    """TensorFlow's layout: ``[[1 2]\n [3 4]]``, at most ``summarize`` items at each end."""
    if v.ndim == 0:
        return _scalar(v[()])
    n = v.shape[0]
    idx = list(range(n)) if summarize < 0 or n <= 2 * summarize else (
        list(range(summarize)) + [None] + list(range(n - summarize, n)))
    parts = ["..." if i is None else _fmt(v[i], summarize, depth + 1) for i in idx]
    sep = " " if v.ndim == 1 else "\n" * (v.ndim - 1) + " " * depth
    return "[" + sep.join(parts) + "]"


_STDERR = sys.stderr     # the default as the signature shows it: the stream of the moment is used


def print(*inputs, output_stream=_STDERR, summarize=3, sep=" ", end="\n", name=None):  # noqa: A001
    """``tf.print(*inputs)``: writes to stderr by default, as TensorFlow does (the sys.stderr of
    the call, so a notebook's or pytest's captured stream gets it)."""
    text = sep.join(_text(x, summarize) for x in inputs)
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        with open(output_stream[7:], "a", encoding="utf-8") as f:
            f.write(text + end)
        return None
    stream = sys.stdout if output_stream in (sys.stdout, "stdout") else (
        sys.stderr if output_stream in (_STDERR, sys.stderr, sys.__stderr__, "stderr") else output_stream)
    builtins.print(text, end=end, file=stream)
    return None
