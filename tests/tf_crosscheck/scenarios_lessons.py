"""Cross-check scenarios for what the lessons' technical review found sim doing that TensorFlow
does not (issue 32): Keras 3's first-batch reduce, CentralStorage's AggregatingVariable and
parameter device, soft placement of a missing device. Registered in scenarios.py like the others.
"""
from __future__ import annotations

import numpy as np

from scenarios import scenario

# Scenarios run each in a process of their own (test_crosscheck.py's test_scenario_alone): an
# uneven batch aborts TensorFlow's collectives, and they stay aborted for the rest of the process
# ("Restart your program to reset"); in the shared run an earlier scenario's MirroredStrategy makes
# this one's all-reduce fail the same way (measured: "Shape mismatch in the collective instance").
ALONE: dict = {}


def alone(fn):
    ALONE[fn.__name__] = fn
    return fn


def _guide_model(tf, strategy):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
        model.set_weights([np.array([[0.5]], np.float32), np.array([0.1], np.float32)])
        model.compile(loss="mse", optimizer="sgd")
    return model


@alone
def keras3_uneven_first_batch(env):
    """Lesson 04: the guide's fit on batch 10 over 4 replicas ([3, 3, 3, 1]). Keras 3 (TF 2.21's
    tf.keras) reduces the first distributed batch with strategy.reduce and AddN refuses the
    shapes, in fit and evaluate; predict runs; an even first batch trains (later uneven batches
    too). tf-keras trains on all of them."""
    tf = env.tf
    model = _guide_model(tf, tf.distribute.MirroredStrategy(env.devices(4)))
    ten = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(10)
    twelve_then_ten = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(22).batch(12)
    return {
        "fit dataset": env.attempt(lambda: model.fit(ten, epochs=1, verbose=0).history["loss"]),
        "fit arrays": env.attempt(lambda: model.fit(np.ones((100, 1), np.float32), np.ones((100, 1), np.float32),
                                                    batch_size=10, epochs=1, verbose=0).history["loss"]),
        "evaluate": env.attempt(lambda: model.evaluate(ten, verbose=0)),
        "predict": list(model.predict(np.ones((10, 1), np.float32), batch_size=10, verbose=0).shape),
        "fit even first batch": env.attempt(
            lambda: model.fit(twelve_then_ten, epochs=1, verbose=0).history["loss"]),
    }


@scenario
def central_storage_variable(env):
    """Lesson 05: a variable made under CentralStorageStrategy is an AggregatingVariable on the
    parameter device; it has no `.values` (AttributeError from the ResourceVariable it wraps);
    parameter_devices is the device as given."""
    tf = env.tf
    compute = env.devices(3)[1:]
    strategy = tf.distribute.experimental.CentralStorageStrategy(compute_devices=compute,
                                                                  parameter_device="/cpu:0")
    with strategy.scope():
        v = tf.Variable(tf.zeros([2, 2]), name="kernel")
    return {
        "type": type(v).__name__,
        "device": v.device,
        "values": env.attempt(lambda: len(v.values)),
        "parameter_devices": list(strategy.extended.parameter_devices),
    }
