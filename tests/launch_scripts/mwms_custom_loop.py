"""A custom training loop under MultiWorkerMirroredStrategy (float64), run by the launcher.

Each worker saves its final weights, its clock and its step count to OUT_<type>_<index>.npz;
tests compare them with one device trained on the same global batches. The same ``train``
also runs in one process (tests import it), so both sides run the very same loop.
"""
import json
import os
import sys

import numpy as np

import sim.tf as tf

GLOBAL_BATCH = 8
EPOCHS = 2


def data():
    rng = np.random.RandomState(0)
    return rng.randn(40, 3), rng.randn(40, 1)


def train(strategy, epochs=EPOCHS):
    x, y = data()
    with strategy.scope():
        w = tf.Variable(np.full((3, 1), 0.1), dtype=tf.float64)
        b = tf.Variable(np.zeros(1), dtype=tf.float64)
        opt = tf.keras.optimizers.SGD(0.1)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    dist = strategy.experimental_distribute_dataset(ds)

    def step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = tf.matmul(xb, w) + b
            per_example = tf.reduce_sum((pred - yb) ** 2, axis=1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        return loss

    losses = []
    for _ in range(epochs):
        for batch in dist:
            per_replica = strategy.run(step, args=(batch,))
            losses.append(float(strategy.reduce("SUM", per_replica, axis=None)))
    return w.numpy(), b.numpy(), np.array(losses)


if __name__ == "__main__":
    strategy = tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=tf.distribute.experimental.CommunicationOptions(
            implementation=os.environ.get("IMPLEMENTATION", "AUTO")))
    task = json.loads(os.environ["TF_CONFIG"])["task"]
    print("replicas", strategy.num_replicas_in_sync, "workers", strategy.extended._num_workers)
    w, b, losses = train(strategy)
    from sim.runtime import clock
    np.savez(f"{sys.argv[1]}_{task['type']}_{task['index']}.npz", w=w, b=b, losses=losses,
             now=clock().now)
    print("done", float(losses[-1]))
