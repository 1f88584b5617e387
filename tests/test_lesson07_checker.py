"""Lesson 07's checkers: right answers pass, known mistakes get their hint, unfinished is reported."""
import math

import pytest

from sim.course.exercises import lesson07_shards as shards
from sim.course.exercises import lesson07_stable_lr as stable
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.i18n import t

pytestmark = pytest.mark.lesson07


def good_shards(kind, shape, bytes_per_element, **params):
    return shards.reference(kind, shape, bytes_per_element, **params)


def test_shards_reference_matches_the_test_vectors():
    assert shards.reference("min_size", (7, 16384), 4, min_shard_bytes=256 << 10,
                            max_shards=2) == [4, 3]                           # T1
    assert shards.reference("fixed", (13, 2), 4, num_shards=5) == [3, 3, 3, 2, 2]   # T7
    assert shards.reference("max_size", (1000, 64), 8, max_shard_bytes=64 << 10) == [125] * 8


def test_shards_checker_accepts_and_hints(capsys):
    assert shards.check_shard_rows(good_shards) is None

    def remainder_last(kind, shape, size, **params):
        rows = good_shards(kind, shape, size, **params)
        return sorted(rows)
    with pytest.raises(ExerciseFailed) as e:
        shards.check_shard_rows(remainder_last)
    assert t("lesson07.ex_shards_hint_order") in str(e.value)

    def even(kind, shape, size, **params):
        k = len(good_shards(kind, shape, size, **params))
        return [shape[0] // k] * k
    with pytest.raises(ExerciseFailed) as e:
        shards.check_shard_rows(even)
    assert t("lesson07.ex_shards_hint_total") in str(e.value)

    def not_done(*a, **k):
        raise NotImplementedError
    with pytest.raises(ExerciseNotDone):
        shards.check_shard_rows(not_done)


def test_is_stable_brackets_the_closed_form():
    for n, aware in ((4, False), (4, True)):
        limit = stable.reference(n, aware)
        assert stable.is_stable(n, 0.95 * limit, aware)
        assert not stable.is_stable(n, 1.05 * limit, aware)


def test_stable_lr_checker_accepts_and_hints():
    assert stable.check_largest_stable_lr(lambda n, aware: stable.reference(n, aware)) is None
    with pytest.raises(ExerciseFailed) as e:      # forgot the staleness-aware rule
        stable.check_largest_stable_lr(lambda n, aware: stable.reference(n, False))
    assert t("lesson07.ex_lr_hint_rule") in str(e.value)
    with pytest.raises(ExerciseFailed) as e:
        stable.check_largest_stable_lr(lambda n, aware: 2.0)
    assert t("lesson07.ex_lr_hint_high") in str(e.value)
    assert math.isclose(stable.reference(1, False), 2.0)
