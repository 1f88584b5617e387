"""``tf.distribute.cluster_resolver``: TensorFlow's names, from ``sim.distribute.cluster_resolver``
(and the simulated TPU's resolver from ``sim.distribute.tpu``)."""
from sim.distribute.cluster_resolver import (ClusterResolver, SimpleClusterResolver,  # noqa: F401
                                             SlurmClusterResolver, TFConfigClusterResolver)


def __getattr__(name):
    if name == "TPUClusterResolver":
        from sim.distribute.tpu import TPUClusterResolver
        return TPUClusterResolver
    from sim.tf._lazy import unsupported
    if name.startswith("_"):
        raise AttributeError(f"module 'tf.distribute.cluster_resolver' has no attribute {name!r}")
    raise unsupported(f"tf.distribute.cluster_resolver.{name}")
