"""A small classifier trained by SGD, many runs stacked in one set of NumPy arrays.

The reference's E2/E3 setup (shared/reference/scaling_and_staleness.md §3): 8,192 training and
4,096 test points in 20 dimensions, labelled (10 classes) by a fixed random "teacher" network
20 -> 64 tanh -> 10 (argmax); the student is an MLP 20 -> 128 ReLU -> 10 with He initialization,
softmax cross-entropy and plain SGD.

Runs that share a batch size train together: the weights carry two leading axes (seeds,
configurations), every configuration of one seed starts from the same weights and sees the same
batches, and each configuration follows its own learning rate per step (from any schedule), so
"rule A against rule B" differs in nothing but the rule. One step is a handful of batched
matmuls whatever the number of runs.

The matmuls accumulate in float64 and round to float32 (``_matmul``): OpenBLAS picks its float32
kernels by CPU, and in these runs at lr 6.4 a last-bit difference between an AVX2 and an AVX-512
machine grew into a different final loss (E3's warmup margin read 0.049 on one, above 0.05 on the
other). Rounded float64 sums are the same on both but in a case in billions, so the experiments
and lesson 08 give the same numbers wherever they run; the weights stay float32, like Keras'.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from threadpoolctl import threadpool_limits
from sim.scaling.regression import DIVERGED_FACTOR

N_TRAIN, N_TEST, DIM, CLASSES, TEACHER_HIDDEN, HIDDEN = 8192, 4096, 20, 10, 64, 128
PROBE = 2048          # training inputs on which a hidden unit must fire at least once to be alive


@dataclass(frozen=True)
class TeacherData:
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


def teacher_data(seed: int = 0) -> TeacherData:
    """Gaussian inputs labelled by a random tanh network (a fixed, learnable rule)."""
    rng = np.random.default_rng([seed, 20_64_10])
    w1 = rng.standard_normal((DIM, TEACHER_HIDDEN)) / np.sqrt(DIM)
    w2 = rng.standard_normal((TEACHER_HIDDEN, CLASSES)) / np.sqrt(TEACHER_HIDDEN)
    x = rng.standard_normal((N_TRAIN + N_TEST, DIM))
    y = np.argmax(np.tanh(x @ w1) @ w2, axis=1)
    x = x.astype(np.float32)                  # the student trains in float32, like Keras
    return TeacherData(x[:N_TRAIN], y[:N_TRAIN], x[N_TRAIN:], y[N_TRAIN:])


def he_init(rng, seeds_shape=()) -> list[np.ndarray]:
    """He-normal weights and zero biases (Keras' he_normal draws a truncated normal; plain here)."""
    return [rng.standard_normal((*seeds_shape, DIM, HIDDEN)) * np.sqrt(2 / DIM),
            np.zeros((*seeds_shape, HIDDEN)),
            rng.standard_normal((*seeds_shape, HIDDEN, CLASSES)) * np.sqrt(2 / HIDDEN),
            np.zeros((*seeds_shape, CLASSES))]


def _matmul(a, b):
    """``a @ b`` summed in float64, rounded to float32 (the same on every CPU, see the docstring)."""
    return np.matmul(a, b, dtype=np.float64).astype(np.float32)


def _forward(params, x):
    """x (..., batch, DIM) -> hidden pre-activation and logits, broadcasting over run axes."""
    w1, b1, w2, b2 = params
    pre = _matmul(x, w1) + b1[..., None, :]
    logits = _matmul(np.maximum(pre, 0), w2) + b2[..., None, :]
    return pre, logits


def cross_entropy(logits, labels) -> np.ndarray:
    """Mean softmax cross-entropy over the batch axis (stable log-sum-exp)."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_z = np.log(np.exp(shifted).sum(axis=-1))
    labels = np.broadcast_to(labels, shifted.shape[:-1])
    picked = np.take_along_axis(shifted, labels[..., None], axis=-1)[..., 0]
    return (log_z - picked).mean(axis=-1)


@dataclass
class StackedRuns:
    """What a stacked training returns, indexed [seed, configuration]."""
    test_loss: np.ndarray
    test_accuracy: np.ndarray
    dead_fraction: np.ndarray
    train_loss: np.ndarray       # (seeds, configurations, steps): the loss of each step's batch
    diverged: np.ndarray
    weights: list                # final [w1, b1, w2, b2], each with the (seeds, configurations) axes first


def train_stacked(data: TeacherData, batch: int, learning_rates: np.ndarray, seeds=(0, 1, 2),
                  epochs: int = 10) -> StackedRuns:
    """SGD with ``learning_rates[c, step]`` for configuration ``c``; every seed runs every c.

    The seed draws the initial weights and the order of the examples (reshuffled each epoch;
    a last partial batch is dropped, so every step has ``batch`` examples).
    """
    lrs = np.asarray(learning_rates, float)
    configs, per_epoch = lrs.shape[0], N_TRAIN // batch
    steps = per_epoch * epochs
    if lrs.shape[1] < steps:
        raise ValueError(f"learning_rates has {lrs.shape[1]} steps per configuration; need {steps}")
    n_seeds = len(seeds)
    params = [np.empty((n_seeds, configs) + p.shape, np.float32)
              for p in he_init(np.random.default_rng(0))]
    orders = []
    for i, seed in enumerate(seeds):
        init, order = start_and_order(seed, batch, epochs)
        for p, value in zip(params, init):
            p[i] = value                                  # the same start for every configuration
        orders.append(order)
    orders = np.stack(orders, axis=1)                     # (steps, seeds, batch)
    onehot = np.eye(CLASSES, dtype=np.float32)
    rates = lrs[:, :steps].T.astype(np.float32)           # (steps, configs)
    train_loss = np.empty((n_seeds, configs, steps))
    alive = np.ones((n_seeds, configs), np.float32)
    start = None
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"), threadpool_limits(1, user_api="blas"):
        for epoch in range(epochs):
            block = slice(epoch * per_epoch, (epoch + 1) * per_epoch)
            xs, ys = data.x_train[orders[block]], onehot[data.y_train[orders[block]]]
            for i, step in enumerate(range(block.start, block.stop)):
                loss = _sgd_step(params, _per_config(xs[i], configs), ys[i][:, None],
                                 rates[step] * alive)
                train_loss[:, :, step] = loss
                start = loss.copy() if start is None else start
                bad = ~np.isfinite(loss) | (loss > DIVERGED_FACTOR * start)
                if bad.any():                             # stop it, and keep its numbers finite
                    alive[bad] = 0.0
                    for p in params:
                        p[bad] = 0.0
    return _evaluate(data, params, train_loss, alive == 0)


def start_and_order(seed: int, batch: int, epochs: int):
    """A seed's initial weights and example order (steps, batch): what a Keras run must be given
    to reproduce a stacked run step for step."""
    rng = np.random.default_rng([seed, 8_128])
    init = he_init(rng)
    per_epoch = N_TRAIN // batch
    order = np.concatenate([rng.permutation(N_TRAIN)[:per_epoch * batch] for _ in range(epochs)])
    return init, order.reshape(per_epoch * epochs, batch)


def _per_config(x, configs):
    """(seeds, batch, DIM) -> (seeds, configs, batch, DIM), a contiguous copy per configuration:
    a stacked matmul without broadcasting runs one BLAS call per slice (broadcast ones are slow)."""
    if configs == 1:
        return x[:, None]
    return np.ascontiguousarray(np.broadcast_to(x[:, None], (x.shape[0], configs) + x.shape[1:]))


def _sgd_step(params, x, onehot, rate):
    """One SGD step of every run in place; returns each run's batch loss (before the step)."""
    w1, b1, w2, b2 = params
    batch = x.shape[-2]
    pre = _matmul(x, w1) + b1[..., None, :]
    hidden = np.maximum(pre, 0)
    logits = _matmul(hidden, w2) + b2[..., None, :]
    shifted = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    z = e.sum(axis=-1, keepdims=True)
    loss = (np.log(z[..., 0]) - (shifted * onehot).sum(axis=-1)).mean(axis=-1)
    d_logits = (e / z - onehot) / batch                   # (seeds, configs, batch, CLASSES)
    d_pre = _matmul(d_logits, np.swapaxes(w2, -1, -2)) * (pre > 0)
    r = rate[..., None, None]
    w2 -= r * _matmul(np.swapaxes(hidden, -1, -2), d_logits)
    b2 -= rate[..., None] * d_logits.sum(axis=-2)
    w1 -= r * _matmul(np.swapaxes(x, -1, -2), d_pre)
    b1 -= rate[..., None] * d_pre.sum(axis=-2)
    return loss


def _evaluate(data, params, train_loss, diverged) -> StackedRuns:
    with np.errstate(over="ignore", invalid="ignore"):
        _, logits = _forward(params, data.x_test)
        labels = np.broadcast_to(data.y_test, logits.shape[:-1])
        test_loss = cross_entropy(logits, labels)
        accuracy = (logits.argmax(axis=-1) == labels).mean(axis=-1)
        pre, _ = _forward(params, data.x_train[:PROBE])
        dead = (pre <= 0).all(axis=-2).mean(axis=-1)
    test_loss = np.where(diverged, np.inf, test_loss)
    return StackedRuns(test_loss, accuracy, dead, train_loss, diverged, params)
