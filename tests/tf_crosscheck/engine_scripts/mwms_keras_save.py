"""The multi-worker Keras tutorial's save, unedited between engines: every worker trains under
MultiWorkerMirroredStrategy (a custom loop) and calls ``model.save``; the chief writes the real path, the other
workers a ``workertemp_<id>`` path (the tutorial's ``write_filepath``) that they then delete.

    python -m sim launch --workers 2 [--engine tensorflow] mwms_keras_save.py DIR

Prints ENGINE-JSON {task, the model's outputs on X when it saved}.
"""
import json
import os
import sys

import numpy as np

import sim.tf as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
task_type, task_id = (strategy.cluster_resolver.task_type, strategy.cluster_resolver.task_id)

X = np.random.RandomState(0).normal(size=(32, 4)).astype("float32")
Y = (X @ np.array([[1.0], [-1.0], [0.5], [2.0]], np.float32)).astype("float32")

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([np.random.RandomState(i + 1).normal(size=w.shape).astype("float32") * 0.5
                       for i, w in enumerate(model.get_weights())])
    optimizer = tf.keras.optimizers.SGD(0.05, momentum=0.5)
    model.compile(optimizer=optimizer, loss="mse")
options = tf.data.Options()
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(8).with_options(options)


@tf.function
def train_step(x, y):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(model(x, training=True) - y)) / 8.0
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    strategy.run(step_fn, args=(x, y))


for epoch in range(2):     # the custom loop of the multi-worker tutorials (Keras 3's fit
    for x, y in strategy.experimental_distribute_dataset(data):   # refuses MWMS in TF 2.21)
        train_step(x, y)

def _is_chief(task_type, task_id):
    return (task_type == 'worker' and task_id == 0) or task_type is None


def _get_temp_dir(dirpath, task_id):
    base_dirpath = 'workertemp_' + str(task_id)
    temp_dir = os.path.join(dirpath, base_dirpath)
    tf.io.gfile.makedirs(temp_dir)
    return temp_dir


def write_filepath(filepath, task_type, task_id):
    dirpath = os.path.dirname(filepath)
    base = os.path.basename(filepath)
    if not _is_chief(task_type, task_id):
        dirpath = _get_temp_dir(dirpath, task_id)
    return os.path.join(dirpath, base)


model_path = os.path.join(sys.argv[1], "keras-model.keras")
write_model_path = write_filepath(model_path, task_type, task_id)
model.save(write_model_path)
if not _is_chief(task_type, task_id):
    tf.io.gfile.rmtree(os.path.dirname(write_model_path))

print("ENGINE-JSON " + json.dumps({"task": [task_type, task_id],
                                   "predict": np.asarray(model(X)).tolist()}))
