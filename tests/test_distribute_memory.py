"""Simulated device memory (issue 9, bug 8): the bytes a step holds per device, and
TensorFlow's ResourceExhaustedError (OOM) when a device would overflow its memory_bytes."""
import numpy as np
import pytest

import sim.tf as tf
from sim import i18n, runtime
from sim.distribute.memory import format_bytes
from sim.hardware import Machine
from sim.hardware import devices as D

ROOMY = 1e12


@pytest.fixture(autouse=True)
def _restore_machine():
    before = runtime.current_machine()
    yield
    runtime.use_machine(before)


def _machine(kind, memory_bytes, count=2):
    """A host CPU and ``count`` devices of ``kind`` with ``memory_bytes`` each, on one switch."""
    m = Machine(f"tiny-{kind.lower()}")
    spec = {"GPU": D.V100_SXM2, "TPU": D.TPU_V3_CORE, "CPU": D.XEON_8380}[kind]
    cpu = m.add_device("CPU", D.XEON_8380, memory_bytes=memory_bytes if kind == "CPU" else None)
    if kind == "CPU":
        return runtime.use_machine(m)
    sw = m.add_node("switch")
    m.connect(cpu, sw, 10e9, 1e-6)
    for _ in range(count):
        m.connect(m.add_device(kind, spec, memory_bytes=memory_bytes), sw, 10e9, 1e-6)
    return runtime.use_machine(m)


def _strategy(kind):
    if kind == "GPU":
        return tf.distribute.MirroredStrategy()
    if kind == "CPU":
        return tf.distribute.OneDeviceStrategy("/cpu:0")
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    return tf.distribute.TPUStrategy(resolver)


def _fit(kind, memory_bytes, global_batch, count=2):
    _machine(kind, memory_bytes, count)
    strategy = _strategy(kind)
    tf.keras.utils.set_random_seed(0)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu", input_shape=(32,)),
                                     tf.keras.layers.Dense(4)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.ones((global_batch, 32), np.float32)
    y = np.zeros(global_batch, np.int64)
    model.fit(x, y, batch_size=global_batch, epochs=1, verbose=0)
    return strategy.extended.last_step_memory


def test_the_peak_of_a_step_has_its_closed_form():
    """weights + momentum slot + iteration counter + (batch, product, sum) kept + gradient."""
    _machine("GPU", ROOMY)
    st = tf.distribute.MirroredStrategy()
    n, b = 1000, 64
    with st.scope():
        v = tf.Variable(np.ones(n, np.float32))
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    x = tf.constant(np.ones((b, n), np.float32))

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * x)
        opt.apply_gradients(zip(tape.gradient(loss, [v]), [v]))
    st.run(step)
    expected = (4 * n + 4 * n + 8) + (4 * b * n + 4 * b * n + 4) + 4 * n
    assert st.extended.last_step_memory == {d: expected for d in st.extended.worker_devices}
    assert runtime.clock().last_step_memory == st.extended.last_step_memory


@pytest.mark.parametrize("kind", ["GPU", "CPU", "TPU"])
def test_a_batch_that_cannot_fit_raises_oom_and_one_that_can_trains(kind):
    # Activations grow with the batch: the peak is affine in the per-replica batch.
    peaks = [max(_fit(kind, ROOMY, b).values()) for b in (8, 16, 24)]
    assert peaks[0] < peaks[1] and peaks[1] - peaks[0] == peaks[2] - peaks[1]
    capacity = (peaks[0] + peaks[1]) // 2
    fits = _fit(kind, capacity, 8)
    assert max(fits.values()) <= capacity
    with pytest.raises(tf.errors.ResourceExhaustedError, match="OOM when allocating tensor on "
                                                               f"/job:localhost/.*device:{kind}:0") \
            as info:
        _fit(kind, capacity, 16)
    text = str(info.value)
    assert format_bytes(capacity) in text and format_bytes(peaks[1]) in text
    assert i18n.catalogs()["en"]["memory.oom"].split("{")[0] in text


def test_more_replicas_share_the_batch_and_the_memory():
    """The lesson's point: a global batch too big for one GPU fits when two GPUs share it."""
    one_gpu = max(_fit("GPU", ROOMY, 32, count=1).values())
    with pytest.raises(tf.errors.ResourceExhaustedError):
        _fit("GPU", one_gpu - 1, 32, count=1)
    two_gpus = _fit("GPU", one_gpu - 1, 32, count=2)
    assert len(two_gpus) == 2 and max(two_gpus.values()) < one_gpu - 1


def test_format_bytes():
    assert [format_bytes(x) for x in (512, 1500, 16e9, 2.5e6)] == ["512 B", "1.5 kB", "16 GB",
                                                                   "2.5 MB"]
