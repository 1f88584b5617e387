"""Per-thread state: each MirroredStrategy replica thread has its own device scope and tapes."""
import sim.tf as tf

GPU = "/job:localhost/replica:0/task:0/device:GPU:{}"


def _pause():
    tf.distribute.get_replica_context().merge_call(lambda strategy: None)


def test_replica_ops_run_on_the_replica_device():
    s = tf.distribute.MirroredStrategy()
    out = s.run(lambda: (tf.constant(1.) * 2.).device)
    assert list(s.experimental_local_results(out)) == [GPU.format(i) for i in range(4)]


def test_device_scope_of_a_paused_replica_does_not_leak():
    s = tf.distribute.MirroredStrategy()

    def fn():
        if tf.distribute.get_replica_context()._replica_id_in_sync_group == 0:
            with tf.device("/cpu:0"):
                _pause()                 # the others run while replica 0 sits in its scope
                return tf.constant(1.).device
        _pause()
        return tf.constant(1.).device
    got = s.experimental_local_results(s.run(fn))
    assert got[0].endswith("device:CPU:0")
    assert list(got[1:]) == [GPU.format(i) for i in range(1, 4)]


def test_a_paused_replica_records_only_its_own_ops():
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        w = tf.Variable(2.)

    def fn():
        with tf.GradientTape() as tape:
            _pause()                     # every replica's tape is open at once
            y = w * w
        return len(tape.watched_variables()), len(tape._records), tape.gradient(y, w)
    n_vars, n_records, grads = s.run(fn)
    assert set(s.experimental_local_results(n_vars)) == {1}      # its own copy of w only
    assert set(s.experimental_local_results(n_records)) == {3}   # two reads of w, one multiply
    assert [float(g) for g in s.experimental_local_results(grads)] == [4.0] * 4


def test_tape_in_the_main_thread_still_records_a_single_replica():
    v = tf.Variable(3.)
    with tf.GradientTape() as tape:
        y = tf.distribute.OneDeviceStrategy("/gpu:1").run(lambda: v * v)
    assert float(tape.gradient(y, v)) == 6.0
