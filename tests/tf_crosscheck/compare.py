"""Compare two engines' JSON results: numbers within a tolerance, everything else exactly."""
from __future__ import annotations

import re

import numpy as np


def differences(a, b, rtol, atol, where="", messages=True):
    """Human-readable differences between ``a`` (sim) and ``b`` (TensorFlow); [] when they agree.

    Errors (``{"__error__": type, "message": first line}``) must have the same type, and sim's
    message must start with TensorFlow's (it may add the fix) unless ``messages`` is False."""
    if isinstance(a, dict) and isinstance(b, dict):
        if "__error__" in a or "__error__" in b:
            if a.get("__error__") != b.get("__error__"):
                return [f"{where}: sim {a} != tf {b}"]
            if messages and not str(a.get("message")).startswith(tf_message(b.get("message"))):
                return [f"{where}: message sim {a['message']!r} != tf {b['message']!r}"]
            return []
        if sorted(a) != sorted(b):
            return [f"{where}: keys sim {sorted(a)} != tf {sorted(b)}"]
        return [d for k in sorted(a) for d in differences(a[k], b[k], rtol, atol, f"{where}/{k}", messages)]
    if isinstance(a, list) and isinstance(b, list):
        if _numeric(a) and _numeric(b) and _regular(a) and _regular(b):
            x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
            if x.shape != y.shape:
                return [f"{where}: shape sim {x.shape} != tf {y.shape}"]
            if not np.allclose(x, y, rtol=rtol, atol=atol):
                worst = float(np.max(np.abs(x - y)))
                return [f"{where}: values differ (max |sim - tf| = {worst:.3g}): sim {a} tf {b}"[:600]]
            return []
        if len(a) != len(b):
            return [f"{where}: length sim {len(a)} != tf {len(b)}: sim {a} tf {b}"[:600]]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, rtol, atol, f"{where}[{i}]", messages)]
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
                and np.isclose(a, b, rtol=rtol, atol=atol):
            return []
        return [f"{where}: sim {a!r} != tf {b!r}"]
    return [] if a == b else [f"{where}: sim {a!r} != tf {b!r}"]


def tf_message(text):
    """TensorFlow's message without what its runtime adds around the op's text: the
    ``{{function_node ...}} `` prefix, and its placeholder for a dataset's debug string."""
    text = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", str(text))
    return re.split(r" goo\.gle/\S*", text, maxsplit=1)[0].rstrip()


def _numeric(x):
    if isinstance(x, list):
        return all(_numeric(v) for v in x) and len(x) > 0
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _regular(x):
    """A rectangular nested list (ragged ones, like a model's weights, are compared item by item)."""
    try:
        np.asarray(x, dtype=np.float64)
        return True
    except ValueError:
        return False
