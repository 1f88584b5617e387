"""tf.nn.conv2d and tf.nn.max_pool2d: values against naive loops written here from TensorFlow's
definition, gradients against finite differences, FLOPs against the closed form, errors."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import sim.tf as tf
from engine_gradcheck import check_gradients
from sim import engine, i18n

R = np.random.default_rng(7)


def same_pads(size, k, s):
    """TensorFlow's SAME rule: ceil(size/s) outputs, the odd padded row at the end."""
    out = math.ceil(size / s)
    total = max((out - 1) * s + k - size, 0)
    return out, total // 2


def naive_conv2d(x, w, s, padding):
    n, h, wd, cin = x.shape
    kh, kw, _, cout = w.shape
    if padding == "VALID":
        ho, wo, pt, pl = (h - kh) // s + 1, (wd - kw) // s + 1, 0, 0
    else:
        (ho, pt), (wo, pl) = same_pads(h, kh, s), same_pads(wd, kw, s)
    y = np.zeros((n, ho, wo, cout))
    for b, i, j, o in itertools.product(range(n), range(ho), range(wo), range(cout)):
        acc = 0.0
        for di, dj, c in itertools.product(range(kh), range(kw), range(cin)):
            r, q = i * s + di - pt, j * s + dj - pl
            if 0 <= r < h and 0 <= q < wd:
                acc += x[b, r, q, c] * w[di, dj, c, o]
        y[b, i, j, o] = acc
    return y


def naive_max_pool(x, k, s, padding):
    n, h, wd, c = x.shape
    if padding == "VALID":
        ho, wo, pt, pl = (h - k) // s + 1, (wd - k) // s + 1, 0, 0
    else:
        (ho, pt), (wo, pl) = same_pads(h, k, s), same_pads(wd, k, s)
    y = np.zeros((n, ho, wo, c))
    for b, i, j, ch in itertools.product(range(n), range(ho), range(wo), range(c)):
        y[b, i, j, ch] = max(x[b, r, q, ch]
                             for r in range(i * s - pt, i * s - pt + k) if 0 <= r < h
                             for q in range(j * s - pl, j * s - pl + k) if 0 <= q < wd)
    return y


CASES = [(k, s, p) for k in (1, 2, 3) for s in (1, 2, 3) for p in ("VALID", "SAME")]


@pytest.mark.parametrize("k,s,padding", CASES)
def test_conv2d_equals_the_naive_loop(k, s, padding):
    x = R.normal(size=(2, 7, 6, 3))
    w = R.normal(size=(k, k, 3, 4))
    got = tf.nn.conv2d(tf.constant(x), tf.constant(w), strides=s, padding=padding).numpy()
    np.testing.assert_allclose(got, naive_conv2d(x, w, s, padding), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("k,s,padding", CASES)
def test_max_pool2d_equals_the_naive_loop(k, s, padding):
    x = R.normal(size=(2, 7, 6, 3))
    got = tf.nn.max_pool2d(tf.constant(x), ksize=k, strides=s, padding=padding).numpy()
    np.testing.assert_allclose(got, naive_max_pool(x, k, s, padding), rtol=0, atol=0)


def test_rectangular_kernel_and_strides_and_explicit_padding():
    x = R.normal(size=(1, 6, 7, 2))
    w = R.normal(size=(3, 2, 2, 3))
    got = tf.nn.conv2d(x, w, strides=[1, 2, 1, 1], padding=[[0, 0], [1, 1], [0, 2], [0, 0]])
    xp = np.pad(x, ((0, 0), (1, 1), (0, 2), (0, 0)))
    want = naive_conv2d(xp, w, 1, "VALID")[:, ::2]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_nchw_is_nhwc_transposed():
    x = R.normal(size=(2, 5, 5, 3))
    w = R.normal(size=(3, 3, 3, 2))
    nhwc = tf.nn.conv2d(x, w, 1, "SAME").numpy()
    nchw = tf.nn.conv2d(np.moveaxis(x, -1, 1), w, 1, "SAME", data_format="NCHW").numpy()
    np.testing.assert_allclose(np.moveaxis(nchw, 1, -1), nhwc, rtol=1e-12)
    pool = tf.nn.max_pool2d(np.moveaxis(x, -1, 1), 2, 2, "VALID", data_format="NCHW").numpy()
    np.testing.assert_array_equal(np.moveaxis(pool, 1, -1), naive_max_pool(x, 2, 2, "VALID"))


@pytest.mark.parametrize("k,s,padding", [(3, 1, "VALID"), (3, 2, "SAME"), (2, 2, "SAME"),
                                         (1, 1, "VALID"), (3, 3, "VALID")])
def test_conv2d_gradients_by_finite_differences(k, s, padding):
    x = R.normal(size=(2, 5, 6, 2))
    w = R.normal(size=(k, k, 2, 3))
    check_gradients(lambda a, b: tf.nn.conv2d(a, b, strides=s, padding=padding), x, w)


def test_conv2d_gradients_nchw():
    x = R.normal(size=(1, 2, 5, 4))
    w = R.normal(size=(2, 3, 2, 2))
    check_gradients(lambda a, b: tf.nn.conv2d(a, b, 1, "SAME", data_format="NCHW"), x, w)


@pytest.mark.parametrize("k,s,padding", [(2, 2, "VALID"), (3, 1, "SAME"), (3, 2, "SAME"),
                                         (2, 1, "VALID"), (2, 3, "SAME")])
def test_max_pool2d_gradients_by_finite_differences(k, s, padding):
    # distinct values a step of eps cannot reorder, so the max is differentiable
    x = R.permutation(2 * 5 * 6 * 2).reshape(2, 5, 6, 2) * 0.1
    check_gradients(lambda a: tf.nn.max_pool2d(a, k, s, padding), x)


def test_max_pool2d_tie_sends_the_gradient_to_the_first_maximum_only():
    x = tf.constant(np.ones((1, 2, 2, 1)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.max_pool2d(x, 2, 2, "VALID"))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy()[0, :, :, 0], [[1, 0], [0, 0]])


def test_conv2d_flops_forward_and_backward():
    """2*K*K*Cin*Cout*Hout*Wout per sample forward; backward that again per input needing a
    gradient (filters only when the input is data; both inside a network)."""
    n, h, w_, cin, cout, k = 4, 10, 8, 3, 5, 3
    x = tf.constant(R.normal(size=(n, h, w_, cin)).astype(np.float32))
    filters = tf.Variable(R.normal(size=(k, k, cin, cout)).astype(np.float32))
    forward = 2 * k * k * cin * cout * (h - 2) * (w_ - 2) * n
    with engine.counting() as c:
        y = tf.nn.conv2d(x, filters, 1, "VALID")
    assert c.flops == forward
    assert c.bytes == x.numpy().nbytes + filters.numpy().nbytes + y.numpy().nbytes
    with tf.GradientTape() as tape:
        y = tf.nn.conv2d(x, filters, 1, "VALID")
    with engine.counting() as c:
        tape.gradient(y, filters)
    assert c.flops == forward
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv2d(x, filters, 1, "VALID")
    with engine.counting() as c:
        tape.gradient(y, [x, filters])
    assert c.flops == 2 * forward


def test_max_pool2d_flops():
    x = tf.constant(R.normal(size=(2, 6, 6, 3)))
    with engine.counting() as c:
        tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert c.flops == 2 * 2 * (2 * 3 * 3 * 3)


def test_conv2d_errors_name_the_mistake():
    x, w = np.zeros((1, 5, 5, 3), np.float32), np.zeros((3, 3, 2, 4), np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="input depth must be evenly divisible by filter depth: 3 vs 2"):
        tf.nn.conv2d(x, w, 1, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'padding' of \"same\" is not in the list"):
        tf.nn.conv2d(x, np.zeros((3, 3, 3, 4), np.float32), 1, "same")
    with pytest.raises(ValueError, match="must be a 4-D tensor"):
        tf.nn.conv2d(np.zeros((5, 5, 3), np.float32), w, 1, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Computed output size would be negative"):
        tf.nn.conv2d(np.zeros((1, 2, 2, 2), np.float32), w, 1, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch and depth dimensions"):
        tf.nn.conv2d(np.zeros((1, 5, 5, 2), np.float32), w, [2, 1, 1, 1], "VALID")
    with pytest.raises(NotImplementedError, match="dilations"):
        tf.nn.conv2d(np.zeros((1, 5, 5, 2), np.float32), w, 1, "VALID", dilations=2)


def test_conv2d_padding_error_in_the_course_language():
    x, w = np.zeros((1, 5, 5, 3), np.float32), np.zeros((3, 3, 3, 4), np.float32)
    old = i18n.get_language()
    try:
        i18n.set_language("zh")
        with pytest.raises(tf.errors.InvalidArgumentError, match='padding="VALID"') as e:
            tf.nn.conv2d(x, w, 1, "valid")
        assert "大写" in str(e.value)
    finally:
        i18n.set_language(old)


@pytest.mark.parametrize("k,s", [(3, 1), (2, 2), (3, 2)])
def test_patches_equal_numpys_sliding_window_view(k, s):
    from numpy.lib.stride_tricks import sliding_window_view

    from sim.engine.ops.conv import _patches
    xp = R.normal(size=(2, 9, 8, 3))
    ho, wo = (9 - k) // s + 1, (8 - k) // s + 1
    view = sliding_window_view(xp, (k, k), axis=(1, 2))[:, ::s, ::s][:, :ho, :wo]
    np.testing.assert_array_equal(_patches(xp, k, k, s, s, ho, wo), view.transpose(0, 1, 2, 4, 5, 3))
