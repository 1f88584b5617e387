"""MultiWorkerMirroredStrategy outside a cluster, its start-up rule, and which worker's replicas
see which examples (T18, T19)."""
import json
from pathlib import Path

import numpy as np
import pytest

import sim.tf as tf
from sim.distribute.multi_worker_input import distribute_dataset
from sim.launch import launch
from sim.runtime import clock

SCRIPTS = Path(__file__).with_name("launch_scripts")


def test_without_tf_config_it_is_one_worker_on_the_local_gpus(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    s = tf.distribute.MultiWorkerMirroredStrategy()
    assert s.num_replicas_in_sync == 4
    assert not s.extended._in_multi_worker_mode() and s.extended.should_checkpoint
    assert tf.distribute.experimental.MultiWorkerMirroredStrategy().num_replicas_in_sync == 4
    with s.scope():
        v = tf.Variable(1.0)
    per = s.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32))
    assert float(s.reduce("SUM", per, axis=None)) == 6.0
    assert float(v.numpy()) == 1.0


def test_a_task_started_by_hand_whose_host_never_comes_is_explained(monkeypatch, tmp_path):
    """Worker 1 of a cluster started by hand, with nobody at worker 0's address (by_hand.py)."""
    from sim.engine.errors import UnavailableError
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": {"worker": ["localhost:1", "localhost:2"]}, "task": {"type": "worker", "index": 1}}))
    monkeypatch.setenv("SIM_CLUSTER_SECRET", "shared by the tasks")
    monkeypatch.setenv("SIM_LAUNCH_CONNECT_TIMEOUT", "0.5")
    saved = clock().steps
    clock().steps = []         # as at a program's start (other tests ran strategies here)
    try:
        with pytest.raises(UnavailableError, match="^worker 1 could not reach the cluster at "
                           "127.0.0.1:1, where worker 0 hosts it, within 0.5 s: start every task"):
            tf.distribute.MultiWorkerMirroredStrategy()
    finally:
        clock().steps = saved


def test_creating_the_strategy_after_other_work_is_refused_in_every_task():
    """TensorFlow's text first, then the explanation in the course language the tasks inherit."""
    from sim import i18n
    i18n.set_language("pt")
    try:
        result = launch(SCRIPTS / "late_strategy.py", workers=2, echo=False, timeout=60)
    finally:
        i18n.set_language("en")
    assert result.returncode == 1
    assert result.reason == ("terminou com status 1: RuntimeError: Collective ops must be "
                             "configured at program startup")
    for task in result.tasks:
        assert "MultiWorkerMirroredStrategy precisa ser criada antes de qualquer outro trabalho" \
            in task.output


class _Worker:
    """What the input layout reads of a MultiWorkerMirroredStrategy's extended."""

    def __init__(self, workers, rank, replicas):
        self._num_workers, self._rank = workers, rank
        self._devices = tuple(f"/job:worker/replica:0/task:{rank}/device:GPU:{r}" for r in range(replicas))
        self._num_replicas_in_sync = workers * replicas

    def _tag_devices(self, x):
        return x


def _steps(dataset, workers, rank, replicas):
    out = []
    for step in distribute_dataset(_Worker(workers, rank, replicas), dataset):
        parts = step.values if hasattr(step, "values") else (step,)
        out.append([np.asarray(p).tolist() for p in parts])
    return out


def test_t18_data_sharding_of_an_in_memory_dataset():
    ds = tf.data.Dataset.range(7).batch(7)
    assert _steps(ds, 2, 0, 2) == [[[0, 1], [4, 5]]]
    assert _steps(ds, 2, 1, 2) == [[[2, 3], [6]]]


def test_t19_each_worker_keeps_every_other_slice():
    ds = tf.data.Dataset.range(12).batch(4)
    assert _steps(ds, 2, 0, 1) == [[[0, 1]], [[4, 5]], [[8, 9]]]
    assert _steps(ds, 2, 1, 1) == [[[2, 3]], [[6, 7]], [[10, 11]]]


def test_off_policy_every_worker_reads_everything():
    ds = tf.data.Dataset.range(8).batch(4)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    ds = ds.with_options(options)
    w0, w1 = _steps(ds, 2, 0, 1), _steps(ds, 2, 1, 1)
    assert sum(len(s[0]) for s in w0) == sum(len(s[0]) for s in w1) == 8


def test_file_sharding_each_worker_reads_its_own_files(tmp_path):
    """AUTO on files runs FILE: worker w reads file w and rebatches it (RebatchV2, §3.1)."""
    files = []
    for k in range(2):
        p = tmp_path / f"part{k}.txt"
        p.write_text("".join(f"{6 * k + i}\n" for i in range(6)))
        files.append(str(p))
    ds = tf.data.TextLineDataset(files).batch(4)
    for rank, first in ((0, 0), (1, 6)):
        got = [[int(x) for x in step[0]] for step in _steps(ds, 2, rank, 1)]
        assert got == [[first, first + 1], [first + 2, first + 3], [first + 4, first + 5]]


class _Partner:
    """The fabric as seen from worker 0 when the other worker has ``steps`` steps of data."""

    def __init__(self, steps):
        self.rounds, self.steps = 0, steps

    def all_reduce(self, buffers, devices, arrive, algorithm, options=None):
        other = 1.0 if self.rounds < self.steps else 0.0
        self.rounds += 1
        return [buffers[0] + other], 0.0, 0.0


def test_a_worker_out_of_data_runs_empty_steps_until_every_worker_is(tmp_path):
    """Worker 0's file has 6 lines (3 steps), worker 1's 10 (5 steps): worker 0 runs 2 steps of
    empty batches, so both run 5 steps (the "has data" flags TensorFlow all-reduces)."""
    sizes = {0: 6, 1: 10}
    files = []
    for k, n in sizes.items():
        p = tmp_path / f"part{k}.txt"
        p.write_text("".join(f"{i}\n" for i in range(n)))
        files.append(str(p))
    worker = _Worker(2, 0, 1)
    worker._fabric = _Partner(steps=5)
    steps = [np.asarray(step).tolist() for step in
             distribute_dataset(worker, tf.data.TextLineDataset(files).batch(4))]
    assert [len(s) for s in steps] == [2, 2, 2, 0, 0]
    assert worker._fabric.rounds == 6          # one flag per step, then the one that ends it


def test_dataset_function_gets_the_worker_input_context():
    """§3.2: called once on this worker with InputContext(W, id_in_cluster, N); the local
    replicas take consecutive elements of what it returns."""
    from sim.distribute.multi_worker_input import distribute_datasets_from_function
    seen = []

    def dataset_fn(ctx):
        seen.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync))
        per_replica = ctx.get_per_replica_batch_size(8)
        return tf.data.Dataset.range(8).shard(ctx.num_input_pipelines,
                                              ctx.input_pipeline_id).batch(per_replica)
    steps = [[np.asarray(p).tolist() for p in step.values]
             for step in distribute_datasets_from_function(_Worker(2, 1, 2), dataset_fn)]
    assert seen == [(2, 1, 4)]
    assert steps == [[[1, 3], [5, 7]]]
