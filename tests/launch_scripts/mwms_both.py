"""One launched cluster trains twice (a custom loop, then Model.fit) under one
MultiWorkerMirroredStrategy: the tests share its process start-ups."""
import json
import os
import sys

import numpy as np

import sim.tf as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()   # first, as TensorFlow requires

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mwms_custom_loop  # noqa: E402
import mwms_fit  # noqa: E402

task = json.loads(os.environ["TF_CONFIG"])["task"]
w, b, losses = mwms_custom_loop.train(strategy)
ckpt_dir = os.path.join(os.path.dirname(sys.argv[1]), "ckpt")
checkpoint = tf.keras.callbacks.ModelCheckpoint(os.path.join(ckpt_dir, "model_{epoch}.weights.h5"),
                                                save_weights_only=True, monitor="loss")
weights, fit_losses = mwms_fit.fit_model(strategy, callbacks=[checkpoint])
print("saved", os.path.relpath(checkpoint.last_saved_path, os.path.dirname(ckpt_dir)))
from sim.runtime import clock  # noqa: E402
np.savez(f"{sys.argv[1]}_{task['type']}_{task['index']}.npz", w=w, b=b, losses=losses,
         fit_losses=np.array(fit_losses), now=clock().now, replicas=strategy.num_replicas_in_sync,
         **{f"fit_{i}": v for i, v in enumerate(weights)})
print("replicas", strategy.num_replicas_in_sync, "chief", strategy.extended.should_checkpoint)

# replica ids are global (worker 1's replicas are 2 and 3); strategy.gather spans the workers
ids = strategy.run(lambda: tf.fill([1], tf.distribute.get_replica_context().replica_id_in_sync_group))
print("gathered ids", strategy.gather(ids, axis=0).numpy().tolist())
from_fn = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([ctx.replica_id_in_sync_group]))
print("value ids", [int(v.numpy()[0]) for v in strategy.experimental_local_results(from_fn)])
