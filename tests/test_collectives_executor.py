"""Property tests: every algorithm's schedule, executed on NumPy arrays, gives the exact sum."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sim.collectives import ALGORITHMS, Schedule, Transfer, build, execute
from sim.collectives import primitives
from sim.collectives.schedule import is_power_of_two

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _needs(name: str, p: int) -> bool:
    """True when the algorithm refuses this device count (and must say so)."""
    if name in ("halving_doubling", "recursive_doubling"):
        return not is_power_of_two(p)
    if name == "hierarchical_copy":
        return p > 1 and p % 2 == 1
    return False


@st.composite
def cases(draw):
    p = draw(st.integers(1, 64))
    n = draw(st.one_of(st.integers(0, p), st.integers(0, 300)))
    dtype = draw(st.sampled_from(["int64", "int32", "float64", "float32"]))
    seed = draw(st.integers(0, 2**31 - 1))
    return p, n, dtype, seed


def _arrays(p, n, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype.startswith("int"):
        return [rng.integers(-1000, 1000, size=n).astype(dtype) for _ in range(p)]
    return [rng.standard_normal(n).astype(dtype) for _ in range(p)]


@pytest.mark.parametrize("name", ALGORITHMS)
@SETTINGS
@given(case=cases())
def test_every_algorithm_sums_exactly(name, case):
    p, n, dtype, seed = case
    arrays = _arrays(p, n, dtype, seed)
    if _needs(name, p):
        with pytest.raises(ValueError) as err:
            build(name, p, n)
        assert str(p) in str(err.value)
        return
    out = execute(build(name, p, n), arrays)
    expect = np.sum(np.stack(arrays).astype(np.float64 if dtype.startswith("float") else np.int64), axis=0)
    assert len(out) == p
    for r, got in enumerate(out):
        assert got.shape == arrays[0].shape and got.dtype == arrays[0].dtype
        if dtype.startswith("int"):
            assert np.array_equal(got, expect.astype(dtype)), (name, p, n, r)
        else:
            tol = 1e-4 if dtype == "float32" else 1e-10
            np.testing.assert_allclose(got, expect, rtol=tol, atol=tol * p, err_msg=f"{name} p={p} n={n} rank={r}")


def test_inputs_are_not_modified_and_shapes_kept():
    arrays = [np.full((2, 3), i, dtype=np.float32) for i in range(4)]
    before = [a.copy() for a in arrays]
    out = execute(build("ring", 4, 6), arrays)
    assert all(np.array_equal(a, b) for a, b in zip(arrays, before))
    assert all(o.shape == (2, 3) and np.all(o == 6) for o in out)


@SETTINGS
@given(case=cases())
def test_primitives(case):
    p, n, dtype, seed = case
    arrays = _arrays(p, n, dtype, seed)
    total = np.sum(np.stack(arrays), axis=0)
    bounds = (np.arange(p + 1) * n) // p
    rs = primitives.run_reduce_scatter(arrays)
    for r in range(p):
        np.testing.assert_allclose(rs[r], total[bounds[r]:bounds[r + 1]], rtol=1e-4, atol=1e-4 * p)
    root = seed % p
    np.testing.assert_allclose(primitives.run_reduce(arrays, root), total, rtol=1e-4, atol=1e-4 * p)
    for got in primitives.run_broadcast(arrays, root):
        assert np.array_equal(got, arrays[root])
    pieces = [a[: max(0, n // p)] for a in arrays]
    gathered = primitives.run_all_gather(pieces)
    for got in gathered:
        assert np.array_equal(got, np.concatenate(pieces))


def test_ring_segments_follow_the_reference_convention():
    """After the reduce-scatter rank r owns segment r (NCCL's convention); p-1 + p-1 rounds."""
    s = build("ring", 4, 8)
    assert len(s) == 6
    assert s.rounds[0].transfers()[0] == Transfer(0, 1, (6, 8), "reduce")
    assert all(len(r) == 4 for r in s)
    # every rank sends 2(p-1)/p of the buffer: the bandwidth-optimal amount
    assert s.elements_sent().tolist() == [12, 12, 12, 12]


def test_hand_written_schedule_from_transfers():
    sched = Schedule.from_transfers("pair", 2, 3, [[Transfer(0, 1, (0, 3), "reduce")],
                                                   [Transfer(1, 0, (0, 3), "copy")]])
    out = execute(sched, [np.array([1, 2, 3]), np.array([10, 20, 30])])
    assert [o.tolist() for o in out] == [[11, 22, 33]] * 2


def test_double_tree_is_nccls():
    """NCCL trees.cc: in-order tree rooted at 0; mirror for even p, shift for odd p."""
    from sim.collectives.trees import nccl_btree_parents, nccl_dtree_parents
    a = nccl_btree_parents(14)
    # the illustration in trees.cc: 0-8, 8-4, 8-12, 4-2, 4-6, 12-10, 12-13, 2-1, 2-3 ...
    assert a[8] == 0 and a[4] == 8 and a[12] == 8 and a[13] == 12 and a[10] == 12 and a[1] == 2
    for p in (8, 13, 14):
        ta, tb = nccl_dtree_parents(p)
        inner_a = {int(x) for x in ta if x >= 0} - {0}
        inner_b = {int(x) for x in tb if x >= 0}
        assert len(inner_a & inner_b) <= 1


def test_learner_errors_name_the_mistake_and_fix():
    with pytest.raises(ValueError, match="ring"):
        build("rinng", 4, 8)
    with pytest.raises(ValueError, match="shape"):
        execute(build("ring", 2, 3), [np.zeros(3), np.zeros(4)])
    with pytest.raises(ValueError, match="4 or 8"):
        build("halving_doubling", 6, 8)
    with pytest.raises(ValueError, match="even"):
        build("hierarchical_copy", 5, 8)
    assert build("ReductionToOneDevice", 3, 4).name == "reduce_to_one"
    assert build("HierarchicalCopyAllReduce", 8, 4).name == "hierarchical_copy"


def test_catalogue_has_every_key_in_every_language():
    import json
    from pathlib import Path
    import sim.collectives
    data = json.loads((Path(sim.__file__).parent / "i18n" / "catalogs" / "collectives.json").read_text("utf-8"))
    assert set(data["en"]) == set(data["zh"]) == set(data["pt"])
