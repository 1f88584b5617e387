"""Run the cross-check scenarios under one framework and print their results as JSON.

    python tests/tf_crosscheck/runner.py tf|tf-keras2|sim|sim-keras2 [scenario ...]

``tf``        real TensorFlow (tf.keras is Keras 3 in TF 2.21), 4 logical CPU devices
``tf-keras2`` real TensorFlow with TF_USE_LEGACY_KERAS=1 (tf.keras is the tf-keras package, Keras 2)
``sim``       ``import sim.tf as tf`` on the course machine (workstation-4gpu): Keras 3 rules
``sim-keras2`` the same with TF_USE_LEGACY_KERAS=1 (compared with ``tf-keras2``)

Each framework runs in its own process (test_crosscheck.py starts them): TensorFlow must configure
its logical devices before anything else touches it, and the two stay apart.
The last line of stdout is ``CROSSCHECK-JSON <json>``.
"""
from __future__ import annotations

import json
import os
import sys
import traceback

import numpy as np

N_DEVICES = 4


class Env:
    def __init__(self, name):
        self.name = name
        if name in ("tf", "tf-keras2"):
            if name == "tf-keras2":
                os.environ["TF_USE_LEGACY_KERAS"] = "1"
            import tensorflow as tf
            cpu = tf.config.list_physical_devices("CPU")[0]
            tf.config.set_logical_device_configuration(
                cpu, [tf.config.LogicalDeviceConfiguration()] * N_DEVICES)
            self._device = "/cpu:{}"
        else:
            if name == "sim-keras2":  # sim.keras follows the same switch (sim/keras/version.py)
                os.environ["TF_USE_LEGACY_KERAS"] = "1"
            import sim
            sim.setup("en", seed=0)
            import sim.tf as tf
            self._device = "/gpu:{}"
        self.tf = tf

    def devices(self, n):
        return [self._device.format(i) for i in range(n)]

    def val(self, x):
        """A tensor, variable or number as plain JSON data (nested lists of floats/ints)."""
        if hasattr(x, "numpy"):
            x = x.numpy()
        a = np.asarray(x)
        if a.dtype.kind in "iub":
            return a.astype(np.int64).tolist()
        return a.astype(np.float64).tolist()

    def attempt(self, fn):
        try:
            return self.val(fn())
        except Exception as e:  # recorded, compared by the test
            return {"__error__": type(e).__name__, "message": str(e)}


def main(argv):
    name, wanted = argv[0], argv[1:]
    env = Env(name)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scenarios import SCENARIOS
    from scenarios_precision import ALONE     # one per process, named on the command line
    from scenarios_lessons import ALONE as LESSONS_ALONE
    out = {}
    for key, fn in ({**SCENARIOS, **ALONE, **LESSONS_ALONE} if wanted else SCENARIOS).items():
        if wanted and key not in wanted:
            continue
        try:
            out[key] = fn(env)
        except Exception as e:
            out[key] = {"__error__": type(e).__name__, "message": str(e),
                        "traceback": traceback.format_exc(limit=-4)}
    print("CROSSCHECK-JSON " + json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
