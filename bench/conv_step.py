"""One Adam training step of seed 002's CNN (Conv2D 32 3x3 relu, MaxPooling2D 2x2, Flatten,
Dense 10 softmax, categorical cross-entropy), batch 64 of 28x28x1 images: sim.tf (Keras layers +
GradientTape + optimizer.apply_gradients) against the same forward and backward written directly
in NumPy, in the same run. Prints the median-time ratio.

BLAS runs on one thread on both sides (set before NumPy loads): the simulator runs replicas one
at a time on one core, and a multi-threaded BLAS on a busy 2-core machine makes timings noise.
"""
from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from numpy.lib.stride_tricks import sliding_window_view  # noqa: E402

import sim.tf as tf  # noqa: E402
from _side_by_side import report_step  # noqa: E402

REPEATS = 30
BATCH = 64


class NumpyCNN:
    """The seed model's step in plain NumPy: im2col conv, 2x2 max pool, dense, softmax CE, Adam
    (Keras 2's form: lr_t = lr*sqrt(1-b2^t)/(1-b1^t), w -= lr_t*m/(sqrt(v)+eps))."""

    def __init__(self, weights, lr=0.001, b1=0.9, b2=0.999, eps=1e-7):
        self.w = [w.copy() for w in weights]          # kernel, bias, dense kernel, dense bias
        self.m = [np.zeros_like(w) for w in weights]
        self.v = [np.zeros_like(w) for w in weights]
        self.lr, self.b1, self.b2, self.eps, self.t = lr, b1, b2, eps, 0

    def step(self, x, y):
        k, b, w2, b2 = self.w
        n = x.shape[0]
        patches = sliding_window_view(x, (3, 3), axis=(1, 2)).reshape(n * 26 * 26, 9)
        pre = (patches @ k.reshape(9, 32) + b).reshape(n, 26, 26, 32)
        act = np.maximum(pre, 0)
        taps = [act[:, i::2, j::2] for i in (0, 1) for j in (0, 1)]
        pooled = np.maximum(np.maximum(taps[0], taps[1]), np.maximum(taps[2], taps[3]))
        flat = pooled.reshape(n, -1)
        logits = flat @ w2 + b2
        z = logits - logits.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = -(y * logp).sum(axis=1).mean()
        d = (np.exp(logp) - y) / n
        g_w2, g_b2 = flat.T @ d, d.sum(axis=0)
        d_pool = (d @ w2.T).reshape(n, 13, 13, 32)
        d_act = np.empty_like(act)
        taken = np.zeros(pooled.shape, bool)
        for t, tap in enumerate(taps):             # each window's first maximum, as TensorFlow
            hit = (tap == pooled) & ~taken
            taken |= hit
            d_act[:, t // 2::2, t % 2::2] = d_pool * hit
        d_pre = (d_act * (pre > 0)).reshape(-1, 32)
        g_k, g_b = (patches.T @ d_pre).reshape(k.shape), d_pre.sum(axis=0)
        self.t += 1
        lr_t = self.lr * np.sqrt(1 - self.b2 ** self.t) / (1 - self.b1 ** self.t)
        for w, m, v, g in zip(self.w, self.m, self.v, (g_k, g_b, g_w2, g_b2)):
            m += (g - m) * (1 - self.b1)
            v += (g * g - v) * (1 - self.b2)
            w -= lr_t * m / (np.sqrt(v) + self.eps)
        return loss


def main():
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    x = np.expand_dims(x_train[:BATCH].astype("float32") / 255.0, -1)
    y = tf.keras.utils.to_categorical(y_train[:BATCH], num_classes=10)
    tf.keras.utils.set_random_seed(0)
    layers = tf.keras.layers
    model = tf.keras.Sequential([
        layers.Conv2D(32, kernel_size=(3, 3), activation="relu", input_shape=(28, 28, 1)),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dense(10, activation="softmax")])
    opt = tf.keras.optimizers.Adam()
    loss_fn = tf.keras.losses.CategoricalCrossentropy()
    baseline = NumpyCNN([v.numpy() for v in model.trainable_variables])
    xt, yt = tf.constant(x), tf.constant(y)

    def sim_step():
        with tf.GradientTape() as tape:
            loss = loss_fn(yt, model(xt, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    # Same math: the losses of the first steps and the weights after them agree.
    for _ in range(3):
        assert abs(float(sim_step()) - float(baseline.step(x, y))) < 1e-5
    for v, w in zip(model.trainable_variables, baseline.w):
        np.testing.assert_allclose(v.numpy(), w, rtol=1e-4, atol=1e-6)
    report_step("conv step", sim_step, lambda: baseline.step(x, y), REPEATS)

if __name__ == "__main__":
    main()
