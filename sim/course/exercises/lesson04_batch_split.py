"""Exercise 04: how TensorFlow splits each global batch across the replicas.

The learner writes ``per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy)``:
for ``tf.data.Dataset.range(num_examples).batch(global_batch)`` given to
``MirroredStrategy.experimental_distribute_dataset``, the list of steps, each step the list of
per-replica batch sizes (one entry per replica, 0 for an empty dummy batch).

Under the ``AUTO`` (in-memory data falls back to ``DATA``) and ``DATA`` policies TensorFlow uses
the legacy rebatch: every input batch of ``b`` examples is cut on its own into slices of
``ceil(b / num_replicas)``. Under ``OFF`` it keeps RebatchV2: balanced sizes (``[f+1]*c + [f]*(n-c)``
with ``f, c = divmod(global_batch, num_replicas)``) taken from the data as one flat stream. The
expected answers are not written here: they are what sim's MirroredStrategy actually produces
(see tf_distribute_semantics §3.1 and test vectors T15-T17).
"""
from __future__ import annotations

import functools
import math
from typing import Callable

from sim.course.exercises.checker import Case, run_cases
from sim.i18n import t

POLICIES = ("AUTO", "DATA", "OFF")

# (num_examples, global_batch, num_replicas, policy): easy cases first, then the ones that
# catch each usual mistake, then a spread of sizes up to 8 replicas.
CASES = [
    (8, 8, 4, "AUTO"),     # an even split
    (10, 10, 4, "AUTO"),   # T15: [3, 3, 3, 1]
    (10, 10, 4, "OFF"),    # T15: [3, 3, 2, 2]
    (10, 4, 2, "AUTO"),    # a partial last batch
    (8, 4, 3, "AUTO"),     # T16: an empty replica in every step
    (6, 4, 2, "OFF"),      # T17: the flat stream leaves the last replica empty
    (4, 4, 5, "DATA"),     # more replicas than examples
    (17, 5, 4, "DATA"),
    (17, 5, 4, "OFF"),
    (25, 12, 8, "AUTO"),
    (25, 12, 8, "OFF"),
    (23, 7, 3, "DATA"),
    (3, 3, 4, "OFF"),
    (30, 9, 6, "OFF"),
]


def _batches(num_examples: int, global_batch: int) -> list[int]:
    return [min(global_batch, num_examples - start) for start in range(0, num_examples, global_batch)]


def reference(num_examples: int, global_batch: int, num_replicas: int, policy: str = "AUTO"):
    """The rule in plain Python (what the solution notebook writes)."""
    if policy in ("AUTO", "DATA"):
        return _legacy(num_examples, global_batch, num_replicas)
    return _flat_stream(num_examples, global_batch, num_replicas)


def _legacy(num_examples, global_batch, num_replicas):
    steps = []
    for b in _batches(num_examples, global_batch):
        s = math.ceil(b / num_replicas)
        steps.append([max(0, min(s, b - k * s)) for k in range(num_replicas)])
    return steps


def _flat_stream(num_examples, global_batch, num_replicas):
    f, c = divmod(global_batch, num_replicas)
    sizes = [f + 1] * c + [f] * (num_replicas - c)
    steps, left = [], num_examples
    while left > 0:
        step = []
        for size in sizes:
            take = min(size, left)
            left -= take
            step.append(take)
        steps.append(step)
    return steps


@functools.lru_cache(maxsize=None)
def simulated(num_examples: int, global_batch: int, num_replicas: int, policy: str) -> tuple:
    """Per-replica batch sizes that sim's MirroredStrategy produces, step by step.

    Runs ``experimental_distribute_dataset`` on a machine with 8 GPUs, then puts the
    learner's current machine back.
    """
    import sim.tf as tf
    from sim import runtime

    previous = runtime.current_machine()
    runtime.use_machine("dgx-a100")
    try:
        strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(num_replicas)])
        dataset = tf.data.Dataset.range(num_examples).batch(global_batch)
        if policy != "AUTO":
            options = tf.data.Options()
            options.experimental_distribute.auto_shard_policy = getattr(
                tf.data.experimental.AutoShardPolicy, policy)
            dataset = dataset.with_options(options)
        steps = []
        for batch in strategy.experimental_distribute_dataset(dataset):
            steps.append(tuple(int(v.shape[0]) for v in strategy.experimental_local_results(batch)))
        return tuple(steps)
    finally:
        runtime.use_machine(previous)


def _as_lists(steps) -> list[list[int]]:
    return [list(step) for step in steps]


# ---------------------------------------------------------------- the usual mistakes

def _even_split(num_examples, global_batch, num_replicas, policy="AUTO"):
    """Every replica gets global_batch // num_replicas, in every step."""
    return [[global_batch // num_replicas] * num_replicas for _ in _batches(num_examples, global_batch)]


def _floor_per_batch(num_examples, global_batch, num_replicas, policy="AUTO"):
    """Each batch b split as b // num_replicas: the remainder of every batch is lost."""
    return [[b // num_replicas] * num_replicas for b in _batches(num_examples, global_batch)]


def _no_partial_batch(num_examples, global_batch, num_replicas, policy="AUTO"):
    """The right split, but only for full batches (as if drop_remainder=True)."""
    full = (num_examples // global_batch) * global_batch
    return reference(full, global_batch, num_replicas, policy) if full else []


def _no_empty_replicas(num_examples, global_batch, num_replicas, policy="AUTO"):
    """The right sizes with the empty replicas left out."""
    return [[s for s in step if s] for step in reference(num_examples, global_batch, num_replicas, policy)]


def _balanced_everywhere(num_examples, global_batch, num_replicas, policy="AUTO"):
    return _flat_stream(num_examples, global_batch, num_replicas)


def _ceil_everywhere(num_examples, global_batch, num_replicas, policy="AUTO"):
    return _legacy(num_examples, global_batch, num_replicas)


def _balanced_per_batch(num_examples, global_batch, num_replicas, policy="AUTO"):
    """np.array_split on each batch: balanced, but each batch on its own (not a flat stream)."""
    if policy in ("AUTO", "DATA"):
        return _legacy(num_examples, global_batch, num_replicas)
    steps = []
    for b in _batches(num_examples, global_batch):
        f, c = divmod(b, num_replicas)
        steps.append([f + 1] * c + [f] * (num_replicas - c))
    return steps


MISTAKES = [
    (_balanced_per_batch, "lesson04.hint_off_per_batch"),
    (_even_split, "lesson04.hint_even_split"),
    (_floor_per_batch, "lesson04.hint_even_split"),
    (_no_empty_replicas, "lesson04.hint_no_empty"),
    (_no_partial_batch, "lesson04.hint_no_partial"),
    (_balanced_everywhere, "lesson04.hint_balanced_for_data"),
    (_ceil_everywhere, "lesson04.hint_legacy_for_off"),
]


class Steps:
    """Steps of per-replica sizes, shown on one line in the verdicts (``[[3, 3, 3, 1]]``)."""

    def __init__(self, steps):
        self.steps = [list(step) for step in steps]

    def __repr__(self):
        return repr(self.steps)

    def __eq__(self, other):
        return isinstance(other, Steps) and other.steps == self.steps


def _normalise(got):
    """A list of lists of ints, or None when the shape of the answer is not that."""
    if isinstance(got, Steps):
        return got.steps
    try:
        return [[int(s) for s in step] for step in got]
    except (TypeError, ValueError):
        return None


def compare(got, expected) -> bool:
    return _normalise(got) == _normalise(expected)


def diagnose(case: Case, got) -> str | None:
    """Name the usual mistake by recomputing it on the same inputs."""
    answer = _normalise(got)
    if answer is None:
        return "lesson04.hint_shape"
    for wrong, hint in MISTAKES:
        if answer == wrong(*case.args):
            return hint
    if len(answer) != len(case.expected.steps):
        return "lesson04.hint_steps"
    return None


def cases() -> list[Case]:
    result = []
    for n, g, r, policy in CASES:
        result.append(Case(t("lesson04.case_split", n=n, g=g, r=r, policy=policy),
                           args=(n, g, r, policy), expected=Steps(simulated(n, g, r, policy))))
    return result


def check_per_replica_batch_sizes(fn: Callable) -> None:
    """Check ``fn(num_examples, global_batch, num_replicas, policy)`` against sim's strategies."""
    if not callable(fn):
        return run_cases(fn, [], compare=compare, diagnose=diagnose)

    @functools.wraps(fn)
    def shown_on_one_line(*args):
        got = fn(*args)
        return Steps(got) if _normalise(got) is not None else got

    return run_cases(shown_on_one_line, cases(), compare=compare, diagnose=diagnose)
