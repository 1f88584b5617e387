"""Closures side by side on one host, step by step: how TensorFlow's in-process workers run them.

The parameter-server tutorial starts its workers as servers inside the notebook's process, and
gives them enough inter-op threads to run at once (its own comment: "Workers need some inter_ops
threads to work properly"). Two closures scheduled together then run beside each other, and each
training step of a closure reads the variables when its ops run and writes them when it applies
its gradients. So one closure's step reads what the other's earlier steps wrote, and misses the
step the other is running at the same time: every step but the first is one update stale.

Model.fit's scheduled function (``steps_per_execution`` steps) says its steps here (``say``), and
on a one-host machine (one_host.py) the worker pool runs such a closure as one
read-compute-write unit per step; the other closures' steps interleave with its own through the
simulated clock. Measured on TensorFlow 2.21 (tests/tf_crosscheck/tutorials/README.md): the
tutorial's first-epoch loss with 3 workers is 0.5 % above its 1-worker loss (two runs: +0.50 %,
+0.43 %); closures run whole one after the other would give the 1-worker loss.
A closure that does not say its steps (a custom training loop's ``step_fn``) stays one unit.
"""
from __future__ import annotations


def say(fn, count, one_step, finish):
    """``fn`` runs ``one_step(*args)`` ``count`` times, then ``finish()``."""
    fn._sim_steps = (int(count), one_step, finish)
    return fn


def steps_of(fn):
    """``(count, one_step, finish)`` for a function that said its steps, else None."""
    return getattr(fn, "_sim_steps", None)


class SharedHost:
    """The host's CPU shared equally by the steps that run on it at once (processor sharing, as
    the in-process workers' threads share the cores): k steps that start together take k times
    one step's time and end together. The share is counted when a step starts."""

    def __init__(self, env):
        self.env = env
        self.running = 0

    def compute(self, seconds):
        self.running += 1
        try:
            yield self.env.timeout(0)       # every step starting at this instant is counted
            yield self.env.timeout(seconds * self.running)
        finally:
            self.running -= 1
