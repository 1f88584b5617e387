"""Issue 24, item 6: a model too big for the simulated GPU raises TensorFlow's
ResourceExhaustedError (not NumPy's MemoryError from the host), and a memory_limit set with
tf.config.set_logical_device_configuration is the device's capacity (sim/distribute/memory_capacity.py)."""
import numpy as np
import pytest

import sim.tf as tf
from sim.distribute import device_config as config


@pytest.fixture(autouse=True)
def _no_logical_configuration():
    config._state["logical"].clear()
    yield
    config._state["logical"].clear()


def _limit_gpu0(mb):
    gpu0 = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu0, [tf.config.LogicalDeviceConfiguration(memory_limit=mb)])


def _fit(batch=256):
    x = np.random.RandomState(0).rand(512, 784).astype("float32")
    y = np.zeros(512, "int64")
    model = tf.keras.Sequential([tf.keras.layers.Dense(512, activation="relu", input_shape=(784,)),
                                 tf.keras.layers.Dense(10)])
    model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model.fit(x, y, batch_size=batch, epochs=1, verbose=0)


def test_a_model_bigger_than_the_gpu_is_resource_exhausted_before_the_host_allocates():
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        with tf.distribute.MirroredStrategy().scope():
            tf.keras.Sequential([tf.keras.layers.Dense(200000, input_shape=(200000,))])
    text = str(info.value)
    assert "OOM when allocating tensor with shape[200000,200000] and type float32" in text
    assert "160 GB" in text and "/gpu:0" in text


def test_the_hosts_memory_error_becomes_resource_exhausted(monkeypatch):
    from sim.distribute import memory_capacity

    def no_room(shape, dtype=None):
        raise MemoryError("Unable to allocate")
    monkeypatch.setattr(memory_capacity, "check_variable", lambda *a, **k: None)
    with pytest.raises(tf.errors.ResourceExhaustedError, match="OOM when allocating"):
        memory_capacity.initial_value(no_room, (10, 10), "float32", "kernel")


def test_a_memory_limit_is_enforced_by_the_step():
    _fit()                                                # fits the simulated 16 GB V100
    _limit_gpu0(3)                                        # 3 MiB: the weights fit, the step does not
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        _fit()
    assert "3.15 MB" in str(info.value) and "/gpu:0" in str(info.value)


def test_a_memory_limit_below_one_variable_refuses_it_when_built():
    _limit_gpu0(1)
    with pytest.raises(tf.errors.ResourceExhaustedError, match="1.05 MB"):
        _fit()
