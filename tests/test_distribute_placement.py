"""Placement: tensors and variables report the device they were made on (§8.3, TF eager)."""
import sim.tf as tf

GPU = "/job:localhost/replica:0/task:0/device:GPU:{}"


def test_variable_and_tensor_keep_their_creation_device():
    with tf.device("/gpu:2"):
        v = tf.Variable(1.)
        t = tf.constant(3.) * 2.
    assert v.device == GPU.format(2)
    assert t.device == GPU.format(2)
    assert v.read_value().device == GPU.format(2)     # a read runs where the variable lives
    assert tf.constant(1.).device == GPU.format(0)    # no scope: the default device


def test_one_device_strategy_places_variables_and_run():
    s = tf.distribute.OneDeviceStrategy("/gpu:2")
    with s.scope():
        w = tf.Variable(1.)
    assert w.device == GPU.format(2)
    assert s.run(lambda: w.device) == GPU.format(2)
    assert s.run(lambda: (tf.constant(1.) + 1.).device) == GPU.format(2)


def test_mirrored_variable_components_live_on_each_gpu():
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        mv = tf.Variable(1.)
    assert [c.device for c in mv.values] == [GPU.format(i) for i in range(4)]
