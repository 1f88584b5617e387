"""main.py of TensorFlow's tutorial "Multi-worker training with Keras", with ``import sim.tf as
tf``, a seed (so that two runs can be compared), EPOCHS/STEPS to shorten it in tests, and one
line at the end with a digest of the weights and the history."""
import hashlib
import json
import os

import sim.tf as tf
import mnist_setup

tf.keras.utils.set_random_seed(7)
per_worker_batch_size = 64
tf_config = json.loads(os.environ['TF_CONFIG'])
num_workers = len(tf_config['cluster']['worker'])

strategy = tf.distribute.MultiWorkerMirroredStrategy()

global_batch_size = per_worker_batch_size * num_workers
multi_worker_dataset = mnist_setup.mnist_dataset(global_batch_size)

with strategy.scope():
    # Model building/compiling need to be within `strategy.scope()`.
    multi_worker_model = mnist_setup.build_and_compile_cnn_model()

history = multi_worker_model.fit(multi_worker_dataset, epochs=int(os.environ.get("EPOCHS", 3)),
                                 steps_per_epoch=int(os.environ.get("STEPS", 70)), verbose=0)

from sim.runtime import clock  # noqa: E402
digest = hashlib.sha256(b"".join(w.tobytes() for w in multi_worker_model.get_weights())
                        + json.dumps(history.history, sort_keys=True).encode()).hexdigest()[:16]
print(f"TUTORIAL {tf_config['task']['type']}:{tf_config['task']['index']} weights+history={digest} "
      f"loss={history.history['loss'][-1]!r} clock={clock().now!r}", flush=True)
