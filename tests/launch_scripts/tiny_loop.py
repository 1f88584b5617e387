"""A few steps of a float64 custom loop under MultiWorkerMirroredStrategy; prints the fabric's
address first (for the stranger tests) and a RESULT line at the end. STEP_SLEEP slows each step."""
import os
import time

import numpy as np

import sim.tf as tf

print("fabric", os.environ["SIM_LAUNCH_FABRIC"], flush=True)
strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    w = tf.Variable(np.full(3, 0.5))
losses = []
for step in range(int(os.environ.get("STEPS", "4"))):
    per_replica = strategy.run(lambda: w.assign_sub(0.1 * w))
    losses.append(float(strategy.reduce("SUM", per_replica, axis=None).numpy().sum()))
    time.sleep(float(os.environ.get("STEP_SLEEP", "0")))
print("RESULT", w.numpy().tolist(), losses, flush=True)
