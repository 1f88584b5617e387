"""Exercise 05: the bytes each GPU moves per training step, by strategy.

The learner writes ``bytes_per_gpu(strategy, num_params, num_gpus)`` returning
``(sent, received)``: the bytes one GPU sends and receives in one synchronous training step of
a float32 model with ``num_params`` parameters on one machine with ``num_gpus`` GPUs.

* ``"mirrored"``: the gradients are combined by a ring all-reduce (NCCL's choice on one PCIe
  switch); each GPU sends and receives ``2 (p - 1) / p * 4 P`` bytes (collectives.md, the ring's
  reduce-scatter then all-gather).
* ``"central_storage"``: the variables live once on the CPU. Each GPU sends its ``4 P`` gradient
  bytes to the CPU and reads the ``4 P`` bytes of updated variables back for the next forward
  pass. With a single GPU the variables live on that GPU and nothing moves (§8.2).
* ``"one_device"``: nothing moves.

The 4-GPU cases are tied to the simulator: for each model the checker runs one real training
step on the simulated ``workstation-4gpu``; ``P`` is the model's ``count_params()`` and, for
MirroredStrategy, the all-reduced buffer is read from the step's trace (its ``NcclAllReduce``
events' sizes), so the expected bytes follow what the simulator actually reduced.
CentralStorageStrategy's expected bytes come from the closed form (TensorFlow's behaviour).
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from sim.course.exercises.checker import Case, close, run_cases
from sim.i18n import t

STRATEGIES = ("mirrored", "central_storage", "one_device")
BYTES_PER_FLOAT32 = 4

# (units of each Dense layer, input features): small, medium and a "two 1024 layers" model.
MODELS = {
    "small": ((10,), 10),
    "medium": ((256, 256), 256),
    "large": ((1024, 1024), 1024),
}


def reference(strategy: str, num_params: int, num_gpus: int) -> tuple[float, float]:
    """The closed forms (module docstring)."""
    if strategy == "one_device" or num_gpus == 1:
        return (0.0, 0.0)
    nbytes = BYTES_PER_FLOAT32 * num_params
    if strategy == "mirrored":
        ring = 2 * (num_gpus - 1) / num_gpus * nbytes
        return (ring, ring)
    if strategy == "central_storage":
        return (float(nbytes), float(nbytes))
    raise ValueError(strategy)


@functools.lru_cache(maxsize=None)
def simulated_step(strategy: str, model: str) -> dict:
    """One training step of ``MODELS[model]`` on the simulated 4-GPU workstation.

    Returns ``{"params": P, "variable_bytes": ..., "allreduce_bytes": ..., "seconds": ...}`` where
    ``allreduce_bytes`` is read from the step's trace (the all-reduce events' sizes).
    """
    import sim.runtime
    import sim.tf as tf

    units, features = MODELS[model]
    previous = sim.runtime.current_machine()
    sim.runtime.use_machine("workstation-4gpu")
    try:
        make = {"mirrored": tf.distribute.MirroredStrategy,
                "central_storage": tf.distribute.experimental.CentralStorageStrategy}[strategy]
        strat = make()
        tf.keras.utils.set_random_seed(0)
        with strat.scope():
            net = tf.keras.Sequential([tf.keras.layers.Dense(u) for u in units])
            net.build((None, features))
            opt = tf.keras.optimizers.SGD(0.01)
        rng = np.random.default_rng(0)
        batch = 8
        x = rng.normal(size=(batch, features)).astype("float32")
        y = rng.normal(size=(batch, units[-1])).astype("float32")
        data = strat.experimental_distribute_dataset(
            tf.data.Dataset.from_tensor_slices((x, y)).batch(batch))

        def replica_fn(inputs):
            xb, yb = inputs
            with tf.GradientTape() as tape:
                per_example = tf.reduce_mean(tf.square(net(xb) - yb), axis=1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=batch)
            grads = tape.gradient(loss, net.trainable_variables)
            opt.apply_gradients(zip(grads, net.trainable_variables))
            return loss

        strat.run(replica_fn, args=(next(iter(data)),))
        trace = strat.extended.last_step_trace
        return {"params": int(net.count_params()),
                "variable_bytes": int(sum(v.numpy().nbytes for v in net.trainable_variables)),
                "allreduce_bytes": float(sum(e.nbytes for e in trace if e.kind == "transfer"
                                             and e.name.startswith("NcclAllReduce"))),
                "seconds": float(strat.extended.last_step_time)}
    finally:
        sim.runtime.use_machine(previous)


def _expected_from_simulator(strategy: str, model: str) -> tuple[float, float]:
    step = simulated_step(strategy, model)
    p = 4
    if strategy == "mirrored":
        ring = 2 * (p - 1) / p * step["allreduce_bytes"]
        return (ring, ring)
    return reference(strategy, step["params"], p)


def _strategy_name(strategy: str) -> str:
    return {"mirrored": "MirroredStrategy", "central_storage": "CentralStorageStrategy",
            "one_device": "OneDeviceStrategy"}[strategy]


def cases() -> list[Case]:
    """4-GPU cases from the simulator's trace, then other GPU counts from the closed forms."""
    out = []
    for model in ("small", "medium", "large"):
        for strategy in ("mirrored", "central_storage"):
            params = simulated_step(strategy, model)["params"]
            out.append(Case(t("lesson05.ex_case", strategy=_strategy_name(strategy),
                              params=params, gpus=4),
                            args=(strategy, params, 4),
                            expected=_expected_from_simulator(strategy, model)))
    params = simulated_step("mirrored", "large")["params"]
    for strategy, gpus in [("mirrored", 2), ("mirrored", 8), ("central_storage", 1),
                           ("one_device", 1)]:
        out.append(Case(t("lesson05.ex_case", strategy=_strategy_name(strategy), params=params,
                          gpus=gpus),
                        args=(strategy, params, gpus), expected=reference(strategy, params, gpus)))
    return out


# -- the usual mistakes, recomputed on the same inputs -----------------------------------------
def _in_parameters(strategy, num_params, num_gpus):
    sent, received = reference(strategy, num_params, num_gpus)
    return (sent / BYTES_PER_FLOAT32, received / BYTES_PER_FLOAT32)


def _ring_one_pass(strategy, num_params, num_gpus):
    sent, received = reference(strategy, num_params, num_gpus)
    return (sent / 2, received / 2) if strategy == "mirrored" else (sent, received)


def _whole_buffer(strategy, num_params, num_gpus):
    if strategy == "mirrored" and num_gpus > 1:
        return (4.0 * num_params, 4.0 * num_params)
    return reference(strategy, num_params, num_gpus)


def _send_to_everyone(strategy, num_params, num_gpus):
    if strategy == "mirrored" and num_gpus > 1:
        return (4.0 * num_params * (num_gpus - 1),) * 2
    return reference(strategy, num_params, num_gpus)


def _all_gpus_together(strategy, num_params, num_gpus):
    sent, received = reference(strategy, num_params, num_gpus)
    return (sent * num_gpus, received * num_gpus)


def _no_variable_reads(strategy, num_params, num_gpus):
    sent, received = reference(strategy, num_params, num_gpus)
    return (sent, 0.0) if strategy == "central_storage" else (sent, received)


def _cpu_even_with_one_gpu(strategy, num_params, num_gpus):
    if strategy == "central_storage" and num_gpus == 1:
        return (4.0 * num_params, 4.0 * num_params)
    return reference(strategy, num_params, num_gpus)


MISTAKES = [
    (_in_parameters, "lesson05.ex_hint_parameters_not_bytes"),
    (_ring_one_pass, "lesson05.ex_hint_ring_one_pass"),
    (_whole_buffer, "lesson05.ex_hint_ring_whole_buffer"),
    (_send_to_everyone, "lesson05.ex_hint_send_to_everyone"),
    (_all_gpus_together, "lesson05.ex_hint_all_gpus"),
    (_no_variable_reads, "lesson05.ex_hint_central_reads"),
    (_cpu_even_with_one_gpu, "lesson05.ex_hint_central_one_gpu"),
]


def _as_pair(got):
    try:
        values = [float(v) for v in got]
    except (TypeError, ValueError):
        return None
    return tuple(values) if len(values) == 2 else None


def diagnose(case: Case, got) -> str | None:
    pair = _as_pair(got)
    if pair is None:
        return "lesson05.ex_hint_shape"
    strategy, num_params, num_gpus = case.args
    if strategy == "one_device" and pair != (0.0, 0.0):
        return "lesson05.ex_hint_one_device"
    for wrong, hint in MISTAKES:
        if close(pair, wrong(*case.args)) and not close(pair, case.expected):
            return hint
    return None


def compare(got, expected) -> bool:
    pair = _as_pair(got)
    return pair is not None and close(pair, expected)


def check_bytes_per_gpu(fn: Callable) -> None:
    """Check ``fn(strategy, num_params, num_gpus) -> (sent, received)`` bytes per GPU per step."""
    return run_cases(fn, cases(), compare=compare, diagnose=diagnose)
