"""The TensorFlow guide's tf.distribute snippets (shared/seeds/000, 004), unchanged but the import.

Snippets that need Keras or ``tf.tpu`` are skipped until those parts of the facade exist.
"""
import contextlib
import io

import numpy as np
import pytest

import sim.tf as tf


def _has(module, name):
    try:
        return hasattr(module, name)
    except Exception:
        return False


needs_keras = pytest.mark.skipif(not _has(tf.keras, "Sequential"), reason="sim.keras not landed")
needs_tpu = pytest.mark.skipif(not _has(tf, "tpu"), reason="tf.tpu not in the sim.tf facade yet")


@pytest.fixture(autouse=True)
def _course_machine():
    from sim.distribute import _machine
    _machine.use_machine("workstation-4gpu")
    yield
    _machine.use_machine("workstation-4gpu")


def test_mirrored_snippets():
    mirrored_strategy = tf.distribute.MirroredStrategy()
    assert mirrored_strategy.num_replicas_in_sync == 4
    mirrored_strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
    assert mirrored_strategy.num_replicas_in_sync == 2
    mirrored_strategy = tf.distribute.MirroredStrategy(
        cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
    assert isinstance(mirrored_strategy.extended._inferred_cross_device_ops,
                      tf.distribute.HierarchicalCopyAllReduce)


def test_central_storage_snippet():
    central_storage_strategy = tf.distribute.experimental.CentralStorageStrategy()
    assert central_storage_strategy.num_replicas_in_sync == 4


def test_default_strategy_snippets():
    default_strategy = tf.distribute.get_strategy()
    # In optimizer or other library code
    # Get currently active strategy
    strategy = tf.distribute.get_strategy()
    assert float(strategy.reduce("SUM", 1., axis=None)) == 1.0  # reduce some values
    assert strategy is default_strategy

    if tf.config.list_physical_devices('GPU'):
        strategy = tf.distribute.MirroredStrategy()
    else:  # Use the Default Strategy
        strategy = tf.distribute.get_strategy()

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        with strategy.scope():
            # Do something interesting
            print(tf.Variable(1.))
    text = out.getvalue()
    assert text.startswith("MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>")
    assert "3: <tf.Variable 'Variable/replica_3:0'" in text


def test_one_device_snippet():
    strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")
    assert strategy.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:0",)


@needs_tpu
def test_tpu_snippet():
    tpu_address = "tpu-v3-8"
    cluster_resolver = tf.distribute.cluster_resolver.TPUClusterResolver(
        tpu=tpu_address)
    tf.config.experimental_connect_to_cluster(cluster_resolver)
    tf.tpu.experimental.initialize_tpu_system(cluster_resolver)
    tpu_strategy = tf.distribute.TPUStrategy(cluster_resolver)
    assert tpu_strategy.num_replicas_in_sync == 8
    tpu_strategy = tf.distribute.experimental.TPUStrategy(cluster_resolver)   # pt guide's spelling
    assert tpu_strategy.num_replicas_in_sync == 8


def test_tpu_strategy_needs_initialization():
    from sim.distribute import tpu
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="tpu-v4")
    with pytest.raises(RuntimeError, match="TPU system is not initialized"):
        tf.distribute.TPUStrategy(resolver)
    tpu.experimental_connect_to_cluster(resolver)
    tpu.initialize_tpu_system(resolver)
    assert tf.distribute.experimental.TPUStrategy(resolver).num_replicas_in_sync >= 1


def _custom_loop(strategy, num_examples=1000):
    """The guide's custom training loop, verbatim apart from the strategy's name."""
    mirrored_strategy = strategy
    BATCH_SIZE_PER_REPLICA = 5
    global_batch_size = (BATCH_SIZE_PER_REPLICA *
                         mirrored_strategy.num_replicas_in_sync)
    with mirrored_strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(1, input_shape=(1,),
                                  kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
        optimizer = tf.keras.optimizers.SGD()
    dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(num_examples).batch(
        global_batch_size)
    dist_dataset = mirrored_strategy.experimental_distribute_dataset(dataset)
    # Sets `reduction=NONE` to leave it to tf.nn.compute_average_loss() below.
    loss_object = tf.keras.losses.BinaryCrossentropy(
        from_logits=True,
        reduction=tf.keras.losses.Reduction.NONE)

    def train_step(inputs):
        features, labels = inputs

        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            per_example_loss = loss_object(labels, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss)
            model_losses = model.losses
            if model_losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))

        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    @tf.function
    def distributed_train_step(dist_inputs):
        per_replica_losses = mirrored_strategy.run(train_step, args=(dist_inputs,))
        return mirrored_strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses,
                                        axis=None)

    losses = []
    for dist_inputs in dist_dataset:
        losses.append(float(distributed_train_step(dist_inputs)))
    iterator = iter(dist_dataset)
    for _ in range(10):
        losses.append(float(distributed_train_step(next(iterator))))
    return losses, int(optimizer.iterations.numpy())


@needs_keras
def test_custom_training_loop_snippet_trains():
    """The guide's loop runs unchanged; equality with one device is in test_distribute_keras."""
    losses, steps = _custom_loop(tf.distribute.MirroredStrategy(), num_examples=200)
    assert np.all(np.isfinite(losses)) and losses[-1] < losses[0]
    assert len(losses) == steps == 10 + 10


@needs_keras
def test_keras_fit_snippet(monkeypatch):
    """The guide's fit snippet runs under tf-keras, the Keras it was written for (Keras 3 refuses
    its first batch on 4 replicas: tests/test_keras_guide.py)."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    mirrored_strategy = tf.distribute.MirroredStrategy()
    with mirrored_strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(1, input_shape=(1,),
                                  kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
        model.compile(loss='mse', optimizer='sgd')
    dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(10)
    model.fit(dataset, epochs=2)
    model.evaluate(dataset)
    inputs, targets = np.ones((100, 1)), np.ones((100, 1))
    model.fit(inputs, targets, epochs=2, batch_size=10)
