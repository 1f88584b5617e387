"""Parameter-server training: partitioners, sharded variables, ParameterServerStrategy and
ClusterCoordinator (tf_distribute_semantics.md §7). One module per job:

- ``partitioners``: how many shards a variable gets (TensorFlow's exact arithmetic);
- ``sharded_variable``: the "div" row split and a ShardedVariable that acts as one variable;
- ``errors``: TensorFlow's English text plus the course-language explanation (``ps`` catalogue).
"""
