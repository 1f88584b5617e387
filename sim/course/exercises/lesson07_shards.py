"""Exercise 07a: predict the shards a partitioner makes.

The learner writes ``shard_rows(kind, shape, bytes_per_element, **params)`` returning the rows of
each shard, for ``kind`` "fixed" (``num_shards``), "min_size" (``min_shard_bytes``,
``max_shards``) or "max_size" (``max_shard_bytes``, ``max_shards``). Expected answers come from
the simulator's own partitioners (TensorFlow's arithmetic, T1-T7) and its "div" row split.
"""
from __future__ import annotations

from typing import Callable

from sim.distribute.ps import partitioners as P
from sim.distribute.ps.sharded_variable import div_row_sizes
from sim.course.exercises.checker import Case, run_cases
from sim.i18n import join_list, t

_DTYPES = {1: "int8", 2: "float16", 4: "float32", 8: "float64"}

CASES = [
    ("fixed", (13, 2), 4, {"num_shards": 5}),
    ("fixed", (3, 8), 4, {"num_shards": 4}),
    ("min_size", (7, 16384), 4, {"min_shard_bytes": 256 << 10, "max_shards": 2}),
    ("min_size", (1024, 1024), 4, {"min_shard_bytes": 256 << 10, "max_shards": 4}),
    ("min_size", (100, 10), 4, {"min_shard_bytes": 256 << 10, "max_shards": 10}),
    ("min_size", (8, 16384), 4, {"min_shard_bytes": 256 << 10, "max_shards": 2}),
    ("max_size", (1000, 64), 8, {"max_shard_bytes": 64 << 10}),
    ("max_size", (10, 5), 4, {"max_shard_bytes": 100, "max_shards": 3}),
    ("max_size", (10, 5), 4, {"max_shard_bytes": 30}),
]


def reference(kind, shape, bytes_per_element, **params):
    """The simulator's answer: its partitioner, then the div split of the rows."""
    make = {"fixed": P.FixedShardsPartitioner, "min_size": P.MinSizePartitioner,
            "max_size": P.MaxSizePartitioner}[kind]
    parts = make(**params)(shape=list(shape), dtype=_DTYPES[bytes_per_element])
    return div_row_sizes(shape[0], parts[0])


def cases() -> list[Case]:
    return [Case(t("lesson07.ex_shards_case", kind=kind, shape=shape, size=size,
                   params=join_list(f"{k}={v}" for k, v in params.items())),
                 (kind, shape, size), params, reference(kind, shape, size, **params))
            for kind, shape, size, params in CASES]


def _compare(got, expected):
    try:
        return [int(x) for x in got] == list(expected)
    except (TypeError, ValueError):
        return False


def diagnose(case: Case, got) -> str | None:
    try:
        got = [int(x) for x in got]
    except (TypeError, ValueError):
        return "lesson07.ex_shards_hint_list"
    expected = case.expected
    if sum(got) != sum(expected):
        return "lesson07.ex_shards_hint_total"
    if sorted(got) == sorted(expected):
        return "lesson07.ex_shards_hint_order"
    return "lesson07.ex_shards_hint_count"


def check_shard_rows(fn: Callable) -> int:
    """Check ``fn(kind, shape, bytes_per_element, **params) -> [rows per shard]``."""
    return run_cases(fn, cases(), compare=_compare, diagnose=diagnose)
