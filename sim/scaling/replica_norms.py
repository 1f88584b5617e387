"""Squared gradient norms at two batch sizes, measured inside a synchronous strategy (E7).

Each ``strategy.run`` step computes, on every replica, the gradient of its own share of the
batch (the small batch, ``per_replica_batch``) and the all-reduced mean (the big batch, the
global batch), and returns both squared norms: the two inputs of McCandlish's estimator, for free
in data parallelism. Written with ``sim.tf`` names only, so it runs unchanged on TensorFlow.
"""
from __future__ import annotations

import numpy as np


def regression_gradient_norms(strategy, problem, w, per_replica_batch: int, draws: int, seed: int = 0):
    """(small_sq_norms, big_sq_norms) of the regression loss at weights ``w`` over ``draws`` steps.

    ``small_sq_norms`` holds one value per replica per step, ``big_sq_norms`` one per step.
    """
    import sim.tf as tf

    replicas = strategy.num_replicas_in_sync
    with strategy.scope():
        weights = tf.Variable(np.asarray(w, np.float32).reshape(-1, 1))

    def squared_norms(x, y):
        with tf.GradientTape() as tape:
            loss = 0.5 * tf.reduce_mean(tf.square(tf.matmul(x, weights)[:, 0] - y))
        local = tape.gradient(loss, weights)
        all_reduced = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.MEAN, local)
        return tf.reduce_sum(tf.square(local)), tf.reduce_sum(tf.square(all_reduced))

    rng = np.random.default_rng(seed)
    small, big = [], []
    for _ in range(draws):
        xs, ys = problem.draws(rng, 1, per_replica_batch * replicas)
        dataset = tf.data.Dataset.from_tensor_slices((xs[0].astype("float32"), ys[0].astype("float32")))
        batch = next(iter(strategy.experimental_distribute_dataset(dataset.batch(per_replica_batch * replicas))))
        local_sq, global_sq = strategy.run(squared_norms, args=batch)
        small += [float(v) for v in strategy.experimental_local_results(local_sq)]
        big.append(float(strategy.experimental_local_results(global_sq)[0]))
    return np.array(small), np.array(big)
