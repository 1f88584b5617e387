"""Every differentiable op's gradient against central finite differences (float64)."""
import numpy as np
import pytest

import sim.tf as tf
from engine_gradcheck import check_gradients

R = np.random.default_rng(42)
A23, B23, A34 = R.normal(size=(2, 3)), R.normal(size=(2, 3)), R.normal(size=(3, 4))
POS23 = R.uniform(0.5, 2.0, size=(2, 3))
ROW3 = R.normal(size=(3,))

UNARY = {
    "neg": lambda x: -x, "exp": tf.exp, "square": tf.square, "tanh": tf.tanh,
    "sigmoid": tf.sigmoid, "relu": tf.nn.relu, "softplus": tf.nn.softplus, "elu": tf.nn.elu,
    "gelu": tf.nn.gelu, "gelu_tanh": lambda x: tf.nn.gelu(x, approximate=True),
    "selu": tf.nn.selu, "leaky_relu": tf.nn.leaky_relu, "abs": tf.abs,
    "softmax": tf.nn.softmax, "log_softmax": tf.nn.log_softmax,
    "softmax_axis0": lambda x: tf.nn.softmax(x, axis=0),
    "l2_loss": tf.nn.l2_loss, "identity": tf.identity, "cast64": lambda x: tf.cast(x, tf.float64),
    "reduce_sum": tf.reduce_sum, "reduce_sum_ax0_keep": lambda x: tf.reduce_sum(x, 0, keepdims=True),
    "reduce_mean_ax1": lambda x: tf.reduce_mean(x, axis=1), "reduce_max": lambda x: tf.reduce_max(x, 1),
    "reduce_min": lambda x: tf.reduce_min(x, axis=[0, 1]), "reduce_prod": lambda x: tf.reduce_prod(x, 0),
    "logsumexp": lambda x: tf.reduce_logsumexp(x, 1),
    "reshape": lambda x: tf.reshape(x, [3, 2]), "transpose": tf.transpose,
    "expand_squeeze": lambda x: tf.squeeze(tf.expand_dims(x, 0)),
    "concat": lambda x: tf.concat([x, x * 2], axis=1), "stack": lambda x: tf.stack([x, x], axis=1),
    "split": lambda x: tf.split(x, [1, 2], axis=1)[1], "unstack": lambda x: tf.unstack(x)[1],
    "gather": lambda x: tf.gather(x, [2, 0, 2], axis=1), "embedding": lambda x: tf.nn.embedding_lookup(x, [1, 1, 0]),
    "clip": lambda x: tf.clip_by_value(x, -0.5, 0.5), "broadcast_to": lambda x: tf.broadcast_to(x[:1], [4, 3]),
    "tile": lambda x: tf.tile(x, [2, 3]), "getitem": lambda x: x[1, ::2], "getitem_fancy": lambda x: x[:, 1:],
    "where": lambda x: tf.where(x > 0, x, x * x), "add_n": lambda x: tf.add_n([x, x * 3, tf.exp(x)]),
    "pow_const": lambda x: x ** 3.0, "pad": lambda x: tf.pad(x, [[1, 0], [0, 2]]),
    "tensordot": lambda x: tf.tensordot(x, tf.constant(A34, tf.float64), axes=1),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradients(name):
    check_gradients(UNARY[name], A23)


@pytest.mark.parametrize("name,fn", [("log", tf.math.log), ("sqrt", tf.sqrt), ("rsqrt", tf.math.rsqrt),
                                     ("reciprocal", tf.math.reciprocal)])
def test_positive_domain_gradients(name, fn):
    check_gradients(fn, POS23)


BINARY = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1), "maximum": tf.maximum, "minimum": tf.minimum,
    "squared_difference": tf.math.squared_difference,
    "divide_no_nan": lambda a, b: tf.math.divide_no_nan(a, b * b + 1),
    "sigmoid_ce": lambda a, b: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.sigmoid(b), logits=a),
    "softmax_ce": lambda a, b: tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(b), logits=a),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_gradients(name):
    check_gradients(BINARY[name], A23, B23)


def test_broadcasting_gradients_reduce_to_input_shape():
    check_gradients(lambda a, b: a * b + b, A23, ROW3)
    check_gradients(lambda a, b: a / (b * b + 1), A23, R.normal(size=(2, 1)))


def test_pow_both_inputs():
    check_gradients(lambda a, b: a ** b, POS23, B23)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_transposes(ta, tb):
    a = A23.T if ta else A23
    b = A34.T if tb else A34
    check_gradients(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b)


def test_batched_matmul_and_operator():
    check_gradients(lambda x, y: x @ y, R.normal(size=(2, 2, 3)), A34)


def test_sparse_softmax_cross_entropy():
    check_gradients(lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant([2, 0]), logits=x), A23)


def test_dropout_gradient_uses_the_forward_mask():
    x = tf.constant(POS23)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, 0.5, seed=7)
        total = tf.reduce_sum(y)
    g = tape.gradient(total, x).numpy()
    np.testing.assert_allclose(g, (y.numpy() != 0) * 2.0)


def test_gradient_counts_backward_flops():
    from sim.engine import counting
    a, w = tf.constant(np.ones((8, 4))), tf.Variable(np.ones((4, 5)))
    with counting() as fwd:
        with tf.GradientTape() as tape:
            y = tf.matmul(a, w)
    with counting() as bwd:
        tape.gradient(y, w)
    assert fwd.flops == 2 * 8 * 4 * 5
    assert bwd.flops == fwd.flops  # only dW: the batch needs no gradient


def test_divide_no_nan_is_zero_where_the_divisor_is_zero():
    got = tf.math.divide_no_nan(tf.constant([1.0, 2.0, 0.0]), tf.constant([2.0, 0.0, 0.0]))
    assert got.numpy().tolist() == [0.5, 0.0, 0.0]
