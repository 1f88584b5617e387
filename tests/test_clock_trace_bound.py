"""Issue 24, item 11 (memory): the simulated clock's trace keeps the newest ``trace_limit``
events, so a long loop's memory stays flat; ``trace_limit = None`` keeps the full trace, and
the last step's events are the same either way (sim/runtime.py)."""
import tracemalloc

import numpy as np
import pytest

import sim.tf as tf
from sim import runtime
from sim.runtime import clock


@pytest.fixture
def fresh_clock():
    saved = clock().trace_limit
    clock().reset()
    yield clock()
    clock().trace_limit = saved
    clock().reset()


def _loop(steps):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        w = tf.Variable(np.ones((4, 1), np.float32))
        opt = tf.keras.optimizers.SGD(0.01)
    x = np.ones((8, 4), np.float32)

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    def run(n):
        for _ in range(n):
            strategy.run(step, args=(x,))
    return strategy, run


def test_the_default_limit_is_a_few_megabytes():
    assert runtime.TRACE_LIMIT == clock().trace_limit and 1_000 <= runtime.TRACE_LIMIT <= 50_000


def _growth(clock_, limit, steps=300):
    """Bytes allocated and kept by ``steps`` more steps of a warm loop under ``limit``."""
    clock_.reset()
    clock_.trace_limit = limit
    strategy, run = _loop(0)
    run(100)                                      # warm up: a limit of 200 events is reached
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run(steps)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return grown, strategy


def test_the_trace_stays_within_its_limit_and_memory_stays_flat(fresh_clock):
    unbounded, _ = _growth(fresh_clock, None)
    assert len(fresh_clock.trace) >= 400 * 10          # 13 events per step here
    bounded, strategy = _growth(fresh_clock, 200)
    assert len(fresh_clock.trace) <= 250 and fresh_clock.trace_dropped > 0
    assert bounded < unbounded / 4, (bounded, unbounded)      # measured: ~0.2 MB vs ~2 MB
    last = fresh_clock.last_step_trace()
    assert last and len(last) == len(strategy.extended.last_step_trace)
    assert all(e.start >= fresh_clock.steps[-1].start for e in last)


def test_no_limit_keeps_every_event(fresh_clock):
    fresh_clock.trace_limit = None
    _, run = _loop(0)
    run(40)
    per_step = len(fresh_clock.trace) / 40
    run(40)
    assert len(fresh_clock.trace) == pytest.approx(80 * per_step) and fresh_clock.trace_dropped == 0
