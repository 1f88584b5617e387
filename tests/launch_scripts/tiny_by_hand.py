"""Two steps under MultiWorkerMirroredStrategy, for tasks started by hand (no launcher)."""
import numpy as np

import sim.tf as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    w = tf.Variable(np.ones(2))
for step in range(2):
    print(float(strategy.reduce("SUM", strategy.run(lambda: w * 1.0), axis=None).numpy().sum()), flush=True)
