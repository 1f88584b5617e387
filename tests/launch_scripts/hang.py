"""Worker 1 hangs (sleeps 120 s) at step 3 of a custom loop, or with ``before`` before it creates
the strategy; the other workers then wait for it: for the timeout and waiting-line tests."""
import json
import os
import sys
import time

import numpy as np

import sim.tf as tf

task = json.loads(os.environ["TF_CONFIG"])["task"]
before = len(sys.argv) > 1 and sys.argv[1] == "before"
if before and task["index"] == 1:
    time.sleep(120)
strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    w = tf.Variable(np.ones(2))
for step in range(1, 6):
    if step == 3 and task["index"] == 1:
        time.sleep(120)
    strategy.reduce("SUM", strategy.run(lambda: w * step), axis=None)
print("done", flush=True)
