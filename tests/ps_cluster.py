"""A minimal cluster resolver for the ps tests: ``cluster_spec().as_dict()``, task type and id."""


class _Spec:
    def __init__(self, cluster):
        self._cluster = cluster

    def as_dict(self):
        return dict(self._cluster)


class Resolver:
    def __init__(self, workers=2, ps=1, task_type=None, task_id=None, cluster=None):
        self._cluster = cluster if cluster is not None else {
            **({"worker": [f"localhost:{2000 + i}" for i in range(workers)]} if workers else {}),
            **({"ps": [f"localhost:{3000 + i}" for i in range(ps)]} if ps else {})}
        self.task_type, self.task_id = task_type, task_id

    def cluster_spec(self):
        return _Spec(self._cluster)
