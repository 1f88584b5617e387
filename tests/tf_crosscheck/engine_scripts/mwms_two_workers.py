"""MultiWorkerMirroredStrategy on two workers: what each worker sees and trains; prints JSON.

Unedited between engines: ``python -m sim launch --workers 2 [--engine tensorflow] this.py``.
Everything is fixed so the engines can agree to float32 rounding: the initial weights come from
NumPy's RandomState (set with set_weights), the data from another, and no dataset is shuffled.
"""
import json

import numpy as np

import sim.tf as tf
from sim.tf import keras

strategy = tf.distribute.MultiWorkerMirroredStrategy()   # first, before any other op
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
out = {"task": [resolver.task_type, resolver.task_id], "replicas": strategy.num_replicas_in_sync}


def attempt(fn):
    try:
        return fn()
    except Exception as e:
        return {"__error__": type(e).__name__, "message": (str(e).splitlines() or [""])[0]}


def local(x):
    return [np.asarray(v).tolist() for v in strategy.experimental_local_results(x)]


# --- batch splitting per worker, for each auto-shard policy
Policy = tf.data.experimental.AutoShardPolicy
for name in ("AUTO", "DATA", "OFF", "FILE"):
    def split(name=name):
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = getattr(Policy, name)
        ds = tf.data.Dataset.range(20).batch(8).with_options(options)   # global batch 8, last 4
        return [local(x) for x in strategy.experimental_distribute_dataset(ds)]
    out["split_" + name] = attempt(split)


def from_function(ctx):
    out["input_context"] = [ctx.num_input_pipelines, ctx.input_pipeline_id,
                            ctx.num_replicas_in_sync, ctx.get_per_replica_batch_size(8)]
    return tf.data.Dataset.range(12).shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(
        ctx.get_per_replica_batch_size(8))


out["from_function"] = attempt(
    lambda: [local(x) for x in strategy.distribute_datasets_from_function(from_function)])

# --- the same model, the same start, the same data
init = np.random.RandomState(0)
WEIGHTS = [init.normal(0, 0.5, (3, 4)).astype("float32"), init.normal(0, 0.1, (4,)).astype("float32"),
           init.normal(0, 0.5, (4, 1)).astype("float32"), init.normal(0, 0.1, (1,)).astype("float32")]
data = np.random.RandomState(1)
x = data.normal(size=(64, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")


def build():
    model = keras.Sequential([keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                              keras.layers.Dense(1)])
    model.set_weights(WEIGHTS)
    return model


# custom training loop: N steps of SGD on the per-example loss averaged over the global batch
STEPS, GLOBAL_BATCH = 6, 16
with strategy.scope():
    model = build()
    optimizer = keras.optimizers.SGD(learning_rate=0.1)


@tf.function
def train_step(batch):
    def step(features, labels):
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean(tf.square(model(features) - labels), axis=1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    losses = strategy.run(step, args=batch)
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(GLOBAL_BATCH)
iterator = iter(strategy.experimental_distribute_dataset(ds))
out["loop_losses"] = [float(train_step(next(iterator))) for _ in range(STEPS)]
out["loop_weights"] = [w.tolist() for w in model.get_weights()]

# Model.fit: 2 epochs, 4 steps each
with strategy.scope():
    fitted = build()
    fitted.compile(optimizer=keras.optimizers.SGD(learning_rate=0.05), loss="mse", metrics=["mae"])
history = fitted.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH), epochs=2, verbose=0)
out["fit_history"] = {k: [float(v) for v in vs] for k, vs in history.history.items()}
out["fit_weights"] = [w.tolist() for w in fitted.get_weights()]
print("ENGINE-JSON " + json.dumps(out, sort_keys=True))
