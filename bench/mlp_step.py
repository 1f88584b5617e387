"""One SGD training step of an MLP 784-256-10 (relu, softmax cross-entropy), batch 256:
sim.tf (Keras layers + GradientTape + optimizer.apply_gradients) against the same math in plain
NumPy, in the same run. Prints the median-time ratio."""
from __future__ import annotations

import numpy as np

import sim.tf as tf
from _side_by_side import report_step

REPEATS = 30


def numpy_step(w1, b1, w2, b2, x, y, lr=0.01):
    h_pre = x @ w1 + b1
    h = np.maximum(h_pre, 0)
    logits = h @ w2 + b2
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = -np.log(p[np.arange(n), y]).mean()
    d = p
    d[np.arange(n), y] -= 1
    d /= n
    gw2 = h.T @ d
    gb2 = d.sum(0)
    dh = (d @ w2.T) * (h_pre > 0)
    gw1 = x.T @ dh
    gb1 = dh.sum(0)
    w1 -= lr * gw1
    b1 -= lr * gb1
    w2 -= lr * gw2
    b2 -= lr * gb2
    return loss


def main():
    rng = np.random.default_rng(0)
    x = rng.random((256, 784), dtype=np.float32)
    y = rng.integers(0, 10, 256)
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(256, activation="relu", input_shape=(784,)),
                                 tf.keras.layers.Dense(10)])
    opt = tf.keras.optimizers.SGD(0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    xt, yt = tf.constant(x), tf.constant(y)
    w = [v.numpy().copy() for v in model.trainable_variables]

    def sim_step():
        with tf.GradientTape() as tape:
            loss = loss_fn(yt, model(xt, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def np_step():
        return numpy_step(w[0], w[1], w[2], w[3], x, y)

    # Same math: the first losses agree.
    assert abs(float(sim_step()) - float(np_step())) < 1e-4
    report_step("mlp step", sim_step, np_step, REPEATS)

if __name__ == "__main__":
    main()
