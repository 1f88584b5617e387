"""Gradients through ReplicaContext.all_reduce and all_gather (§2.2), checked by central finite
differences of the global objective J = Σ_r L_r in float64: TF's custom gradients make each
replica's gradient equal dJ/dx_r."""
import numpy as np
import pytest

import sim.tf as tf
from sim.distribute.values import PerReplica

H = 1e-6


def _per_replica(strategy, arrays):
    return strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(arrays[ctx.replica_id_in_sync_group]))


def _fd(objective, xs):
    """Central differences of ``objective(xs)`` w.r.t. every entry of every array."""
    out = []
    for r, x in enumerate(xs):
        g = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            plus = [a.copy() for a in xs]
            minus = [a.copy() for a in xs]
            plus[r][i] += H
            minus[r][i] -= H
            g[i] = (objective(plus) - objective(minus)) / (2 * H)
        out.append(g)
    return out


def _run_grads(strategy, xs, cs, collective):
    """Each replica: y = collective(x_r); L_r = Σ c_r·sin(y); returns its dL_r/dx_r."""
    xv, cv = _per_replica(strategy, xs), _per_replica(strategy, cs)

    def fn(x, c):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = collective(tf.distribute.get_replica_context(), x)
            loss = tf.reduce_sum(c * tf.sin(y))
        return tape.gradient(loss, x)
    return [g.numpy() for g in strategy.experimental_local_results(strategy.run(fn, args=(xv, cv)))]


def _strategy(n):
    return tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(n)])


@pytest.mark.parametrize("op", ["SUM", "MEAN"])
@pytest.mark.parametrize("n", [2, 4])
def test_all_reduce_gradient_matches_finite_differences(n, op):
    rng = np.random.default_rng(n)
    xs = [rng.normal(size=(3, 2)) for _ in range(n)]
    cs = [rng.normal(size=(3, 2)) for _ in range(n)]
    scale = 1.0 if op == "SUM" else 1.0 / n

    def objective(xs_):
        y = scale * sum(xs_)
        return sum(np.sum(c * np.sin(y)) for c in cs)
    got = _run_grads(_strategy(n), xs, cs, lambda ctx, x: ctx.all_reduce(op, x))
    for g, ref in zip(got, _fd(objective, xs)):
        np.testing.assert_allclose(g, ref, rtol=1e-6, atol=1e-8)
    local_only = scale * cs[0] * np.cos(scale * sum(xs))   # what an identity gradient gives
    assert not np.allclose(got[0], local_only)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("n", [2, 4])
def test_all_gather_gradient_matches_finite_differences(n, axis):
    rng = np.random.default_rng(10 + n)
    # Replicas hold different numbers of rows along the gather axis (allowed, §2.2).
    shapes = [(r + 1, 2) if axis == 0 else (2, r + 1) for r in range(n)]
    xs = [rng.normal(size=s) for s in shapes]
    total = np.concatenate(xs, axis=axis).shape
    cs = [rng.normal(size=total) for _ in range(n)]

    def objective(xs_):
        y = np.concatenate(xs_, axis=axis)
        return sum(np.sum(c * np.sin(y)) for c in cs)
    got = _run_grads(_strategy(n), xs, cs, lambda ctx, x: ctx.all_gather(x, axis=axis))
    for g, x, ref in zip(got, xs, _fd(objective, xs)):
        assert g.shape == x.shape
        np.testing.assert_allclose(g, ref, rtol=1e-6, atol=1e-8)


def test_nest_and_variable_through_all_reduce():
    """A dict of values, one of them a MirroredVariable: every leaf gets its gradient."""
    s = _strategy(2)
    with s.scope():
        w = tf.Variable(np.array([1.0, -2.0]))
    xv = _per_replica(s, [np.array([0.5, 1.5]), np.array([2.0, -1.0])])

    def fn(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = tf.distribute.get_replica_context().all_reduce("SUM", {"w": w, "x": x})
            loss = tf.reduce_sum(out["w"] * out["x"])
        return tape.gradient(loss, [w, x])
    gw, gx = s.run(fn, args=(xv,))
    sx = np.array([2.5, 0.5])            # Σ x_r; each replica's w is the same [1, -2]
    sw = 2 * np.array([1.0, -2.0])       # Σ w_r
    # J = Σ_r Σ(Σw · Σx) = 2 Σ(sw·sx): dJ/dw_r = 2·sx, dJ/dx_r = 2·sw
    for r in range(2):
        np.testing.assert_allclose(gw.values[r].numpy(), 2 * sx, rtol=0, atol=1e-12)
        np.testing.assert_allclose(gx.values[r].numpy(), 2 * sw, rtol=0, atol=1e-12)


@pytest.mark.parametrize("make", [lambda: tf.distribute.OneDeviceStrategy("/gpu:0"),
                                  lambda: tf.distribute.get_strategy(), lambda: _strategy(1)])
def test_one_replica_gradient_is_upstream(make):
    s = make()
    x = tf.constant(np.array([0.3, -0.7]))

    def fn():
        with tf.GradientTape() as tape:
            tape.watch(x)
            ctx = tf.distribute.get_replica_context()
            y = ctx.all_gather(ctx.all_reduce("SUM", x), axis=0)
            loss = tf.reduce_sum(tf.sin(y))
        return tape.gradient(loss, x)
    np.testing.assert_allclose(s.run(fn).numpy(), np.cos(x.numpy()), rtol=0, atol=1e-15)


def test_backward_collective_is_on_the_timeline():
    s = _strategy(4)
    xv = _per_replica(s, [np.full(1000, float(r)) for r in range(4)])

    def forward_only(x):
        return tf.distribute.get_replica_context().all_reduce("SUM", x)

    def with_grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.distribute.get_replica_context().all_reduce("SUM", x)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, x)
    s.run(forward_only, args=(xv,))
    fwd = [e for e in s.extended.last_step_trace if e.kind == "transfer"]
    s.run(with_grad, args=(xv,))
    both = [e for e in s.extended.last_step_trace if e.kind == "transfer"]
    assert len(both) == 2 * len(fwd) and both[1].nbytes == fwd[0].nbytes


def test_gradient_outside_run_is_explained():
    s = _strategy(2)
    xv = _per_replica(s, [np.array([1.0]), np.array([2.0])])

    def fn(x):
        tape = tf.GradientTape()
        with tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.distribute.get_replica_context().all_reduce("SUM", x))
        return tape, loss, x
    tapes, losses, xs = s.run(fn, args=(xv,))
    with pytest.raises(RuntimeError, match="inside `strategy.run`"):
        tapes.values[0].gradient(losses.values[0], xs.values[0])
