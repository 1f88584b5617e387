"""Tensor basics, dtypes, conversion rules, printing and learner-facing errors."""
import numpy as np
import pytest

import sim.tf as tf


def test_default_dtypes_follow_tensorflow():
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant([1.0, 2.0]).dtype is tf.float32
    assert tf.constant(np.array([1.0])).dtype == tf.float64
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant("a").dtype == tf.string
    assert tf.float32.name == "float32" and tf.float32.is_floating and tf.float32.size == 4
    assert tf.int64.as_numpy_dtype is np.int64 and not tf.int64.is_floating


def test_shape_and_repr():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert x.shape == [2, 2] and x.shape == (2, 2) and x.shape.as_list() == [2, 2]
    assert x.shape.rank == 2 and x.shape[0] == 2 and str(x.shape) == "(2, 2)"
    assert repr(tf.constant(3.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=3.0>"
    assert str(tf.constant([1.0, 2.0])) == "tf.Tensor([1. 2.], shape=(2,), dtype=float32)"
    assert float(tf.constant(2.5)) == 2.5 and bool(tf.constant(1.0))
    assert np.asarray(x).dtype == np.float32


def test_operators_and_python_scalars_take_tensor_dtype():
    x = tf.constant([1.0, 2.0])
    assert (x * 2).dtype == tf.float32
    np.testing.assert_allclose((2 - x).numpy(), [1, 0])
    np.testing.assert_allclose((x ** 2).numpy(), [1, 4])
    np.testing.assert_array_equal((x > 1).numpy(), [False, True])
    assert (tf.constant(7) // 2).numpy() == 3 and (tf.constant(7) % 2).numpy() == 1
    assert (tf.constant(1) / tf.constant(2)).dtype == tf.float64


def test_mixed_dtypes_raise_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute AddV2"):
        tf.constant(1.0) + tf.constant(1.0, dtype=tf.float64)


def test_matmul_shape_error_names_both_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))


def test_broadcast_and_reshape_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs. \[4\]"):
        tf.ones([2, 3]) + tf.ones([4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 6 values"):
        tf.reshape(tf.ones([2, 3]), [4])


def test_object_and_string_errors_say_so():
    with pytest.raises(ValueError, match="Unsupported object type"):
        tf.constant(np.array([object()], dtype=object))
    with pytest.raises(tf.errors.InvalidArgumentError, match="string"):
        tf.constant(["a"]) - tf.constant(["b"])
    # strings add (TensorFlow's Add kernel, which tf.add uses for strings, joins them)
    assert (tf.constant(["a"]) + tf.constant(["b"])).numpy().tolist() == [b"ab"]


def test_messages_in_course_language():
    from sim import i18n
    i18n.set_language("zh")
    try:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
        assert str(e.value).startswith("Matrix size-incompatible") and "内侧维度" in str(e.value)
    finally:
        i18n.set_language("en")


def test_catalogue_has_same_keys_in_every_language():
    import json
    from pathlib import Path
    import sim.i18n
    data = json.loads((Path(sim.i18n.__file__).parent / "catalogs" / "engine.json").read_text("utf-8"))
    assert set(data["en"]) == set(data["zh"]) == set(data["pt"])


def test_creation_ops():
    assert tf.zeros([2, 3]).shape == [2, 3] and tf.ones_like(tf.zeros([2])).numpy().tolist() == [1, 1]
    assert tf.range(5).dtype == tf.int32 and tf.range(0.0, 1.0, 0.5).numpy().tolist() == [0.0, 0.5]
    assert tf.fill([2], 7).numpy().tolist() == [7, 7]
    assert tf.shape(tf.zeros([2, 3])).numpy().tolist() == [2, 3] and tf.size(tf.zeros([2, 3])).numpy() == 6
    assert tf.argmax(tf.constant([[1, 5], [7, 0]]), axis=1).numpy().tolist() == [1, 0]
    assert tf.one_hot([0, 2], 3).numpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    assert tf.linspace(0.0, 1.0, 3).numpy().tolist() == [0.0, 0.5, 1.0]


def test_counting_flops_and_bytes():
    from sim.engine import counting
    a, b = tf.ones([4, 3]), tf.ones([3, 5])
    with counting() as c:
        tf.matmul(a, b)
    assert c.flops == 2 * 4 * 3 * 5 and c.bytes == 4 * (12 + 15 + 20)


def test_bfloat16_rounds():
    x = tf.cast(tf.constant(1.0 + 2 ** -10), tf.bfloat16)
    assert x.dtype == tf.bfloat16 and float(x) == 1.0
