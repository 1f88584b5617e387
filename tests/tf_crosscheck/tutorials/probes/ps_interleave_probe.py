"""Two closures scheduled at once on a 3-worker in-process cluster: what each reads of a shared
variable at each of its 10 steps (both engines)."""
import os
import sim.tf as tf
NUM_WORKERS, NUM_PS = 3, 2
cluster = {"worker": ["localhost:%d" % (22000 + i) for i in range(NUM_WORKERS)],
           "ps": ["localhost:%d" % (23000 + i) for i in range(NUM_PS)]}
spec = tf.train.ClusterSpec(cluster)
worker_config = tf.compat.v1.ConfigProto()
worker_config.inter_op_parallelism_threads = NUM_WORKERS + 1   # as the tutorial, on 2 cores
for i in range(NUM_WORKERS):
    tf.distribute.Server(spec, job_name="worker", task_index=i, config=worker_config, protocol="grpc")
for i in range(NUM_PS):
    tf.distribute.Server(spec, job_name="ps", task_index=i, protocol="grpc")
strategy = tf.distribute.ParameterServerStrategy(
    tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc"))
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
with strategy.scope():
    v = tf.Variable(0.0)

@tf.function
def ten_steps():
    seen = []
    for _ in range(10):
        seen.append(v.read_value())
        x = tf.random.normal((300, 300))
        for _ in range(5):
            x = tf.matmul(x, x) / 300.0     # some work between read and write
        v.assign_add(1.0 + 0.0 * tf.reduce_sum(x))
    return tf.stack(seen)

for trial in range(3):
    a = coordinator.schedule(ten_steps)
    b = coordinator.schedule(ten_steps)
    coordinator.join()
    print("trial", trial, "A read", [int(t) for t in a.fetch()], "B read", [int(t) for t in b.fetch()],
          "v after", float(v.numpy()))
