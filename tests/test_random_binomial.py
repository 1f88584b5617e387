"""Generator.binomial is TensorFlow's StatefulRandomBinomial kernel (sim/engine/binomial.py).
Figures: TensorFlow 2.21, ``tf.random.Generator.from_seed(1234)`` drawing in this order (the full
comparison runs in tests/tf_crosscheck/test_random_generator.py)."""
import numpy as np
import pytest

import sim.tf as tf

MEASURED = [   # (shape, counts, probs) -> (draws, state after)
    (([2, 3], [10., 20., 30.], [0.1, 0.5, 0.9]), ([[2, 12, 25], [0, 11, 29]], 193234)),  # inversion, BTRS, 1 - p
    (([10], 5., 0.3), ([0, 1, 2, 2, 2, 2, 3, 0, 2, 2], 359634)),
    (([4], 1000., 0.25), ([238, 254, 254, 239], 449234)),
    (([3, 2], [7., 100.], [0.95, 0.6]), ([[7, 53], [7, 62], [7, 59]], 602834)),
    (([2], 0., 0.5), ([0, 0], 666834)),
    (([2], 4., 1.0), ([4, 4], 730834)),
]


def test_draws_and_states_are_tensorflows():
    g = tf.random.Generator.from_seed(1234)
    for (shape, counts, probs), (draws, state) in MEASURED:
        v = g.binomial(shape, counts=counts, probs=probs)
        assert v.dtype == tf.int32
        assert np.asarray(v).tolist() == draws
        assert np.asarray(g.state).tolist() == [state, 0, 0]


def test_integer_counts_have_no_kernel():
    g = tf.random.Generator.from_seed(1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"No OpKernel was registered to support Op 'StatefulRandomBinomial'"):
        g.binomial([2], counts=[10, 20], probs=[0.5, 0.5])


def test_the_sample_mean_is_count_times_p():
    """A closed form: mean n*p, variance n*p*(1-p), for both algorithms (n*p < 10 and >= 10)."""
    g = tf.random.Generator.from_seed(7)
    for n, p in ((8., 0.3), (200., 0.4), (50., 0.9)):
        v = np.asarray(g.binomial([4000], counts=n, probs=p), np.float64)
        assert abs(v.mean() - n * p) < 4 * np.sqrt(n * p * (1 - p) / 4000)
        assert abs(v.var() / (n * p * (1 - p)) - 1) < 0.1


def test_the_stateless_op_is_tensorflows():
    """TensorFlow 2.21: counts take probs' dtype (50 -> 50.0), probs float32 by default."""
    v = tf.random.stateless_binomial([3, 2], seed=[7, 8], counts=[7., 100.], probs=[0.95, 0.6])
    assert np.asarray(v).tolist() == [[7, 54], [7, 61], [6, 63]]
    v = tf.random.stateless_binomial([5], seed=[3, 4], counts=50, probs=0.5)
    assert np.asarray(v).tolist() == [29, 27, 19, 26, 20]
