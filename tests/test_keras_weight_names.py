"""Layer weight names as the selected Keras writes them (sim/keras/weight_names.py), under both
selections; the values are those TensorFlow 2.21 printed (cross-check keras_version_weight_names)."""
import numpy as np
import pytest

import sim.tf as tf
from keras_selection import keras  # noqa: F401  (the fixture)

L = tf.keras.layers




def _names(variables):
    return [(v.name, getattr(v, "path", None)) for v in variables]


class _Sub(tf.keras.Model):
    def __init__(self):
        super().__init__(name="sub")
        self.first = L.Dense(2)

    def call(self, x):
        return self.first(x)


def test_layer_weight_names_and_paths(keras):
    seq = tf.keras.Sequential([tf.keras.Input((2,)), L.Dense(2)])
    conv = L.Conv2D(2, 3)
    conv.build((None, 5, 5, 1))
    inner = tf.keras.Sequential([L.Dense(2, name="inner_dense")], name="inner")
    nested = tf.keras.Sequential([tf.keras.Input((1,)), inner], name="outer")
    sub = _Sub()
    sub(tf.ones((1, 1)))
    inp = tf.keras.Input((1,))
    fun = tf.keras.Model(inp, L.Dense(1, name="head")(inp))
    got = [_names(m.weights) for m in (seq, conv, nested, sub, fun)]
    if keras == "keras3":
        assert got == [
            [("kernel", "sequential/dense/kernel"), ("bias", "sequential/dense/bias")],
            [("kernel", "conv2d/kernel"), ("bias", "conv2d/bias")],
            [("kernel", "outer/inner/inner_dense/kernel"), ("bias", "outer/inner/inner_dense/bias")],
            [("kernel", "sub/dense_1/kernel"), ("bias", "sub/dense_1/bias")],
            [("kernel", "head/kernel"), ("bias", "head/bias")]]
    else:   # tf-keras: the called layers' name scopes, not Sequential's nor a functional model's
        assert got == [
            [("dense/kernel:0", None), ("dense/bias:0", None)],
            [("kernel:0", None), ("bias:0", None)],          # built directly: no scope at all
            [("inner_dense/kernel:0", None), ("inner_dense/bias:0", None)],
            [("sub/dense_1/kernel:0", None), ("sub/dense_1/bias:0", None)],
            [("head/kernel:0", None), ("head/bias:0", None)]]


def test_weight_repr_plain_and_mirrored(keras):
    seq = tf.keras.Sequential([tf.keras.Input((2,)), L.Dense(2, kernel_initializer="ones")])
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with strategy.scope():
        mirrored = tf.keras.Sequential([tf.keras.Input((1,)), L.Dense(2, kernel_initializer="ones")])
    kernel = mirrored.layers[0].kernel
    if keras == "keras3":
        assert repr(seq.layers[0].kernel) == ("<Variable path=sequential/dense/kernel, shape=(2, 2), "
                                              "dtype=float32, value=[[1. 1.]\n [1. 1.]]>")
        assert str(seq.layers[0].bias) == ("<Variable path=sequential/dense/bias, shape=(2,), "
                                           "dtype=float32, value=[0. 0.]>")
        assert repr(kernel) == str(kernel) == ("<Variable path=sequential_1/dense_1/kernel, "
                                               "shape=(1, 2), dtype=float32, value=[[1. 1.]]>")
        assert [v.name for v in mirrored.trainable_variables] == ["kernel", "bias"]
        assert type(kernel).__name__ == "Variable"        # Keras 3's wrapper over the mirrored one
        assert isinstance(kernel, tf.distribute.DistributedValues)   # (sim keeps it distributed)
    else:
        assert type(kernel).__name__ == "MirroredVariable"
        assert repr(seq.layers[0].kernel).startswith("<tf.Variable 'dense/kernel:0' shape=(2, 2)")
        assert repr(kernel).startswith("MirroredVariable:{\n  0: <tf.Variable 'dense_1/kernel:0'")
        assert "1: <tf.Variable 'dense_1/kernel/replica_1:0'" in repr(kernel)
    np.testing.assert_array_equal(kernel.numpy(), [[1.0, 1.0]])   # values untouched by names


def test_iterations_and_metric_variable_repr(keras):
    opt = tf.keras.optimizers.SGD(0.1)
    v = tf.Variable([1.0])
    opt.apply_gradients([(tf.constant([1.0]), v)])
    total = tf.keras.metrics.Mean(name="my_mean").variables[0]
    if keras == "keras3":
        assert repr(opt.iterations).startswith("<Variable path=sgd")
        assert repr(opt.iterations).endswith("/iteration, shape=(), dtype=int64, value=1>")
        assert repr(total) == "<Variable path=my_mean/total, shape=(), dtype=float32, value=0.0>"
    else:
        assert repr(opt.iterations) == "<tf.Variable 'iteration:0' shape=() dtype=int64, numpy=1>"
        assert repr(total) == "<tf.Variable 'total:0' shape=() dtype=float32, numpy=0.0>"


def test_model_made_outside_the_scope(keras):
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    model = tf.keras.Sequential([L.Dense(1, input_shape=(1,))])
    x = np.ones((4, 1), np.float32)
    if keras == "tf-keras":
        with strategy.scope(), pytest.raises(ValueError, match=r"^Variable \(<tf.Variable 'dense/kernel:0'"):
            model.compile(loss="mse", optimizer="sgd")
        return
    with strategy.scope():
        model.compile(loss="mse", optimizer="sgd")       # Keras 3 accepts it here
    with pytest.raises(AssertionError, match="created outside `strategy.scope\\(\\)`"):
        model.fit(x, x, verbose=0)
    with pytest.raises(AssertionError):
        model.train_on_batch(x, x)
    inside = None
    with strategy.scope():
        inside = tf.keras.Sequential([L.Dense(1, input_shape=(1,))])
        inside.compile(loss="mse", optimizer="sgd")
    inside.fit(x, x, verbose=0)                          # made in the scope: trains


def test_optimizer_slot_variable_names(keras):
    model = tf.keras.Sequential([tf.keras.Input((2,)), L.Dense(1)], name="net")
    adam = tf.keras.optimizers.Adam(0.01)
    adam.build(model.trainable_variables)
    rms = tf.keras.optimizers.RMSprop(0.01, momentum=0.5)
    rms.build(model.trainable_variables)
    sgd = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    sgd.apply_gradients([(tf.constant([1.0]), tf.Variable([1.0], name="w"))])
    got = [[v.name for v in opt.variables][1:] for opt in (adam, rms, sgd)]
    if keras == "keras3":   # 'iteration', 'learning_rate', then the slots
        assert {names[0] for names in got} == {"learning_rate"}
        got = [names[1:] for names in got]
        assert got == [["net_dense_kernel_momentum", "net_dense_kernel_velocity",
                        "net_dense_bias_momentum", "net_dense_bias_velocity"],
                       ["net_dense_kernel_velocity", "net_dense_bias_velocity",     # kind by kind
                        "net_dense_kernel_momentum", "net_dense_bias_momentum"],
                       ["w_0_momentum"]]
        assert adam.variables[2].path.endswith("/net_dense_kernel_momentum")
    else:
        assert got == [["Adam/m/dense/kernel:0", "Adam/v/dense/kernel:0",
                        "Adam/m/dense/bias:0", "Adam/v/dense/bias:0"],
                       ["RMSprop/velocity/dense/kernel:0", "RMSprop/velocity/dense/bias:0",
                        "RMSprop/momentum/dense/kernel:0", "RMSprop/momentum/dense/bias:0"],
                       ["SGD/m/w:0"]]
        plain = tf.keras.optimizers.SGD(0.1)       # tf-keras makes the slot without momentum too
        plain.build(model.trainable_variables)
        assert [v.name for v in plain.variables] == ["iteration:0", "SGD/m/dense/kernel:0",
                                                     "SGD/m/dense/bias:0"]
        legacy = tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9)   # optimizer_v2's names
        legacy.build(model.trainable_variables)
        assert [v.name for v in legacy.variables] == ["SGD/iter:0", "SGD/dense/kernel/momentum:0",
                                                      "SGD/dense/bias/momentum:0"]
        legacy_adam = tf.keras.optimizers.legacy.Adam(0.1)            # kind by kind
        legacy_adam.build(model.trainable_variables)
        assert [v.name for v in legacy_adam.variables][1:] == [
            "Adam/dense/kernel/m:0", "Adam/dense/bias/m:0", "Adam/dense/kernel/v:0", "Adam/dense/bias/v:0"]
    np.testing.assert_array_equal(adam.get_slot(model.trainable_variables[0], "m").numpy(),
                                  np.zeros((2, 1)))
