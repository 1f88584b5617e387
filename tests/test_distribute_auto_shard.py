"""Auto-shard for one worker of a multi-worker strategy: AUTO / FILE / DATA / OFF (§3.3, T18, T19)."""
import numpy as np
import pytest

import sim.tf as tf
from sim import i18n
from sim.data.options import AutoShardPolicy
from sim.distribute.auto_shard import applied_policy, auto_shard, dataset_of_batches
from sim.distribute.rebatch import legacy_split


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def _legacy(num_replicas):
    """The caller's rebatch: each global batch cut into N slices of ceil(b/N) rows (§3.1)."""
    def rebatch(ds):
        def gen():
            for parts in legacy_split(iter(ds), num_replicas):
                yield from parts
        return dataset_of_batches(gen, ds)
    return rebatch


def _with_policy(ds, policy):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = policy
    return ds.with_options(options)


def _rows(ds):
    return [x.tolist() for x in ds.as_numpy_iterator()]


def _per_replica(batches, replicas):
    """A worker's stream of per-replica batches grouped R at a time: replica r gets item r."""
    return [batches[r::replicas] for r in range(replicas)]


def test_t18_in_memory_auto_falls_back_to_data():
    ds = tf.data.Dataset.range(7).batch(7)
    assert applied_policy(ds, 2) == AutoShardPolicy.DATA
    workers = [_rows(auto_shard(ds, 2, w, rebatch=_legacy(4))) for w in range(2)]
    assert _per_replica(workers[0], 2) == [[[0, 1]], [[4, 5]]]
    assert _per_replica(workers[1], 2) == [[[2, 3]], [[6]]]


def _write_files(tmp_path, chunks):
    names = []
    for k, chunk in enumerate(chunks):
        name = str(tmp_path / f"part-{k}.tfrecord")
        with tf.io.TFRecordWriter(name) as w:
            for v in chunk:
                w.write(np.int64(v).tobytes())
        names.append(name)
    return names


def _decode(ds):
    return ds.map(lambda r: tf.constant(np.frombuffer(r.numpy(), np.int64)[0]))


def test_t19_one_file_under_data(tmp_path):
    names = _write_files(tmp_path, [range(12)])
    ds = _with_policy(_decode(tf.data.TFRecordDataset(names)).batch(4), AutoShardPolicy.DATA)
    w0 = _rows(auto_shard(ds, 2, 0, rebatch=_legacy(2)))
    w1 = _rows(auto_shard(ds, 2, 1, rebatch=_legacy(2)))
    assert w0 == [[0, 1], [4, 5], [8, 9]]
    assert w1 == [[2, 3], [6, 7], [10, 11]]


def test_t19_one_file_under_auto_is_too_few_files(tmp_path):
    names = _write_files(tmp_path, [range(12)])
    ds = _decode(tf.data.TFRecordDataset(names)).batch(4)
    assert applied_policy(ds, 2) == AutoShardPolicy.FILE
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Could not apply FILE based sharding: the dataset only has 1 file\(s\), "
                             r"which is not enough for the required 2 shards/workers"):
        list(auto_shard(ds, 2, 0))
    assert list(auto_shard(ds, 2, 1)) == []      # past the last file: nothing, no error (TF 2.21)
    i18n.set_language("pt")
    with pytest.raises(tf.errors.InvalidArgumentError, match="pelo menos 2 arquivos; há 1"):
        list(auto_shard(ds, 2, 0))


def test_too_few_files_raise_on_the_workers_that_have_one_counting_as_tensorflow(tmp_path):
    """4 files, 8 workers (lesson 06): workers 0-3 raise 'only has w + 1 file(s)', 4-7 read
    nothing, as TF 2.21's ShardDataset (tests/tf_crosscheck/test_lessons_tf_behaviour.py)."""
    names = _write_files(tmp_path, [range(4 * k, 4 * k + 4) for k in range(4)])
    ds = _decode(tf.data.Dataset.from_tensor_slices(names).interleave(tf.data.TFRecordDataset, cycle_length=1))
    for w in range(4):
        with pytest.raises(tf.errors.InvalidArgumentError, match=rf"only has {w + 1} file\(s\).*Or, split your"):
            list(auto_shard(ds, 8, w))
    assert [list(auto_shard(ds, 8, w)) for w in range(4, 8)] == [[], [], [], []]


def test_file_policy_gives_each_worker_whole_files(tmp_path):
    names = _write_files(tmp_path, [range(0, 3), range(10, 13), range(20, 23), range(30, 33), range(40, 43)])
    ds = _decode(tf.data.TFRecordDataset(names))
    seen = [[int(v) for v in auto_shard(ds, 2, w).as_numpy_iterator()] for w in range(2)]
    assert seen == [[0, 1, 2, 20, 21, 22, 40, 41, 42], [10, 11, 12, 30, 31, 32]]
    assert sorted(seen[0] + seen[1]) == sorted(v for c in (0, 10, 20, 30, 40) for v in range(c, c + 3))


def test_file_policy_moves_the_list_shuffle_after_the_shard(tmp_path):
    """Unseeded list_files shuffles: each worker still gets a disjoint set of files, because the
    rewrite shards the sorted list first and shuffles each worker's share."""
    names = _write_files(tmp_path, [[k] for k in range(6)])
    files = tf.data.Dataset.list_files(str(tmp_path / "*.tfrecord"))
    ds = _decode(files.interleave(tf.data.TFRecordDataset, cycle_length=1))
    shares = [sorted(int(v) for v in auto_shard(ds, 3, w).as_numpy_iterator()) for w in range(3)]
    assert shares == [[0, 3], [1, 4], [2, 5]]
    # The same pipeline sharded by DATA after its shuffle would not guarantee this split.
    assert applied_policy(ds, 3) == AutoShardPolicy.FILE


def test_shuffled_file_list_still_reshuffles_within_a_workers_share(tmp_path):
    _write_files(tmp_path, [[k] for k in range(8)])
    files = tf.data.Dataset.list_files(str(tmp_path / "*.tfrecord"), seed=3)
    ds = _decode(files.flat_map(tf.data.TFRecordDataset))
    share = auto_shard(ds, 2, 0)
    first, second = ([int(v) for v in share.as_numpy_iterator()] for _ in range(2))
    assert sorted(first) == sorted(second) == [0, 2, 4, 6]
    assert first != [0, 2, 4, 6] or second != [0, 2, 4, 6]   # still shuffled, pass after pass


def test_file_policy_on_memory_data_is_not_found():
    ds = _with_policy(tf.data.Dataset.range(8).batch(2), AutoShardPolicy.FILE)
    with pytest.raises(tf.errors.NotFoundError, match="^Found an unshardable source dataset"):
        auto_shard(ds, 2, 0)
    ds = _with_policy(tf.data.Dataset.range(8).batch(2).unbatch(), AutoShardPolicy.FILE)
    with pytest.raises(tf.errors.NotFoundError, match="^Did not find a shardable source"):
        auto_shard(ds, 2, 0)
    i18n.set_language("zh")
    with pytest.raises(tf.errors.NotFoundError, match="AutoShardPolicy.DATA"):
        auto_shard(ds, 2, 0)


def test_off_gives_every_worker_everything_and_one_worker_is_untouched(tmp_path):
    ds = _with_policy(tf.data.Dataset.range(6).batch(2), AutoShardPolicy.OFF)
    assert [_rows(auto_shard(ds, 3, w)) for w in range(3)] == [[[0, 1], [2, 3], [4, 5]]] * 3
    assert applied_policy(ds, 3) == AutoShardPolicy.OFF
    plain = tf.data.Dataset.range(5)
    assert _rows(auto_shard(plain, 1, 0)) == [0, 1, 2, 3, 4]
    assert applied_policy(plain, 1) == AutoShardPolicy.OFF


def test_data_policy_on_too_few_batches():
    ds = _with_policy(tf.data.Dataset.range(2).batch(2), AutoShardPolicy.DATA)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not enough for the required 2"):
        list(auto_shard(ds, 2, 0))


def test_zip_and_concatenate_shard_every_input(tmp_path):
    (tmp_path / "a").mkdir()
    a = _decode(tf.data.TFRecordDataset(_write_files(tmp_path / "a", [[1], [2]])))
    names_b = [str(tmp_path / f"b{k}.tfrecord") for k in range(2)]
    for k, n in enumerate(names_b):
        with tf.io.TFRecordWriter(n) as w:
            w.write(np.int64(10 + k).tobytes())
    b = _decode(tf.data.TFRecordDataset(names_b))
    cat = a.concatenate(b)
    assert [[int(v) for v in auto_shard(cat, 2, w).as_numpy_iterator()] for w in range(2)] == [[1, 10], [2, 11]]
    z = tf.data.Dataset.zip((a, b))
    assert [[tuple(int(x) for x in e) for e in auto_shard(z, 2, w).as_numpy_iterator()] for w in range(2)] == \
        [[(1, 10)], [(2, 11)]]
    mixed = tf.data.Dataset.zip((a, tf.data.Dataset.range(2)))
    assert applied_policy(mixed, 2) == AutoShardPolicy.DATA


def test_bad_worker_index():
    with pytest.raises(tf.errors.InvalidArgumentError, match="index should be >= 0 and < 2, currently 2"):
        auto_shard(tf.data.Dataset.range(4), 2, 2)


def test_the_original_pipeline_is_left_unchanged(tmp_path):
    names = _write_files(tmp_path, [[0], [1], [2], [3]])
    ds = _decode(tf.data.TFRecordDataset(names)).batch(1)
    auto_shard(ds, 2, 1)
    assert [x.tolist() for x in ds.as_numpy_iterator()] == [[0], [1], [2], [3]]


def test_who_reads_builds_each_workers_pipeline_afresh():
    """Every worker is its own process: a seeded shuffle gives every worker the same order."""
    from sim.course.plots.sharding import read_matrix, who_reads
    ds = _with_policy(tf.data.Dataset.range(8).shuffle(8, seed=5), AutoShardPolicy.OFF)
    streams = who_reads(ds, 2)
    assert streams[0] == streams[1] and sorted(streams[0]) == list(range(8))
    assert streams[0] == [int(v) for v in ds.as_numpy_iterator()]   # the first pass, as on a worker
    data = who_reads(_with_policy(tf.data.Dataset.range(6), AutoShardPolicy.DATA), 3)
    assert data == [[0, 3], [1, 4], [2, 5]]
    matrix = read_matrix(data, 6)
    assert matrix.tolist() == [[1, 0, 0, 1, 0, 0], [0, 1, 0, 0, 1, 0], [0, 0, 1, 0, 0, 1]]


def test_sharding_figure_draws_one_grid_per_policy():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sim.course.plots.sharding import draw
    axes = draw([("a", [[0, 1], [2]]), ("b", [[0, 1, 2], [0, 1, 2]])], 3)
    assert len(axes) == 2
    assert [tick.get_text() for tick in axes[0].get_yticklabels()] == ["worker 0", "worker 1"]
    image = axes[0].get_images()[0].get_array()
    assert image.shape == (2, 3, 3) and (image[0, 2] == 1).all() and not (image[1, 2] == 1).all()
    plt.close("all")
