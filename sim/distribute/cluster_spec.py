"""``tf.train.ClusterSpec``: a cluster as jobs ("worker", "ps"...) of tasks with addresses.

Same rules as TensorFlow's server_lib (§6.3): a job is a list of addresses (task i is item i)
or a sparse dict {index: address} whose keys go through ``int()`` (so JSON's "1" works);
``as_dict()`` gives lists back for dense jobs; addresses are not checked (duplicates
included: the strict TF_CONFIG check in ``sim.distribute.tf_config`` does that).
``as_cluster_def()`` is left out: the simulator has no protocol buffers.
"""
from __future__ import annotations


def _annotate(tf_text, key, **fields):
    from sim.distribute.cluster_errors import annotate
    return annotate(tf_text, key, **fields)


class ClusterSpec:
    """Jobs of tasks, each task an address ``"host:port"`` (``tf.train.ClusterSpec``)."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            # TensorFlow copies through a ClusterDef, which sorts the jobs by name.
            self._spec = {job: dict(cluster._spec[job]) for job in sorted(cluster._spec)}
            return
        if not isinstance(cluster, dict):
            raise TypeError(_annotate(
                "`cluster` must be a dictionary mapping one or more job names to lists of "
                "network addresses, or a `ClusterDef` protocol buffer", "spec_type",
                kind=type(cluster).__name__))
        self._spec = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._spec[job] = dict(enumerate(tasks))
            elif isinstance(tasks, dict):
                self._spec[job] = {_index(job, i): a for i, a in tasks.items()}
            else:
                raise TypeError(_annotate(
                    "The tasks for job %r must be a list or a dictionary from integers to "
                    "strings." % (job,), "spec_job_type", job=job, kind=type(tasks).__name__))
        for job in sorted(self._spec, key=str):
            if not isinstance(job, (str, bytes)):
                raise TypeError(_annotate("Job name %r must be bytes or unicode" % (job,),
                                         "spec_job_name", job=repr(job)))
            for _, address in sorted(self._spec[job].items()):
                if not isinstance(address, (str, bytes)):
                    raise TypeError(_annotate("Task address %r must be bytes or unicode" % (address,),
                                             "spec_address", job=job, address=repr(address)))

    # -- queries -----------------------------------------------------------------------------
    @property
    def jobs(self):
        """The job names, in the order they were given."""
        return list(self._spec)

    def _job(self, job_name):
        try:
            return self._spec[job_name]
        except (KeyError, TypeError):
            raise ValueError(_annotate("No such job in cluster: %r" % (job_name,), "no_such_job",
                                      job=job_name, jobs=", ".join(f'"{j}"' for j in self._spec) or "-")) from None

    def num_tasks(self, job_name):
        return len(self._job(job_name))

    def task_indices(self, job_name):
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        job = self._job(job_name)
        try:
            return job[task_index]
        except (KeyError, TypeError):
            raise ValueError(_annotate(
                "No task with index %r in job %r" % (task_index, job_name), "no_such_task",
                index=task_index, job=job_name,
                indices=", ".join(map(str, sorted(job))) or "-")) from None

    def job_tasks(self, job_name):
        """A list indexed by task index, with None in the gaps of a sparse job."""
        job = self._job(job_name)
        out = [None] * (max(job) + 1 if job else 0)
        for i, address in job.items():
            out[i] = address
        return out

    def as_dict(self):
        """Job -> list of addresses (dense jobs) or {index: address} (sparse jobs); {} if empty."""
        out = {}
        for job in self.jobs:
            indices = self.task_indices(job)
            if not indices:
                out[job] = {}
            elif max(indices) + 1 == len(indices):
                out[job] = self.job_tasks(job)
            else:
                out[job] = {i: self.task_address(job, i) for i in indices}
        return out

    # -- Python protocol ---------------------------------------------------------------------
    def __bool__(self):
        return bool(self._spec)

    def __eq__(self, other):
        # TensorFlow compares its internal dict with ``other`` as is (a spec equals a dict).
        if isinstance(other, ClusterSpec):
            return self._spec == other._spec
        return self._spec == other

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        d = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {d[k]!r}" for k in sorted(d)) + "})"


def _index(job, key):
    """A sparse job's key as an int (JSON object keys are strings)."""
    try:
        return int(key)
    except (TypeError, ValueError):
        raise TypeError(_annotate(
            "The tasks for job %r must be a list or a dictionary from integers to strings."
            % (job,), "spec_job_key", job=job, given=repr(key))) from None
