"""one_blas_thread: one OpenBLAS thread inside the block, the previous count after it."""
import numpy as np
import pytest

from sim.scaling.blas_threads import _entry_points, one_blas_thread


def test_thread_count_is_one_inside_and_restored_after():
    points = _entry_points()
    if points is None:
        pytest.skip("NumPy does not use OpenBLAS here")
    get, put = points
    before = get()
    with one_blas_thread():
        assert get() == 1
        a = np.ones((64, 64))
        assert (a @ a)[0, 0] == 64
    assert get() == before


def test_restored_even_when_the_block_raises():
    points = _entry_points()
    if points is None:
        pytest.skip("NumPy does not use OpenBLAS here")
    get, _ = points
    before = get()
    with pytest.raises(RuntimeError):
        with one_blas_thread():
            raise RuntimeError("boom")
    assert get() == before
