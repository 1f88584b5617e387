"""Cross-check scenarios, written once against a ``tf`` module (``tensorflow`` or ``sim.tf``).

Each scenario is ``name(env) -> result`` where ``env.tf`` is the module, ``env.devices(n)`` the
names of n replica devices (logical CPUs under TensorFlow, the course machine's GPUs under sim)
and the result is plain JSON data (floats, ints, strings, lists, dicts). A sub-case that raises
is recorded as ``{"__error__": <exception class name>, "message": <text>}`` through ``env.attempt``.

Nothing here may depend on which framework runs it: no ``if env.name == ...``. Expected differences
are declared in test_crosscheck.py, next to the comparison.
"""
from __future__ import annotations

import numpy as np

SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


# ---------------------------------------------------------------------------------------------
# Data shared by the training scenarios: 38 examples, 3 features, deterministic. With a global
# batch of 8 there are 4 full batches and a last one of 6 (split 2,2,2,0 over 4 replicas: one
# replica gets an empty batch, spec §11.2).
N_EXAMPLES, N_FEATURES, GLOBAL_BATCH = 38, 3, 8
X = (((np.arange(N_EXAMPLES * N_FEATURES).reshape(N_EXAMPLES, N_FEATURES) % 7) - 3) / 3.0).astype(np.float32)
Y = (X @ np.array([[0.5], [-1.0], [0.25]], np.float32) + 0.1).astype(np.float32)
LABELS = (Y > 0).astype(np.float32)
KERNEL0 = np.array([[0.2], [-0.1], [0.3]], np.float32)
BIAS0 = np.array([0.05], np.float32)
L2 = 1e-2


def _model(tf):
    """The guide's model (one Dense unit with an L2 kernel regularizer), weights set, not drawn."""
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(N_FEATURES,)),
        tf.keras.layers.Dense(1, kernel_regularizer=tf.keras.regularizers.L2(L2)),
    ])
    model.set_weights([KERNEL0, BIAS0])
    return model


def _weights(env, model):
    return [env.val(w) for w in model.get_weights()]


# ---------------------------------------------------------------------------------------------
@scenario
def t21_run_reduce(env):
    tf = env.tf
    strategy = tf.distribute.MirroredStrategy(env.devices(2))

    def step_fn():
        return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)

    r = strategy.run(step_fn)
    return {
        "num_replicas": strategy.num_replicas_in_sync,
        "sum": env.val(strategy.reduce("sum", r, axis=None)),
        "mean": env.val(strategy.reduce("MEAN", r, axis=None)),
        "local_results": [env.val(v) for v in strategy.experimental_local_results(r)],
    }


@scenario
def t22_reduce_non_distributed(env):
    tf = env.tf
    two = tf.distribute.MirroredStrategy(env.devices(2))
    default = tf.distribute.get_strategy()
    return {
        "mirrored_sum_constant": env.attempt(
            lambda: two.reduce(tf.distribute.ReduceOp.SUM, tf.constant(3.0), axis=None)),
        "mirrored_mean_constant": env.attempt(
            lambda: two.reduce(tf.distribute.ReduceOp.MEAN, tf.constant(3.0), axis=None)),
        "default_sum": env.attempt(lambda: default.reduce("SUM", 3.0, axis=None)),
        "default_mean_axis0": env.attempt(
            lambda: default.reduce("MEAN", tf.constant([[1., 2.], [3., 4.]]), axis=0)),
    }


@scenario
def t20_reduce_axis_uneven(env):
    tf = env.tf
    strategy = tf.distribute.MirroredStrategy(env.devices(2))
    rows = [[0., 1., 2., 3.], [4., 5.]]
    v = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(rows[ctx.replica_id_in_sync_group]))
    return {
        "local": [env.val(t) for t in strategy.experimental_local_results(v)],
        "mean_axis0": env.attempt(lambda: strategy.reduce(tf.distribute.ReduceOp.MEAN, v, axis=0)),
        "sum_axis0": env.attempt(lambda: strategy.reduce(tf.distribute.ReduceOp.SUM, v, axis=0)),
        "sum_axis_none": env.attempt(lambda: strategy.reduce(tf.distribute.ReduceOp.SUM, v, axis=None)),
    }


def _split(env, strategy, dataset, policy=None):
    tf = env.tf
    if policy is not None:
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = getattr(
            tf.data.experimental.AutoShardPolicy, policy)
        dataset = dataset.with_options(options)
    steps = []
    for batch in strategy.experimental_distribute_dataset(dataset):
        steps.append([env.val(t) for t in strategy.experimental_local_results(batch)])
    return steps


@scenario
def t15_t16_t17_dataset_split(env):
    tf = env.tf
    four = tf.distribute.MirroredStrategy(env.devices(4))
    three = tf.distribute.MirroredStrategy(env.devices(3))
    two = tf.distribute.MirroredStrategy(env.devices(2))
    r = tf.data.Dataset.range
    return {
        "T15 range(10).batch(10) 4 replicas AUTO": _split(env, four, r(10).batch(10)),
        "T15 range(10).batch(10) 4 replicas OFF": _split(env, four, r(10).batch(10), "OFF"),
        "T16 range(8).batch(4) 3 replicas AUTO": _split(env, three, r(8).batch(4)),
        "T17 range(6).batch(4) 2 replicas AUTO": _split(env, two, r(6).batch(4)),
        "T17 range(6).batch(4) 2 replicas OFF": _split(env, two, r(6).batch(4), "OFF"),
    }


@scenario
def t23_loss_scaling(env):
    tf = env.tf
    two = tf.distribute.MirroredStrategy(env.devices(2))
    four = tf.distribute.MirroredStrategy(env.devices(4))

    def fn():
        return (tf.nn.compute_average_loss([1., 2., 3., 4.]),
                tf.nn.compute_average_loss([1., 2., 3., 4.], global_batch_size=10),
                tf.nn.compute_average_loss([1., 2., 3., 4.], sample_weight=[1., 0., 1., 0.]),
                tf.nn.compute_average_loss(tf.zeros((0,))))

    out = two.run(fn)
    reg = four.run(lambda: tf.nn.scale_regularization_loss([1.0, 1.0]))
    return {
        "compute_average_loss N=2 [default, gbs=10, weights, empty]":
            [[env.val(t) for t in two.experimental_local_results(o)] for o in out],
        "scale_regularization_loss N=4": [env.val(t) for t in four.experimental_local_results(reg)],
    }


@scenario
def t28_distributed_variables(env):
    tf = env.tf
    two = tf.distribute.MirroredStrategy(env.devices(2))
    with two.scope():
        v = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)

    def add():
        r = tf.distribute.get_replica_context().replica_id_in_sync_group
        v.assign_add(tf.cast(r, tf.float32) + 1.0)

    two.run(add)
    four = tf.distribute.MirroredStrategy(env.devices(4))
    with four.scope():
        s = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    s.assign(10.0)
    return {
        "mirrored SUM assign_add, copies": [env.val(c) for c in two.experimental_local_results(v)],
        "sync_on_read SUM assign(10), copies": [env.val(c) for c in four.experimental_local_results(s)],
        "sync_on_read cross-replica read": env.val(s.read_value()),
        "sync_on_read replica read": [
            env.val(t) for t in four.experimental_local_results(four.run(lambda: s.read_value()))],
    }


@scenario
def t25_input_context(env):
    tf = env.tf
    ctx = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1, num_replicas_in_sync=4)
    four = tf.distribute.MirroredStrategy(env.devices(4))

    def dataset_fn(input_context):
        batch = input_context.get_per_replica_batch_size(8)
        return (tf.data.Dataset.range(16).batch(batch)
                .shard(input_context.num_input_pipelines, input_context.input_pipeline_id))

    steps = []
    for batch in four.distribute_datasets_from_function(dataset_fn):
        steps.append([env.val(t) for t in four.experimental_local_results(batch)])
    return {
        "per_replica_batch_size(64)": env.attempt(lambda: ctx.get_per_replica_batch_size(64)),
        "per_replica_batch_size(10)": env.attempt(lambda: ctx.get_per_replica_batch_size(10)),
        "str": str(ctx),
        "distribute_datasets_from_function range(16), global batch 8, 4 replicas": steps,
    }


@scenario
def custom_training_loop(env):
    """The guide's custom training loop on 4 replicas: one pass over the 38 examples (5 steps)."""
    tf = env.tf
    strategy = tf.distribute.MirroredStrategy(env.devices(4))
    with strategy.scope():
        model = _model(tf)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)
    loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction="none")
    dataset = tf.data.Dataset.from_tensor_slices((X, LABELS)).batch(GLOBAL_BATCH)
    dist_dataset = strategy.experimental_distribute_dataset(dataset)

    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            per_example_loss = loss_object(labels, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH)
            model_losses = model.losses
            if model_losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    @tf.function
    def distributed_train_step(dist_inputs):
        per_replica_losses = strategy.run(train_step, args=(dist_inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    losses = [env.val(distributed_train_step(batch)) for batch in dist_dataset]
    return {"loss per step": losses, "final weights": _weights(env, model),
            "optimizer iterations": int(optimizer.iterations.numpy())}


def _fit(env, strategy):
    tf = env.tf
    with strategy.scope():
        model = _model(tf)
        model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.05))
    history = model.fit(X, Y, batch_size=GLOBAL_BATCH, epochs=3, shuffle=False, verbose=0)
    return {"loss per epoch": [float(v) for v in history.history["loss"]],
            "final weights": _weights(env, model),
            "evaluate loss": float(model.evaluate(X, Y, batch_size=GLOBAL_BATCH, verbose=0))}


@scenario
def keras_fit_mirrored(env):
    """Model.fit('mse', SGD) on 4 replicas, global batch 8, 3 epochs, no shuffling."""
    return _fit(env, env.tf.distribute.MirroredStrategy(env.devices(4)))


@scenario
def keras_fit_default_strategy(env):
    """The same fit on the default strategy: separates Keras differences from distribution ones."""
    return _fit(env, env.tf.distribute.get_strategy())


# ---------------------------------------------------------------------------------------------
# Convolution and pooling (seed 002's CNN). Inputs from modular arithmetic, with repeated values,
# so max pooling meets ties (TensorFlow's gradient picks one maximum). The ops run in float64: in
# float32 a conv output that sums 27 products to nearly zero differs by an ulp of its terms
# (3e-7), beyond the comparison's tolerance, since the frameworks add in different orders.
def _grid(shape, mod, scale):
    return (((np.arange(int(np.prod(shape))).reshape(shape) * 5) % mod - mod // 2) / scale) \
        .astype(np.float32)


CONV_X = _grid((2, 7, 6, 3), 11, 5.0).astype(np.float64)
CONV_W = _grid((3, 3, 3, 4), 7, 4.0).astype(np.float64)


def _value_and_grads(env, fn, *inputs):
    """fn's value and the gradients of sum(fn * probe) with respect to every input."""
    tf = env.tf
    xs = [tf.constant(a) for a in inputs]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
        probe = tf.constant(_grid(tuple(int(d) for d in y.shape), 5, 2.0).astype(np.float64))
        total = tf.reduce_sum(y * probe)
    return {"value": env.val(y), "grads": [env.val(g) for g in tape.gradient(total, xs)]}


@scenario
def conv2d_and_max_pool2d(env):
    tf = env.tf
    out = {}
    for padding in ("SAME", "VALID"):
        for stride in (1, 2):
            out[f"conv2d {padding} stride {stride}"] = _value_and_grads(
                env, lambda x, w: tf.nn.conv2d(x, w, strides=stride, padding=padding),
                CONV_X, CONV_W)
            for k in (2, 3):
                out[f"max_pool2d {padding} k {k} stride {stride}"] = _value_and_grads(
                    env, lambda x: tf.nn.max_pool2d(x, ksize=k, strides=stride, padding=padding),
                    CONV_X)
    out["max_pool2d ties"] = _value_and_grads(
        env, lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"), np.ones((1, 4, 4, 1)))
    return out



# Issue 17's families (tf.data transformations, metrics, jacobians) live in their own file.
import scenarios_issue17  # noqa: E402,F401
import scenarios_sim_bugs  # noqa: E402,F401
import scenarios_lessons  # noqa: E402,F401
