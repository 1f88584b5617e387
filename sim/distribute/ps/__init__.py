"""Parameter-server training: partitioners, sharded variables, ParameterServerStrategy and
ClusterCoordinator (tf_distribute_semantics.md §7). One module per job:

- ``partitioners``: how many shards a variable gets (TensorFlow's exact arithmetic);
- ``sharded_variable``: the "div" row split and a ShardedVariable that acts as one variable;
- ``variable``: ps variables and the WorkerView that delays a closure's writes to its end;
- ``strategy``: ParameterServerStrategy (placement round robin over ps tasks, partitioning);
- ``worker_pool``: the simulated workers and ps tasks, staleness records, faults;
- ``coordinator`` / ``remote_value``: ClusterCoordinator, RemoteValue, PerWorkerValues;
- ``errors``: TensorFlow's English text plus the course-language explanation (``ps`` catalogue).
"""
