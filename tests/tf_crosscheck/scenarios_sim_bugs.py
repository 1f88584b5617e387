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
