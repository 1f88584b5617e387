"""The custom loop bench/mwms_custom_loop.py times: an MLP trained with GradientTape,
strategy.run and an SGD optimizer for STEPS steps of global batch 64. Run by the launcher it uses
MultiWorkerMirroredStrategy (2 workers x 2 GPUs); run with the argument ``mirrored`` it uses
MirroredStrategy on the 4 GPUs of one process. Prints ``LOOP <seconds>`` (the loop only)."""
import os
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import sim.tf as tf  # noqa: E402

STEPS = 40
GLOBAL_BATCH = 64

mirrored = len(sys.argv) > 1 and sys.argv[1] == "mirrored"
strategy = tf.distribute.MirroredStrategy() if mirrored else tf.distribute.MultiWorkerMirroredStrategy()
rng = np.random.RandomState(0)
x = rng.randn(STEPS * GLOBAL_BATCH, 32).astype("float32")
y = rng.randint(0, 10, size=STEPS * GLOBAL_BATCH)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(256, activation="relu", input_shape=(32,)),
                                 tf.keras.layers.Dense(256, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.01)
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True, reduction=tf.keras.losses.Reduction.NONE)
dist = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))


def step(inputs):
    xb, yb = inputs
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(loss_object(yb, model(xb, training=True)),
                                          global_batch_size=GLOBAL_BATCH)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


start = time.perf_counter()
for batch in dist:
    strategy.reduce("SUM", strategy.run(step, args=(batch,)), axis=None)
print(f"LOOP {time.perf_counter() - start:.6f}", flush=True)
