"""``tf.distribute.cluster_resolver``: the resolvers a single-host course needs."""


def __getattr__(name):
    if name == "TPUClusterResolver":
        from sim.distribute.tpu import TPUClusterResolver
        return TPUClusterResolver
    raise AttributeError(f"module 'tf.distribute.cluster_resolver' has no attribute {name!r}")
