"""The real-mode workload, as a script ``python -m sim launch`` runs on every worker:
the course's streaming linear regression (``sim.scaling.regression``), trained with a
``tf.keras`` linear model under ``MultiWorkerMirroredStrategy`` (RING all-reduce) in a custom loop until the
population excess loss falls to the target, as a team would train until the metric is met.

    python -m sim launch --workers 2 --gpus-per-worker 2 regression_task.py \
        --per-replica-batch 16 --learning-rate 0.2 --target 0.05 --out result.json

Each step every replica draws its own fresh examples (one NumPy generator per replica, seeded
by the step and the replica), so no two replicas share an example and nothing overfits. The
loss is measured exactly, from the weights (``excess_loss``), outside the simulated clock.
The chief writes steps, simulated seconds and the final loss to ``--out`` (JSON).
"""
from __future__ import annotations

import argparse
import json

import numpy as np


class _Only:
    """The one replica of a worker with one device: its id is the worker's index."""

    def __init__(self, task_id: int):
        self.replica_id_in_sync_group = task_id


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-replica-batch", type=int, required=True)
    ap.add_argument("--learning-rate", type=float, required=True)
    ap.add_argument("--target", type=float, default=0.05)
    ap.add_argument("--max-steps", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)

    import sim.tf as tf
    from sim.runtime import clock
    from sim.scaling.regression import StreamingRegression

    ring = tf.distribute.experimental.CommunicationOptions(
        implementation=tf.distribute.experimental.CommunicationImplementation.RING)
    strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=ring)   # first
    problem = StreamingRegression(seed=0)          # the workload; --seed picks the data stream
    replicas = strategy.num_replicas_in_sync
    local = len(strategy.extended.worker_devices)
    task_id = strategy.cluster_resolver.task_id or 0
    b = args.per_replica_batch
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(
            1, use_bias=False, input_shape=(problem.dim,), kernel_initializer="zeros")])
        optimizer = tf.keras.optimizers.SGD(args.learning_rate)

    def draw(ctx, step):
        rng = np.random.default_rng([args.seed, step, ctx.replica_id_in_sync_group])
        x, y = problem.draws(rng, 1, b)
        return x[0].astype("float32"), y[0].reshape(-1, 1).astype("float32")

    @tf.function
    def train_step(x, y):
        def replica_step(x, y):
            with tf.GradientTape() as tape:
                residual = model(x, training=True) - y
                loss = tf.nn.compute_average_loss(0.5 * tf.reduce_sum(residual * residual, axis=1),
                                                  global_batch_size=b * replicas)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        strategy.run(replica_step, args=(x, y))

    start = float(problem.excess_loss(np.zeros(problem.dim)))
    began = clock().now
    steps, loss = 0, start
    while steps < args.max_steps and loss > args.target * start:
        if local == 1:      # sim's values_from_function gives a PerReplica even for one replica
            x, y = draw(_Only(task_id), steps)
        else:
            x = strategy.experimental_distribute_values_from_function(lambda ctx: draw(ctx, steps)[0])
            y = strategy.experimental_distribute_values_from_function(lambda ctx: draw(ctx, steps)[1])
        train_step(x, y)
        steps += 1
        loss = float(problem.excess_loss(model.get_weights()[0][:, 0]))
        if not np.isfinite(loss) or loss > 1e6 * start:
            break
    if strategy.extended.should_checkpoint:
        with open(args.out, "w") as f:
            json.dump({"steps": steps, "seconds": clock().now - began, "replicas": replicas,
                       "reached": bool(loss <= args.target * start), "loss_fraction": loss / start}, f)


if __name__ == "__main__":
    main()
