"""Run NumPy's BLAS on one thread for a while (the stacked trainers call it).

The stacked runs do thousands of small matmuls. On a shared machine (the course's 2-core CI,
a laptop running JupyterLab) OpenBLAS's worker threads spin waiting for each other and a run
took ten times longer than on one thread; on one thread it takes the same time loaded or idle.
This finds the OpenBLAS that NumPy loaded (its ``*set_num_threads*`` entry point, under
whichever name the wheel exports) and sets the thread count for the ``with`` block only.
Without an OpenBLAS (another BLAS, another OS) it does nothing.
"""
from __future__ import annotations

import ctypes
from contextlib import contextmanager
from functools import lru_cache

_PREFIXES = ("scipy_openblas", "openblas")
_SUFFIXES = ("64_", "")


@lru_cache(maxsize=1)
def _entry_points():
    """(get, set) functions of the OpenBLAS NumPy uses, or None."""
    import numpy  # noqa: F401  (loads the library)
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
    except OSError:
        return None
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in _PREFIXES:
            for suffix in _SUFFIXES:
                get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                put = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                if get is not None and put is not None:
                    return get, put
    return None


@contextmanager
def one_blas_thread():
    """BLAS on one thread inside the block; the previous count restored after it."""
    points = _entry_points()
    if points is None:
        yield
        return
    get, put = points
    before = get()
    put(1)
    try:
        yield
    finally:
        put(before)
