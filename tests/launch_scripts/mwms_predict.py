"""Model.predict under MultiWorkerMirroredStrategy, run by the launcher (sim or TensorFlow):
each worker saves its predictions (numpy input and a batched Dataset, 22 rows so the last batch
is uneven) and ``model(x)`` to OUT_<type>_<index>.npz. TensorFlow gives every worker the full
predictions, in order (Keras's _multi_worker_concat)."""
import json
import os
import sys

import numpy as np

import sim.tf as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()   # first, as TensorFlow requires
task = json.loads(os.environ["TF_CONFIG"])["task"]

x = np.random.RandomState(2).randn(22, 3).astype(np.float32)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
model.set_weights([np.array([[0.5, -1.0], [0.25, 2.0], [-0.75, 0.1]], np.float32),
                   np.array([0.1, -0.2], np.float32)])
from_numpy = model.predict(x, batch_size=8, verbose=0)
from_dataset = model.predict(tf.data.Dataset.from_tensor_slices(x).batch(8), verbose=0)
equal_pieces = strategy.gather(strategy.run(lambda: tf.constant([7])), axis=0)
np.savez(f"{sys.argv[1]}_{task['type']}_{task['index']}.npz", numpy=from_numpy,
         dataset=from_dataset, call=model(x).numpy(), equal_pieces=equal_pieces.numpy())
print("predicted", from_numpy.shape, from_dataset.shape)
