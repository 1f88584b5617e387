"""Worker 1 ends its program before the others' first collective: they must not wait forever."""
import json
import os
import sys

import sim.tf as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
if json.loads(os.environ["TF_CONFIG"])["task"]["index"] == 1:
    sys.exit(0)
per_replica = strategy.run(lambda: tf.constant(1.0))
print(float(strategy.reduce("SUM", per_replica, axis=None)))
