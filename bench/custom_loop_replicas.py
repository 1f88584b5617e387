"""Wall time of the guide's custom training loop on 4 simulated GPUs against one device.

Covers: MirroredStrategy.run with lockstep replica threads, the all-reduce through
sim.collectives, experimental_distribute_dataset, compute_average_loss, strategy.reduce.
Scenario: the guide's loop (1000 examples of ([1.], [1.]), global batch 5 x replicas) runs on
the 4-GPU workstation (50 steps of 4 replicas) and on OneDeviceStrategy (200 steps of 1): the
same 1000 examples, so the ratio measures the per-replica overhead of the distribution layer.
Uses Keras (Sequential, SGD) when sim.keras is present, else the same model with GradientTape.
Noise: the two workloads run interleaved (one device, 4 replicas, one device, ...) for REPEATS
rounds after one untimed warm-up round of each, and the ratio is of the two medians, so load
from other processes on a shared machine falls on both sides alike. Before each round the
garbage of earlier rounds is collected (untimed), so no round pays for another's. Every
round's times are printed.
"""
from __future__ import annotations

import gc
import time

import sim.tf as tf

NUM_EXAMPLES = 1000
BATCH_SIZE_PER_REPLICA = 5
REPEATS = 11
TARGET = 1.5


def _has_keras():
    try:
        return hasattr(tf.keras, "Sequential")
    except Exception:
        return False


def _tape_model(strategy):
    """Dense(1) with an L2(1e-4) kernel regularizer and plain SGD(0.01), without Keras."""
    with strategy.scope():
        kernel = tf.Variable([[0.3]], name="kernel")
        bias = tf.Variable([0.0], name="bias")
    variables = [kernel, bias]

    def model(x):
        return tf.matmul(x, kernel) + bias

    def losses():
        return [1e-4 * tf.reduce_sum(tf.square(kernel))]

    def apply_gradients(grads_and_vars, lr=0.01):
        grads_and_vars = list(grads_and_vars)
        ctx = tf.distribute.get_replica_context()
        grads = ctx.all_reduce(tf.distribute.ReduceOp.SUM, [g for g, _ in grads_and_vars])

        def merge(s, pairs):
            for g, v in pairs:
                s.extended.update(v, lambda var, gg: var.assign_sub(lr * gg), args=(g,), group=False)
        ctx.merge_call(merge, args=(list(zip(grads, [v for _, v in grads_and_vars])),))

    def loss_object(labels, logits):
        return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits),
                              axis=-1)
    return model, losses, variables, apply_gradients, loss_object


def run_loop(strategy, keras):
    global_batch_size = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
    if keras:
        with strategy.scope():
            k_model = tf.keras.Sequential([
                tf.keras.layers.Dense(1, input_shape=(1,),
                                      kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
            optimizer = tf.keras.optimizers.SGD()
        loss_object = tf.keras.losses.BinaryCrossentropy(
            from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

        def model(x):
            return k_model(x, training=True)
        model_losses = lambda: k_model.losses  # noqa: E731
        variables = lambda: k_model.trainable_variables  # noqa: E731
        apply_gradients = optimizer.apply_gradients
    else:
        model, model_losses, vs, apply_gradients, loss_object = _tape_model(strategy)
        variables = lambda: vs  # noqa: E731

    dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(NUM_EXAMPLES).batch(global_batch_size)
    dist_dataset = strategy.experimental_distribute_dataset(dataset)

    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(features)
            per_example_loss = loss_object(labels, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss)
            losses = model_losses()
            if losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(losses))
        gradients = tape.gradient(loss, variables())
        apply_gradients(zip(gradients, variables()))
        return loss

    def distributed_train_step(dist_inputs):
        per_replica_losses = strategy.run(train_step, args=(dist_inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    last = None
    for dist_inputs in dist_dataset:
        last = distributed_train_step(dist_inputs)
    return float(last)


def timed_once(make_strategy, keras):
    gc.collect()                             # the previous rounds' garbage, not this round's
    strategy = make_strategy()
    t0 = time.perf_counter()
    run_loop(strategy, keras)
    return time.perf_counter() - t0


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    keras = _has_keras()
    workloads = {"one": lambda: tf.distribute.OneDeviceStrategy("/gpu:0"),
                 "four": lambda: tf.distribute.MirroredStrategy()}
    for make in workloads.values():          # warm-up round (imports, caches), not timed
        timed_once(make, keras)
    times = {k: [] for k in workloads}
    for _ in range(REPEATS):                 # interleaved: A B A B ...
        for k, make in workloads.items():
            times[k].append(timed_once(make, keras))
    one, four = median(times["one"]), median(times["four"])
    ratio = four / one
    print(f"model: {'keras' if keras else 'GradientTape (sim.keras absent)'}; "
          f"{REPEATS} interleaved rounds (one, four, one, ...) after 1 warm-up round, "
          f"gc.collect() before each; ratio of medians")
    for k, label in (("one", "one device (200 steps)"), ("four", "4 replicas (50 steps)")):
        ts = times[k]
        print(f"  {label}: median {median(ts):.3f} s, min {min(ts):.3f}, max {max(ts):.3f}  "
              f"[{' '.join(f'{t:.3f}' for t in ts)}]")
    print(f"  ratio of minimums {min(times['four']) / min(times['one']):.2f}x (for reference; "
          f"the lockstep threads feel other processes' load more than one thread does)")
    print(f"BENCH custom loop 4 replicas vs 1: {ratio:.2f}x (target <= {TARGET}x) "
          f"{'ok' if ratio <= TARGET else 'MISS'}")


if __name__ == "__main__":
    main()
