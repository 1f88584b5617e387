"""Higher-order gradients through nested tapes (sim/engine/higher_order.py): closed forms, the
autodiff guide's examples, every op's Tensor-level gradient against its NumPy one and its second
derivative against finite differences, and the clear error of an op without one."""
from __future__ import annotations

import numpy as np
import pytest

import sim.tf as tf


def second_derivative(f, x0):
    """d2 f / dx2 at x0 by two nested tapes, as the guide writes it."""
    x = tf.Variable(x0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = f(x)
        dy_dx = t1.gradient(y, x)
    return dy_dx, t2.gradient(dy_dx, x)


@pytest.mark.parametrize("x0", [-2.0, 0.5, 1.0, 3.0])
def test_second_derivatives_match_closed_forms(x0):
    cases = [
        (lambda x: x * x * x, 3 * x0 ** 2, 6 * x0),
        (lambda x: x ** 4, 4 * x0 ** 3, 12 * x0 ** 2),
        (lambda x: tf.exp(2.0 * x), 2 * np.exp(2 * x0), 4 * np.exp(2 * x0)),
        (lambda x: tf.sin(x) * x, np.cos(x0) * x0 + np.sin(x0), 2 * np.cos(x0) - x0 * np.sin(x0)),
        (lambda x: tf.tanh(x), 1 - np.tanh(x0) ** 2, -2 * np.tanh(x0) * (1 - np.tanh(x0) ** 2)),
        (lambda x: 1.0 / x, -1 / x0 ** 2, 2 / x0 ** 3),
        (lambda x: tf.sigmoid(x), _s(x0) * (1 - _s(x0)), _s(x0) * (1 - _s(x0)) * (1 - 2 * _s(x0))),
        (lambda x: tf.square(x) + tf.abs(x), 2 * x0 + np.sign(x0), 2.0),
    ]
    for f, first, second in cases:
        d1, d2 = second_derivative(f, x0)
        np.testing.assert_allclose(float(d1), first, rtol=1e-5)
        np.testing.assert_allclose(float(d2), second, rtol=1e-4, atol=1e-6)


def _s(x):
    return 1 / (1 + np.exp(-x))


def test_the_guides_examples():
    x = tf.Variable(1.0)  # d2/dx2 x^3 = 6x
    dy_dx, d2y_dx2 = second_derivative(lambda v: v * v * v, 1.0)
    assert float(dy_dx) == 3.0 and float(d2y_dx2) == 6.0
    x = tf.constant(5.0)  # tf.GradientTape's docstring, on a watched constant
    with tf.GradientTape() as g:
        g.watch(x)
        with tf.GradientTape() as gg:
            gg.watch(x)
            y = x * x
        dy_dx = gg.gradient(y, x)
    assert float(dy_dx) == 10.0 and float(g.gradient(dy_dx, x)) == 2.0


def test_third_derivative_through_three_tapes():
    x = tf.Variable(2.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x ** 4
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    assert (float(d1), float(d2), float(d3)) == (32.0, 48.0, 48.0)  # 4x^3, 12x^2, 24x


def test_persistent_tape_differentiates_its_own_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x * x
        dy_dx = t.gradient(y, x)
    assert float(dy_dx) == 27.0 and float(t.gradient(dy_dx, x)) == 18.0


def test_a_gradient_that_does_not_depend_on_the_source_is_unconnected():
    x = tf.Variable(1.0)
    dy_dx, d2 = second_derivative(lambda v: v * 2.0, 1.0)
    assert float(dy_dx) == 2.0 and d2 is None


def test_single_tape_results_are_unchanged_and_not_recorded_elsewhere():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * x)
    g = tape.gradient(y, x)
    assert g.numpy().tolist() == [2.0, 4.0]


# --- every op: the Tensor-level gradient equals the NumPy one, and its own gradient (a
# Hessian-vector product) matches finite differences of the NumPy gradient -----------------------
RNG = np.random.default_rng(7)
A = RNG.uniform(0.5, 1.5, (3, 4))
B = RNG.uniform(0.5, 1.5, (3, 4))
M = RNG.uniform(-1, 1, (4, 2))
S = RNG.uniform(-1.0, 1.0, (3, 4))
LABELS = np.array([1, 0, 3])
ONE_HOT = np.eye(4)[LABELS]

OPS = {
    "add": (lambda a, b: a + b, [A, B]),
    "sub": (lambda a, b: a - b, [A, B]),
    "mul": (lambda a, b: a * b * a, [A, B]),
    "div": (lambda a, b: a / b, [A, B]),
    "pow": (lambda a, b: a ** b, [A, B]),
    "pow broadcast": (lambda a, b: a ** b, [A, np.array([[1.5, 2.0, 2.5, 3.0]])]),
    "maximum": (lambda a, b: tf.maximum(a * a, b), [A, B]),
    "minimum": (lambda a, b: tf.minimum(a * a, b), [A, B]),
    "squared_difference": (lambda a, b: tf.math.squared_difference(a * a, b), [A, B]),
    "divide_no_nan": (lambda a, b: tf.math.divide_no_nan(a * a, b), [A, B]),
    "exp log": (lambda a: tf.exp(a) + tf.math.log(a) * a, [A]),
    "log1p sqrt rsqrt": (lambda a: tf.math.log1p(a * a) + tf.sqrt(a) * tf.math.rsqrt(a + 1.0) * a, [A]),
    "square reciprocal": (lambda a: tf.square(a) * tf.math.reciprocal(a + 1.0), [A]),
    "sin cos": (lambda a: tf.sin(a) * tf.cos(a * a), [A]),
    "tanh sigmoid": (lambda a: tf.tanh(a * a) * tf.sigmoid(a * 2.0), [S]),
    "softplus erf": (lambda a: tf.nn.softplus(a * a) + tf.math.erf(a) * a, [S]),
    "abs neg": (lambda a: -tf.abs(a) * a, [S]),
    "relu elu selu": (lambda a: tf.nn.relu(a) * a + tf.nn.elu(a) * a + tf.nn.selu(a) * a, [S]),
    "leaky relu6 softsign": (lambda a: (tf.nn.leaky_relu(a) + tf.nn.relu6(a * 4.0) + tf.nn.softsign(a)) * a, [S]),
    "cast": (lambda a: tf.cast(tf.cast(a * a, tf.float32), tf.float64) * a, [A]),
    "add_n": (lambda a, b: tf.add_n([a * a, b * a, b]), [A, B]),
    "matmul": (lambda a, m: tf.matmul(a, m) * tf.matmul(a, m), [A, M]),
    "matmul transposed": (lambda a, b: tf.matmul(a * a, b, transpose_b=True), [A, B]),
    "matmul transposed a": (lambda a, b: tf.matmul(a, b * b, transpose_a=True), [A, B]),
    "reduce_sum mean": (lambda a: tf.reduce_sum(a * a, axis=1) * tf.reduce_mean(a, axis=1), [A]),
    "reduce keepdims": (lambda a: a * tf.reduce_sum(a * a, axis=0, keepdims=True), [A]),
    "reduce_max min": (lambda a: tf.reduce_max(a * a, axis=1) + tf.reduce_min(a * a * a), [A]),
    "reduce_prod": (lambda a: tf.reduce_prod(a, axis=0), [A]),
    "reduce_logsumexp": (lambda a: tf.reduce_logsumexp(a * a, axis=1), [A]),
    "softmax": (lambda a: tf.nn.softmax(a * a) * a, [S]),
    "log_softmax": (lambda a: tf.nn.log_softmax(a * a, axis=0) * a, [S]),
    "sigmoid ce": (lambda a, b: tf.nn.sigmoid_cross_entropy_with_logits(labels=b * 0.5, logits=a * a), [S, B]),
    "softmax ce": (lambda a, b: tf.nn.softmax_cross_entropy_with_logits(labels=b * b, logits=a * a), [S, B]),
    "sparse softmax ce": (lambda a: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant(LABELS), logits=a * a), [S]),
    "l2_loss": (lambda a: tf.nn.l2_loss(a * a), [A]),
    "reshape transpose": (lambda a: tf.transpose(tf.reshape(a * a, [4, 3])) * a, [A]),
    "expand squeeze": (lambda a: tf.squeeze(tf.expand_dims(a * a, 0)) * a, [A]),
    "concat split": (lambda a, b: tf.concat(tf.split(a * b, [1, 3], axis=1)[::-1], axis=1) * a, [A, B]),
    "stack unstack": (lambda a, b: tf.stack([a * a, b * a], axis=1)[:, 1] * tf.unstack(a)[0], [A, B]),
    "gather": (lambda a: tf.gather(a * a, [2, 0, 2], axis=0) * tf.gather(a, [2, 0, 2]), [A]),
    "getitem": (lambda a: (a * a)[1:, ::2] * a[:2, 1:3], [A]),
    "pad": (lambda a: tf.pad(a * a, [[1, 0], [0, 2]]) * tf.pad(a, [[1, 0], [0, 2]]), [A]),
    "tile broadcast_to": (lambda a: tf.tile(a * a, [2, 1]) * tf.broadcast_to(a[:1], [6, 4]), [A]),
    "where clip": (lambda a, b: tf.where(a > b, a * a, b * a) * tf.clip_by_value(a, 0.7, 1.2), [A, B]),
    "identity": (lambda a: tf.identity(a * a) * a, [A]),
    "tensordot": (lambda a, m: tf.tensordot(a * a, m, axes=1) * tf.tensordot(a, m, axes=1), [A, M]),
}


def _first_order(fn, arrays, weights):
    """NumPy-path gradients of sum(fn * weights), one per input."""
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape(persistent=True) as tape:
        for x in xs:
            tape.watch(x)
        y = tf.reduce_sum(fn(*xs) * weights)
    return [tape.gradient(y, x).numpy() for x in xs]


@pytest.mark.parametrize("name", list(OPS))
def test_tensor_gradients_equal_numpy_gradients_and_differentiate_correctly(name):
    fn, arrays = OPS[name]
    arrays = [np.array(a, np.float64) for a in arrays]
    probe = np.asarray(fn(*[tf.constant(a) for a in arrays]))
    weights = tf.constant(RNG.uniform(0.5, 1.5, probe.shape))
    directions = [RNG.uniform(-1, 1, a.shape) for a in arrays]
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape(persistent=True) as outer:
        for x in xs:
            outer.watch(x)
        with tf.GradientTape(persistent=True) as inner:
            for x in xs:
                inner.watch(x)
            y = tf.reduce_sum(fn(*xs) * weights)
        grads = inner.gradient(y, xs)
        along = tf.add_n([tf.reduce_sum(g * d) for g, d in zip(grads, directions)])
    hvp = outer.gradient(along, xs)
    plain = _first_order(fn, arrays, weights)
    # float32 rounding inside "cast" needs a wider step and tolerance
    eps, rtol = (1e-3, 1e-3) if name == "cast" else (1e-6, 1e-5)
    up = _first_order(fn, [a + eps * d for a, d in zip(arrays, directions)], weights)
    down = _first_order(fn, [a - eps * d for a, d in zip(arrays, directions)], weights)
    for i, (g, p) in enumerate(zip(grads, plain)):
        np.testing.assert_allclose(g.numpy(), p, rtol=1e-12, atol=1e-12, err_msg=f"{name} d/dx{i}")
        want = (up[i] - down[i]) / (2 * eps)
        got = np.zeros_like(want) if hvp[i] is None else hvp[i].numpy()
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6, err_msg=f"{name} H v, x{i}")


def test_input_gradient_regularization_as_in_the_guide():
    """The guide's input gradient penalty: d||d out/d x|| / d(kernel, bias), against finite
    differences of the same quantity written in NumPy."""
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(7, 5)))
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu, dtype="float64")
    layer.build((None, 5))
    with tf.GradientTape() as t2:
        with tf.GradientTape(watch_accessed_variables=False) as t1:
            t1.watch(x)
            out = tf.reduce_sum(layer(x) ** 2)
        g1 = t1.gradient(out, x)
        g1_mag = tf.norm(g1)
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    xv = x.numpy()

    def magnitude(kernel, bias):
        z = xv @ kernel + bias
        return np.linalg.norm((2 * np.maximum(z, 0) * (z > 0)) @ kernel.T)
    kernel, bias = (v.numpy() for v in layer.trainable_variables)
    for got, i in zip(dg1_mag, range(2)):
        want = np.zeros_like((kernel, bias)[i])
        for idx in np.ndindex(want.shape):
            hi = [kernel.copy(), bias.copy()]
            lo = [kernel.copy(), bias.copy()]
            hi[i][idx] += 1e-6
            lo[i][idx] -= 1e-6
            want[idx] = (magnitude(*hi) - magnitude(*lo)) / 2e-6
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-7)


def test_hessian_by_jacobian_of_a_gradient_as_in_the_guide():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.normal(size=(7, 5)))
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu, dtype="float64")
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu, dtype="float64")
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = tf.reduce_mean(layer2(layer1(x)) ** 2)
        g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)
    assert h.shape == (5, 8, 5, 8)
    kernel = layer1.kernel.numpy()

    def grad_at(k):
        layer1.kernel.assign(k)
        with tf.GradientTape() as t:
            loss = tf.reduce_mean(layer2(layer1(x)) ** 2)
        return t.gradient(loss, layer1.kernel).numpy()
    want = np.zeros((5, 8, 5, 8))
    for idx in np.ndindex(5, 8):
        step = np.zeros_like(kernel)
        step[idx] = 1e-6
        want[(slice(None), slice(None)) + idx] = (grad_at(kernel + step) - grad_at(kernel - step)) / 2e-6
    np.testing.assert_allclose(h.numpy(), want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(h.numpy(), np.transpose(h.numpy(), (2, 3, 0, 1)), atol=1e-12)


def test_jacobian_and_batch_jacobian_under_an_outer_tape_are_differentiable():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(x)
            y = x ** 3
        j = inner.batch_jacobian(y, x)      # diag(3 x^2) per example
        total = tf.reduce_sum(j)
    np.testing.assert_allclose(j.numpy(), [np.diag(3 * r ** 2) for r in x.numpy()])
    np.testing.assert_allclose(outer.gradient(total, x).numpy(), 6 * x.numpy())


def test_an_op_without_a_second_order_gradient_names_itself():
    images = tf.constant(np.random.default_rng(0).normal(size=(1, 4, 4, 1)))
    kernel = tf.Variable(np.random.default_rng(1).normal(size=(2, 2, 1, 1)))
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.reduce_sum(tf.nn.conv2d(images, kernel, 1, "VALID") ** 2)
        g = t1.gradient(y, kernel)   # the first derivative still works
        other = tf.reduce_sum(kernel * 2.0)
    with tf.GradientTape() as plain:
        y = tf.reduce_sum(tf.nn.conv2d(images, kernel, 1, "VALID") ** 2)
    np.testing.assert_allclose(g.numpy(), plain.gradient(y, kernel).numpy())
    assert float(tf.reduce_sum(t2.gradient(other, kernel))) == 8.0  # unrelated gradients: fine
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.reduce_sum(tf.nn.conv2d(images, kernel, 1, "VALID") ** 2)
        g = t1.gradient(y, kernel)
    with pytest.raises(NotImplementedError, match="Conv2D"):
        t2.gradient(g, kernel)


def test_gradient_penalty_inside_strategy_run_matches_one_device():
    """Each replica's tapes are its own (thread-local): nested tapes inside strategy.run give the
    same summed update as the whole batch on one device."""
    x = np.random.default_rng(3).normal(size=(4, 3)).astype(np.float32)
    w0 = np.random.default_rng(4).normal(size=(3, 2)).astype(np.float32)

    def penalty_grad(w, xb):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                inner.watch(xb)
                y = tf.reduce_sum(tf.tanh(tf.matmul(xb, w)), axis=1)
            g = inner.gradient(y, xb)
            loss = tf.nn.compute_average_loss(tf.square(tf.norm(g, axis=1) - 1.0), global_batch_size=4)
        return outer.gradient(loss, w)
    single = penalty_grad(tf.Variable(w0), tf.constant(x)).numpy()
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with strategy.scope():
        w = tf.Variable(w0)
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(x).batch(4))
    per_replica = strategy.run(penalty_grad, args=(w, next(iter(dist))))
    summed = strategy.reduce("SUM", per_replica, axis=None).numpy()
    np.testing.assert_allclose(summed, single, rtol=1e-5, atol=1e-6)
    assert np.abs(single).sum() > 0
