"""The ps tests' cluster: a SimpleClusterResolver over a tf.train.ClusterSpec, as the tutorial builds."""
import sim.tf as tf


def Resolver(workers=2, ps=1, task_type=None, task_id=None, cluster=None):
    if cluster is None:
        cluster = {}
        if workers:
            cluster["worker"] = [f"localhost:{2000 + i}" for i in range(workers)]
        if ps:
            cluster["ps"] = [f"localhost:{3000 + i}" for i in range(ps)]
    return tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec(cluster), task_type=task_type, task_id=task_id, rpc_layer="grpc")
