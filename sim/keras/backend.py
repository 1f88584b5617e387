"""Keras backend state: unique layer names, the seeded RNG, floatx, get_value.

Keras names layers "dense", "dense_1"... per session, and tests compare names, so the
counters live here and ``clear_session`` resets them. One NumPy generator seeds every
initializer and dropout mask, so ``set_random_seed`` makes whole runs repeatable.
"""
from __future__ import annotations

import re

import numpy as np

_name_counts: dict[str, int] = {}
_rng = np.random.default_rng(0)
_floatx = "float32"
_seed_state = {"seed": None}


def floatx() -> str:
    return _floatx


def set_floatx(value: str) -> None:
    global _floatx
    _floatx = str(value)


def epsilon() -> float:
    """The fuzz factor Keras uses in crossentropies and metrics (1e-7)."""
    return 1e-7


def to_snake_case(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    s = re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()
    return s if s[0] != "_" else "private" + s


def unique_object_name(base: str, zero_based: bool = True) -> str:
    """'dense', then 'dense_1', 'dense_2'... as Keras does within a session ('input_1' first
    when not zero-based)."""
    count = _name_counts.get(base, 0)
    _name_counts[base] = count + 1
    if not zero_based:
        return f"{base}_{count + 1}"
    return base if count == 0 else f"{base}_{count}"


def clear_session() -> None:
    """Reset layer-name counters (tf.keras.backend.clear_session)."""
    _name_counts.clear()


def rng() -> np.random.Generator:
    """The generator behind initializers and dropout (seeded by set_random_seed)."""
    return _rng


def seed_everything(seed: int) -> None:
    global _rng
    _rng = np.random.default_rng(int(seed))
    _seed_state["seed"] = int(seed)


def get_value(x):
    """A NumPy value (or Python float) from a tensor, variable or number."""
    if isinstance(x, (int, float, np.ndarray, np.generic)):
        return x
    if hasattr(x, "numpy"):
        return x.numpy()
    if hasattr(x, "read_value"):
        return x.read_value().numpy()
    return np.asarray(x)


def set_value(x, value) -> None:
    x.assign(value)


def count_params(weights) -> int:
    return int(sum(int(np.prod(w.shape)) for w in weights))
