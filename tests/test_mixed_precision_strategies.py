"""Loss scaling under MirroredStrategy and MultiWorkerMirroredStrategy, and what the all-reduce
carries under mixed_float16: float32 gradients (the float32 variables' gradients: the autocast's
cast sends them back in float32), so the same bytes as float32 training.

Where one replica's gradients overflow and the other's do not, the two Keras versions part
(read in their sources, loss_scale_rules.py): tf-keras all-reduces first, so the inf reaches
every replica and all skip; Keras 3 asks replica 0's own gradients, before the all-reduce.
"""
import numpy as np
import pytest

import sim.tf as tf
from keras_selection import keras  # noqa: F401  (the fixture)
from sim.keras.mixed_precision.policy import global_policy_kept

X = np.array([[1.0, 2.0], [0.5, -1.0], [30000.0, 30000.0], [1.0, 1.0]], np.float32)
Y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)


@pytest.fixture
def mixed():
    with global_policy_kept():
        tf.keras.mixed_precision.set_global_policy("mixed_float16")
        yield


def _model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(2),
                                 tf.keras.layers.Dense(1, dtype="float32")])
    model.set_weights([np.array([[0.5, -0.5], [0.25, 0.5]], np.float32), np.zeros(2, np.float32),
                       np.array([[1.0], [1.0]], np.float32), np.zeros(1, np.float32)])
    return model


def _step(strategy, model, opt, x, y):
    def replica(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(tf.reduce_sum(tf.square(model(xb) - yb), axis=1),
                                              global_batch_size=len(x))
            scaled = (opt.get_scaled_loss(loss) if hasattr(opt, "get_scaled_loss")
                      else opt.scale_loss(loss) if hasattr(opt, "scale_loss") else loss)
        grads = tape.gradient(scaled, model.trainable_variables)
        assert all(g.dtype == tf.float32 for g in grads)          # float32 on every replica
        if hasattr(opt, "get_unscaled_gradients"):
            grads = opt.get_unscaled_gradients(grads)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(len(x))
    strategy.run(replica, args=next(iter(strategy.experimental_distribute_dataset(ds))))


def _scale(opt):
    return float(np.asarray(opt.loss_scale if hasattr(opt, "get_scaled_loss") else opt.dynamic_scale))


@pytest.mark.parametrize("kind", ["mirrored", "mwms"])
def test_overflow_on_one_replica(keras, mixed, kind):
    strategy = (tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"]) if kind == "mirrored"
                else tf.distribute.MultiWorkerMirroredStrategy())
    n = strategy.num_replicas_in_sync
    assert n >= 2
    with strategy.scope():
        model = _model()
        opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.01))
    before = model.get_weights()
    x = np.concatenate([X[:2]] * (n - 1) + [X[2:]])      # the last replica's batch overflows
    y = np.concatenate([Y[:2]] * (n - 1) + [Y[2:]])
    _step(strategy, model, opt, x, y)
    after = model.get_weights()
    assert int(opt.iterations.numpy()) == 1
    if keras == "tf-keras":          # every replica saw the summed inf: skipped, scale halved
        assert _scale(opt) == 2.0 ** 14
        assert all(np.array_equal(a, b) for a, b in zip(before, after))
    else:                            # replica 0's own gradients were finite: applied, the
        assert _scale(opt) == 2.0 ** 15          # all-reduced inf reaches the weights
        assert not all(np.isfinite(w).all() for w in after)


def test_all_reduce_carries_float32_under_mixed_float16(keras):
    def step_bytes(policy):
        with global_policy_kept():
            tf.keras.mixed_precision.set_global_policy(policy)
            strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
            with strategy.scope():
                model = _model()
                opt = tf.keras.optimizers.SGD(0.01)
            if policy == "mixed_float16":
                opt = tf.keras.mixed_precision.LossScaleOptimizer(opt)
            _step(strategy, model, opt, X[[0, 1, 3, 0]], Y[[0, 1, 3, 0]])
            trace = strategy.extended.last_step_trace
            return sum(e.nbytes for e in trace if e.kind == "transfer" and e.nbytes)
    params = 2 * 2 + 2 + 2 + 1
    float32_bytes = step_bytes("float32")
    assert float32_bytes >= 4 * params                 # at least the gradients, 4 bytes each
    assert step_bytes("mixed_float16") == float32_bytes
