"""200 steps of each optimizer under MirroredStrategy with 4 replicas, the weights printed as JSON.

Run unchanged on both engines (test_optimizer_steps.py). A small tanh regression: its variables
are made in the strategy's scope, each step (a tf.function) runs on 4 replicas (a global batch of 16 from a fixed
NumPy draw) and applies the summed gradients with the optimizer. Prints, per optimizer, the
weights after steps 1, 10, 50 and 200 and the last loss.
"""
import json
import os
import sys

import numpy as np

import sim.tf as tf

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
REPLICAS = 4

# Four logical CPUs make the four replicas on both engines, so both reduce the gradients as
# TensorFlow does on CPUs (ReductionToOneDevice: one sum, in replica order).
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * REPLICAS)
DEVICES = [f"/cpu:{i}" for i in range(REPLICAS)]

O = tf.keras.optimizers
legacy = os.environ.get("TF_USE_LEGACY_KERAS") == "1"
CONFIGS = {
    "sgd": lambda: O.SGD(0.1),
    "sgd_momentum": lambda: O.SGD(0.05, momentum=0.9),
    "sgd_nesterov": lambda: O.SGD(0.05, momentum=0.9, nesterov=True),
    "adam": lambda: O.Adam(0.01),
    "adam_amsgrad": lambda: O.Adam(0.02, beta_1=0.8, amsgrad=True),
    "rmsprop": lambda: O.RMSprop(0.01),
    "rmsprop_momentum_centered": lambda: O.RMSprop(0.005, momentum=0.5, centered=True),
    "adagrad": lambda: O.Adagrad(0.1),
    "sgd_weight_decay": lambda: O.SGD(0.1, weight_decay=0.01),
    "adam_schedule": lambda: O.Adam(O.schedules.ExponentialDecay(0.02, 20, 0.5)),
}
if legacy:
    L = tf.keras.optimizers.legacy
    CONFIGS.update({
        "legacy_sgd_momentum": lambda: L.SGD(0.05, momentum=0.9),
        "legacy_adam": lambda: L.Adam(0.01),
        "legacy_rmsprop": lambda: L.RMSprop(0.01),
        "legacy_rmsprop_momentum": lambda: L.RMSprop(0.01, momentum=0.5),
        "legacy_adagrad": lambda: L.Adagrad(0.1),
    })

rng = np.random.RandomState(0)
X = rng.uniform(-1, 1, size=(STEPS, 16, 3)).astype(np.float32)
Y = np.tanh(X @ np.array([[0.5, -1.0], [1.5, 0.25], [-0.75, 1.0]], np.float32) + 0.1).astype(np.float32)
W0 = rng.normal(0, 0.5, size=(3, 2)).astype(np.float32)


def run(make):
    strategy = tf.distribute.MirroredStrategy(DEVICES)
    with strategy.scope():
        w = tf.Variable(W0, name="w")
        b = tf.Variable(np.zeros(2, np.float32), name="b")
        opt = make()
        if hasattr(opt, "build"):   # slots made in the scope, not inside the tf.function
            opt.build([w, b])

    def step(x, y):
        with tf.GradientTape() as tape:
            pred = tf.tanh(tf.matmul(x, w) + b)
            per_example = tf.reduce_mean(tf.square(pred - y), axis=1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=16)
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        return loss

    @tf.function
    def train(batch):
        per_replica = strategy.run(step, args=batch)
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    dataset = tf.data.Dataset.from_tensor_slices((X.reshape(-1, 3), Y.reshape(-1, 2))).batch(16)
    out = {}
    for i, batch in enumerate(strategy.experimental_distribute_dataset(dataset)):
        loss = train(batch)
        if i + 1 in (1, 10, 50, STEPS):
            out[f"step{i + 1}"] = [w.numpy().tolist(), b.numpy().tolist()]
    out["loss"] = float(loss)
    return out


def main():
    res = {}
    for name, make in CONFIGS.items():
        try:
            res[name] = run(make)
        except Exception as e:   # compared by class
            res[name] = {"__error__": type(e).__name__, "message": str(e).splitlines()[0][:300]}
    print("ENGINE-JSON " + json.dumps(res))


if __name__ == "__main__":
    main()
