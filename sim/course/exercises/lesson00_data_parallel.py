"""Exercise 00: the data-parallel gradient of a linear model.

The learner splits a global batch across replicas, lets each replica compute its share of
the gradient of the mean squared error, and adds the shares (an all-reduce with SUM). The
answer must equal the gradient over the whole batch on one device, even when the batch does
not split evenly, which only works when each replica divides by the *global* batch size
(what ``tf.nn.compute_average_loss`` does in TensorFlow).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from sim.course.exercises.checker import Case, close, run_cases
from sim.i18n import t


def full_batch_gradient(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d/dw of mean((x @ w - y)**2) over the whole batch: the single-device answer."""
    return 2.0 * x.T @ (x @ w - y) / len(x)


def _shards(x: np.ndarray, y: np.ndarray, num_replicas: int):
    return zip(np.array_split(x, num_replicas), np.array_split(y, num_replicas))


def _mean_of_means(w, x, y, num_replicas):
    grads = [full_batch_gradient(w, xs, ys) for xs, ys in _shards(x, y, num_replicas) if len(xs)]
    return np.mean(grads, axis=0)


def _sum_without_mean(w, x, y, num_replicas):
    return sum(2.0 * xs.T @ (xs @ w - ys) for xs, ys in _shards(x, y, num_replicas))


def _per_replica_divisor(w, x, y, num_replicas):
    return sum(full_batch_gradient(w, xs, ys) for xs, ys in _shards(x, y, num_replicas) if len(xs))


def cases(seed: int = 0) -> list[Case]:
    """Even splits, uneven splits, and more replicas than examples (an empty shard)."""
    rng = np.random.default_rng(seed)
    result = []
    for batch, replicas, features in [(8, 4, 3), (10, 4, 2), (7, 2, 4), (3, 4, 2), (12, 1, 3)]:
        x = rng.normal(size=(batch, features))
        y = rng.normal(size=batch)
        w = rng.normal(size=features)
        sizes = [len(s) for s in np.array_split(np.arange(batch), replicas)]
        result.append(Case(t("exercises.shard_split", g=batch, r=replicas, sizes=sizes),
                           args=(w, x, y, replicas), expected=full_batch_gradient(w, x, y)))
    return result


def diagnose(case: Case, got) -> str | None:
    """Name the usual mistakes by recomputing them on the same inputs."""
    for wrong, hint in [(_mean_of_means, "exercises.hint_mean_of_means"),
                        (_sum_without_mean, "exercises.hint_sum_not_mean"),
                        (_per_replica_divisor, "exercises.hint_per_replica_divisor")]:
        if close(got, wrong(*case.args)):
            return hint
    return None


def check_data_parallel_gradient(fn: Callable) -> None:
    """Check ``fn(w, x, y, num_replicas)`` against the single-device gradient."""
    return run_cases(fn, cases(), diagnose=diagnose)
