"""Mixed precision (issue 30): dtype policies, float16/bfloat16 numerics, dynamic loss scaling.

Written once against ``env.tf``. These are not in scenarios.py's table: each runs in a process of
its own (test_mixed_precision.py), because TensorFlow's collectives stay aborted for the rest of
a process once one scenario there aborts them (measured: the shared run's earlier scenarios make
every later MirroredStrategy all-reduce fail, "Restart your program to reset"). Each scenario sets a global policy and puts 'float32' back at
its end, so the scenarios after it run as before. Where Keras 3 and tf-keras spell loss scaling
differently (``scale_loss`` against ``get_scaled_loss``/``get_unscaled_gradients``), the custom
loop takes what the optimizer has and records which it took: sim-keras2 is compared with
tf-keras2 and sim with Keras 3, so each side takes the same path as its reference.
"""
from __future__ import annotations

import numpy as np

ALONE = {}


def scenario(fn):
    ALONE[fn.__name__] = fn
    return fn

F16_X = (np.arange(24, dtype=np.float32).reshape(4, 6) / 7.0 - 1.3)
F16_W = (np.arange(18, dtype=np.float32).reshape(6, 3) / 5.0 - 1.7)


def _name(dtype):
    """A dtype's name (Keras 3's variables give a string, tf-keras's a tf.DType)."""
    return str(getattr(dtype, "name", dtype))


def _policy_of(layer):
    return {"repr": repr(layer.dtype_policy), "compute": layer.compute_dtype,
            "variable": layer.variable_dtype, "dtype": layer.dtype}


def _reset(tf):
    tf.keras.mixed_precision.set_global_policy("float32")


@scenario
def mp_policies(env):
    tf = env.tf
    mp = tf.keras.mixed_precision
    out = {}
    try:
        for name in ("mixed_float16", "mixed_bfloat16", "float32"):
            p = mp.Policy(name)
            mp.set_global_policy(name)
            g = mp.global_policy()
            dense = tf.keras.layers.Dense(3)
            y = dense(tf.constant(F16_X))
            head = tf.keras.layers.Activation("softmax", dtype="float32")
            out[name] = {"policy": [repr(p), p.name, p.compute_dtype, p.variable_dtype],
                         "global": [repr(g), g.name, str(g)],
                         "dense": _policy_of(dense), "y": y.dtype.name,
                         "kernel": _name(dense.kernel.dtype), "head": _policy_of(head),
                         "head_out": head(y).dtype.name}
        mp.set_global_policy(mp.Policy("mixed_float16"))
        out["set_by_object"] = repr(mp.global_policy())
        out["bad_name"] = env.attempt(lambda: mp.Policy("mixed_float17"))
    finally:
        _reset(tf)
    out["after_reset"] = repr(mp.global_policy())
    return out


@scenario
def mp_half_numerics(env):
    """float16 and bfloat16 as TensorFlow computes them on CPU (values exact in their dtype)."""
    tf = env.tf
    out = {}
    for dt in ("float16", "bfloat16"):
        x, w = tf.cast(tf.constant(F16_X), dt), tf.cast(tf.constant(F16_W), dt)
        out[dt] = {
            "cast": env.val(tf.cast(x, "float32")),
            "add": env.val(tf.cast(x + x * 0.3, "float32")),
            "matmul": env.val(tf.cast(tf.matmul(x, w), "float32")),
            "relu_sum": env.val(tf.cast(tf.reduce_sum(tf.nn.relu(x)), "float32")),
            "softmax": env.val(tf.cast(tf.nn.softmax(x), "float32")),
            "overflow": env.val(tf.cast(tf.constant(256.0, dt) ** 2 * 256.0, "float32")),
            "underflow": env.val(tf.cast(tf.constant(1e-5, dt) ** 2, "float32")),
        }
    out["guide_overflow"] = env.val(tf.constant(256, dtype="float16") ** 2)
    out["guide_underflow"] = env.val(tf.constant(1e-5, dtype="float16") ** 2)
    return out


@scenario
def mp_autocast_gradients(env):
    """Inside a mixed layer the float32 kernel is read in float16; its gradient is float32."""
    tf = env.tf
    try:
        tf.keras.mixed_precision.set_global_policy("mixed_float16")
        dense = tf.keras.layers.Dense(3, kernel_initializer=tf.keras.initializers.Constant(0.25))
        x = tf.constant(F16_X)
        with tf.GradientTape() as tape:
            y = dense(x)
            loss = tf.reduce_sum(tf.cast(y, "float32") ** 2)
        grads = tape.gradient(loss, dense.trainable_variables)
        return {"y_dtype": y.dtype.name, "y": env.val(tf.cast(y, "float32")),
                "grad_dtypes": [_name(g.dtype) for g in grads],
                "grads": [env.val(g) for g in grads],
                "kernel_dtype_outside": _name(dense.kernel.dtype)}
    finally:
        _reset(tf)


# A regression whose targets are large: with the loss scale at 2**15 the float16 gradients of the
# first steps overflow, so loss scaling halves the scale and skips those steps.
MP_X = ((np.arange(64, dtype=np.float32).reshape(16, 4) % 5) - 2.0) / 2.0
MP_Y = (MP_X @ np.array([[3.0], [-2.0], [1.0], [0.5]], np.float32) * 40.0).astype(np.float32)


def _mp_model(tf):
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(4,)),
        tf.keras.layers.Dense(3, activation="relu"),
        tf.keras.layers.Dense(1, dtype="float32"),
    ])
    model.set_weights([np.full((4, 3), 0.3, np.float32) * np.array([1, -1, 0.5], np.float32),
                       np.array([0.1, 0.2, 0.0], np.float32),
                       np.array([[0.5], [-0.4], [0.2]], np.float32), np.array([0.0], np.float32)])
    return model


def _lso_state(opt):
    scale = getattr(opt, "loss_scale", None)
    if scale is None:
        scale = opt.dynamic_scale
    counter = getattr(opt, "dynamic_counter", None)
    if counter is None:
        counter = opt.step_counter
    return {"scale": float(np.asarray(scale)), "counter": int(np.asarray(counter)),
            "iterations": int(np.asarray(opt.iterations))}


def _scaled_step(tf, opt, model, x, y, seen):
    """One replica's step of the mixed precision guide's custom loop (either Keras's spelling)."""
    with tf.GradientTape() as tape:
        pred = model(x)
        per_example = tf.reduce_mean(tf.square(pred - y), axis=-1)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=8)
        scaled = opt.get_scaled_loss(loss) if hasattr(opt, "get_scaled_loss") else opt.scale_loss(loss)
    grads = tape.gradient(scaled, model.trainable_variables)
    if hasattr(opt, "get_unscaled_gradients"):
        grads = opt.get_unscaled_gradients(grads)
    seen.update(_name(g.dtype) for g in grads)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@scenario
def mp_custom_loop_mirrored(env):
    tf = env.tf
    try:
        tf.keras.mixed_precision.set_global_policy("mixed_float16")
        strategy = tf.distribute.MirroredStrategy(env.devices(2))
        with strategy.scope():
            model = _mp_model(tf)
            opt = tf.keras.mixed_precision.LossScaleOptimizer(
                tf.keras.optimizers.SGD(0.01), initial_scale=2.0 ** 4, dynamic_growth_steps=2)
        out = {"spelling": "get_scaled_loss" if hasattr(opt, "get_scaled_loss") else "scale_loss",
               "initial": [float(opt.initial_scale), int(opt.dynamic_growth_steps)]}
        batches = [(MP_X[:8] / 40.0, MP_Y[:8] / 40.0), (MP_X[8:] / 40.0, MP_Y[8:] / 40.0)]
        # a batch whose float16 gradients overflow at any scale of 16 or more
        batches.append((MP_X[:8] * 300.0, MP_Y[:8] * 300.0))
        steps = []
        for i in range(7):
            x, y = batches[i % 3] if i != 4 else batches[2]
            before = [np.asarray(w) for w in model.get_weights()]
            ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
            batch = next(iter(strategy.experimental_distribute_dataset(ds)))
            seen = set()
            loss = strategy.run(lambda x, y: _scaled_step(tf, opt, model, x, y, seen), args=tuple(batch))
            after = model.get_weights()
            steps.append(dict(_lso_state(opt),
                              loss=float(np.asarray(strategy.reduce("SUM", loss, axis=None))),
                              changed=bool(any(not np.array_equal(a, b) for a, b in zip(before, after))),
                              grad_dtypes=sorted(seen)))
        out["steps"] = steps
        out["weights"] = [env.val(w) for w in model.get_weights()]
        return out
    finally:
        _reset(tf)


@scenario
def mp_fit_mirrored(env):
    tf = env.tf
    try:
        tf.keras.mixed_precision.set_global_policy("mixed_float16")
        # devices 2 and 3: TensorFlow's collectives of an eager loop on devices 0 and 1 before
        # (mp_custom_loop_mirrored) would otherwise clash with fit's (measured: shape mismatch)
        strategy = tf.distribute.MirroredStrategy(env.devices(4)[2:])
        with strategy.scope():
            model = _mp_model(tf)
            model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
        opt = model.optimizer
        out = {"optimizer": type(opt).__name__, "inner": type(opt.inner_optimizer).__name__}
        states = []
        for _ in range(4):
            h = model.fit(MP_X, MP_Y, batch_size=8, epochs=1, verbose=0, shuffle=False)
            states.append(dict(_lso_state(opt), loss=float(h.history["loss"][-1])))
        out["per_epoch"] = states
        out["weights"] = [env.val(w) for w in model.get_weights()]
        out["weight_dtypes"] = [_name(w.dtype) for w in model.weights]
        return out
    finally:
        _reset(tf)


@scenario
def mp_tensor_float_32(env):
    tf = env.tf
    cfg = tf.config.experimental
    first = cfg.tensor_float_32_execution_enabled()
    x = tf.constant(F16_X)
    w = tf.constant(F16_W)
    a = env.val(tf.matmul(x, w))
    cfg.enable_tensor_float_32_execution(False)
    off = cfg.tensor_float_32_execution_enabled()
    b = env.val(tf.matmul(x, w))
    cfg.enable_tensor_float_32_execution(True)
    return {"default": first, "after_disable": off, "after_enable": cfg.tensor_float_32_execution_enabled(),
            "same_numbers_on_cpu": a == b, "matmul": a}
