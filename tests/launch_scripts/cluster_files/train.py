"""MultiWorkerMirroredStrategy and Keras fit on fixed data, written for a real cluster.

``import tensorflow as tf``: on a cluster that is TensorFlow; under the course's local stand-ins
(sim.launch.local_cluster, engine "sim") the simulator answers to that name. The data and the
first weights are fixed, fit does not shuffle: every engine and every task gives the same losses.
"""
import json
import os

import numpy as np
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
rng = np.random.default_rng(0)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([1.0, -2.0, 0.5, 3.0], dtype="float32"))[:, None]
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.zeros((4, 1), "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
task = json.loads(os.environ["TF_CONFIG"])["task"]
history = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
losses = " ".join(f"{loss:.5f}" for loss in history.history["loss"])
gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "-")
print(f"TASK {task['type']} {task['index']} GPUS {gpus} LOSS {losses}", flush=True)
