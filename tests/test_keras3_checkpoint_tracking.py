"""tf.train.Checkpoint under Keras 3 as TensorFlow 2.21 writes it (sim/keras/keras3_tracking.py,
sim/keras/optimizers/checkpoint_names.py), measured there with Keras 3.15: a Dense's kernel is
``_kernel``, the optimizer's variables ``_iterations``, ``_learning_rate``, ``_variables/N`` and
``_trainable_variables/N``; a subclassed model built while a restore waits loses its kernel's
value and keeps a second kernel (the checkpoint guide's second model); a waiting value of another
shape is left unassigned, an existing variable of another shape refuses it."""
import numpy as np
import pytest

import sim.tf as tf
from sim.keras import backend


@pytest.fixture(autouse=True)
def keras3(monkeypatch):
    monkeypatch.delenv("TF_USE_LEGACY_KERAS", raising=False)
    backend.clear_session()


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def _train(net, opt, x, steps=2):
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(net(x) ** 2)
        variables = net.trainable_variables
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))


def _keys(path):
    return sorted(k for k, _ in tf.train.list_variables(path))


X = tf.constant([[1.0], [2.0]])


def test_the_keys_keras_3_writes(tmp_path):
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    _train(net, opt, X)
    path = tf.train.Checkpoint(optimizer=opt, net=net).save(str(tmp_path / "a" / "ckpt"))
    assert _keys(path) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH",
        "net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE", "net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/3/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/4/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/5/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    # the optimizer alone reaches the model's variables through the list it built slots for
    alone = tf.train.Checkpoint(optimizer=opt).save(str(tmp_path / "b" / "ckpt"))
    assert "optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE" in _keys(alone)


def test_keras_3_keeps_conv_and_embedding_weights_private(tmp_path):
    conv, emb = tf.keras.layers.Conv2D(2, 3), tf.keras.layers.Embedding(3, 2)
    conv(tf.ones([1, 5, 5, 1]))
    emb(tf.constant([1]))
    path = tf.train.Checkpoint(c=conv, e=emb).save(str(tmp_path / "ckpt"))
    keys = _keys(path)
    assert "c/_kernel/.ATTRIBUTES/VARIABLE_VALUE" in keys and "c/bias/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "e/_embeddings/.ATTRIBUTES/VARIABLE_VALUE" in keys


def test_a_subclassed_model_built_while_a_restore_waits(tmp_path):
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    _train(net, opt, X)
    path = tf.train.Checkpoint(optimizer=opt, net=net).save(str(tmp_path / "ckpt"))
    net2, opt2 = Net(), tf.keras.optimizers.Adam(0.1)
    ckpt2 = tf.train.Checkpoint(optimizer=opt2, net=net2)   # kept: it holds the waiting values
    ckpt2.restore(path)
    assert int(opt2.iterations) == 2
    net2(X)
    kernels = [v for v in net2.trainable_variables if v.name == "kernel"]
    assert len(kernels) == 2 and kernels[1] is net2.l1.kernel
    assert not np.allclose(net2.l1.kernel.numpy(), net.l1.kernel.numpy())   # not restored
    np.testing.assert_array_equal(net2.l1.bias.numpy(), net.l1.bias.numpy())  # restored
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['net_1/dense_1/kernel'\]"):
        _train(net2, opt2, X, steps=1)
    # slots by index: the orphan kernel's take the old kernel's; the used kernel's would take
    # the old bias's, of shape [5]: left at zero
    slots = opt2.variables[2:]
    assert len(slots) == 6
    np.testing.assert_array_equal(slots[0].numpy(), opt.variables[2].numpy())
    np.testing.assert_array_equal(slots[1].numpy(), opt.variables[3].numpy())


def test_an_existing_variable_of_another_shape_refuses_the_value(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable(tf.ones([5]))).save(str(tmp_path / "ckpt"))
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(5,\) when "
                                         r"attempting to restore variable with shape \(1, 5\)"):
        tf.train.Checkpoint(v=tf.Variable(tf.zeros([1, 5]))).restore(path)


def test_a_waiting_value_of_another_shape_is_left_unassigned(tmp_path):
    saved = tf.train.Checkpoint()
    saved.listed = [tf.Variable(tf.ones([5]))]
    path = saved.save(str(tmp_path / "ckpt"))
    restore = tf.train.Checkpoint()
    restore.listed = []
    restore.restore(path)
    restore.listed.append(tf.Variable(tf.zeros([1, 5])))
    np.testing.assert_array_equal(restore.listed[0].numpy(), np.zeros([1, 5]))


def test_the_optimizer_builds_slots_for_variables_without_a_gradient():
    """Keras 3's base_optimizer.apply and tf-keras's apply_gradients build before filtering."""
    used, unused = tf.Variable([1.0]), tf.Variable([2.0])
    opt = tf.keras.optimizers.Adam(0.1)
    with pytest.warns(UserWarning):
        opt.apply_gradients([(tf.constant([1.0]), used), (None, unused)])
    assert len(opt.variables) == 2 + 4


def test_a_compiled_models_variables_keep_the_models_names(tmp_path):
    """The optimizer's list of the model's variables names them only when nothing else does:
    after fit, a checkpoint of the model restores into a new model of the same layers."""
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.SGD(0.1), loss="mse")
    model.fit(np.ones((8, 4), np.float32), np.ones((8, 1), np.float32), epochs=1, verbose=0)
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    assert not any("_trainable_variables" in k for k in _keys(path))
    other = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    other.build((None, 4))
    tf.train.Checkpoint(model=other).restore(path)
    np.testing.assert_array_equal(other.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())
