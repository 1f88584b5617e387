"""Cross-check scenarios for bugs found in sim and fixed (branch sim-bugs).

Registered in scenarios.py's SCENARIOS like the others; same rules (no framework switches).
"""
from __future__ import annotations

from scenarios import scenario


@scenario
def values_from_function_one_device(env):
    """One replica: the value function's result is a (1-component) PerReplica, and ``run`` hands
    ``fn`` the value itself (``.shape`` works, the result is a plain tensor)."""
    tf = env.tf
    one = tf.distribute.MirroredStrategy(env.devices(1))
    v = one.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group + 1))
    out = one.run(lambda x: x * 2.0 + float(x.shape[0]), args=(v,))
    kw = one.run(lambda x=None: tf.reduce_sum(x), kwargs={"x": v})
    return {
        "value type": type(v).__name__,
        "local": [env.val(t) for t in one.experimental_local_results(v)],
        "run": env.val(out),
        "run result is distributed": isinstance(out, tf.distribute.DistributedValues),
        "run kwargs": env.val(kw),
        "reduce": env.val(one.reduce("SUM", v, axis=None)),
    }


def _error_class(fn):
    """The class of what ``fn`` raises (messages differ: TensorFlow's names its temp files)."""
    try:
        fn()
    except Exception as e:
        return type(e).__name__
    return None


@scenario
def missing_weights_and_state_directory(env):
    """``load_weights`` of paths with nothing there, and saving a checkpoint into a directory
    that holds a sub-directory named ``checkpoint`` (where the state file goes)."""
    import os
    import tempfile
    tf = env.tf
    out = {}
    with tempfile.TemporaryDirectory() as d:
        model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
        for name in ("missing.weights.h5", "missing.h5", "missing.keras", "missing_prefix",
                     os.path.join("no_dir", "ckpt-1")):
            out[f"load_weights {name}"] = _error_class(
                lambda: model.load_weights(os.path.join(d, name)))
        out["load_model missing.keras"] = _error_class(
            lambda: tf.keras.models.load_model(os.path.join(d, "missing.keras")))
        os.mkdir(os.path.join(d, "checkpoint"))
        ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
        manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
        out["manager latest"] = manager.latest_checkpoint
        out["manager.save"] = _error_class(manager.save)
        out["checkpoint.save"] = _error_class(lambda: ckpt.save(os.path.join(d, "ck")))
        out["latest_checkpoint"] = tf.train.latest_checkpoint(d)
    return out
