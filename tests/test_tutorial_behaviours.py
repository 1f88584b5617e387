"""What TensorFlow's distribute tutorials reach beyond the seeds (issue 22), on sim.tf alone.

Each behaviour here was measured on TensorFlow 2.21 (tests/tf_crosscheck/test_tutorials.py runs
the tutorials themselves on both engines): tensor formatting, OutOfRangeError from a dataset's
next() inside a tf.function, deferred checkpoint restoration, soft placement, tf.metrics,
tf.saved_model's directory and its errors.
"""
import os

import numpy as np
import pytest

import sim.tf as tf


@pytest.fixture(autouse=True)
def _course_machine():
    from sim.distribute import _machine
    from sim.hardware.presets import workstation_4gpu
    _machine.use_machine(workstation_4gpu())
    yield
    _machine.use_machine("workstation-4gpu")


def test_format_gives_the_value_as_tensorflow_eager_does():
    t = tf.constant(0.51234)
    assert "{}".format(t) == str(np.float32(0.51234).item()) and "{:.3f}".format(t) == "0.512"
    assert f"{tf.constant([1.5, 2.0])}" == "[1.5 2. ]"
    with pytest.raises(TypeError):
        "{:.2f}".format(tf.constant([1.5, 2.0]))    # as NumPy's (and so TensorFlow's) arrays


def test_next_inside_a_function_raises_out_of_range_and_outside_stop_iteration():
    it = iter(tf.data.Dataset.range(1))

    @tf.function
    def step(iterator):
        return next(iterator)
    step(it)
    with pytest.raises(tf.errors.OutOfRangeError):
        step(it)
    plain = iter(tf.data.Dataset.range(0))
    with pytest.raises(StopIteration) as caught:
        next(plain)
    assert type(caught.value).__name__ == "StopIteration"
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    dist = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(2).batch(2)))

    @tf.function
    def dist_step(iterator):
        return strategy.run(lambda x: x, args=(next(iterator),))
    dist_step(dist)
    with pytest.raises(tf.errors.OutOfRangeError):
        dist_step(dist)
    assert [int(x) for x in tf.data.Dataset.range(3)] == [0, 1, 2]      # for loops still end


def _model(input_shape=False):
    first = tf.keras.layers.Dense(3, input_shape=(4,)) if input_shape else tf.keras.layers.Dense(3)
    return tf.keras.Sequential([first, tf.keras.layers.Dense(2)])


def test_a_restore_before_the_model_is_built_applies_when_it_builds(tmp_path):
    trained = _model()
    x = tf.ones((1, 4))
    trained(x)
    path = tf.train.Checkpoint(model=trained).save(str(tmp_path / "ckpt"))
    fresh = _model()
    status = tf.train.Checkpoint(model=fresh).restore(path)
    status.assert_existing_objects_matched()          # nothing exists yet: nothing unmatched
    with pytest.raises(AssertionError):
        status.assert_consumed()                      # the kernels still wait for their layers
    np.testing.assert_array_equal(fresh(x).numpy(), trained(x).numpy())   # the first call
    status.assert_consumed()
    with pytest.raises(AssertionError):
        tf.train.Checkpoint(model=fresh).restore(None).assert_consumed()


def test_a_missing_local_gpu_is_soft_placed_on_the_cpu(caplog):
    import logging
    caplog.set_level(logging.INFO, logger="tensorflow")
    from sim.distribute import _machine
    from sim.hardware.presets import workstation_4gpu
    _machine.use_machine(workstation_4gpu(0))
    strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
    assert strategy.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:0",)
    assert "soft placement" in caplog.text
    with strategy.scope():
        v = tf.Variable(2.0)
    assert float(strategy.run(lambda: v * 3.0)) == 6.0
    with pytest.raises(ValueError):
        tf.distribute.OneDeviceStrategy("/cpu:5")     # a CPU that is neither there nor logical


def test_mirrored_default_uses_every_logical_cpu_on_a_machine_without_gpus():
    from sim.distribute import _machine
    from sim.hardware.presets import workstation_4gpu
    _machine.use_machine(workstation_4gpu(0))
    try:
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        strategy = tf.distribute.MirroredStrategy()
        assert strategy.num_replicas_in_sync == 2
        assert float(strategy.reduce("SUM", strategy.run(lambda: tf.constant(1.0)), axis=None)) == 2.0
    finally:
        tf.config.set_logical_device_configuration(cpu, None)


def test_tf_metrics_is_tf_keras_metrics():
    assert tf.metrics.SparseCategoricalAccuracy is tf.keras.metrics.SparseCategoricalAccuracy
    assert tf.losses.MeanSquaredError is tf.keras.losses.MeanSquaredError


def test_saved_model_round_trip_with_its_serving_signature(tmp_path):
    model = _model(input_shape=True)
    x = np.ones((2, 4), np.float32)
    tf.saved_model.save(model, str(tmp_path / "sm"), options=tf.saved_model.SaveOptions(
        experimental_io_device="/job:localhost"))
    assert sorted(os.listdir(tmp_path / "sm")) == ["model.keras", "sim_saved_model.json"]
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    out = loaded.signatures["serving_default"](tf.constant(x))
    assert list(out) == [model.layers[-1].name]
    np.testing.assert_allclose(out[model.layers[-1].name].numpy(), model(x).numpy(), rtol=1e-6)
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with strategy.scope():
        again = tf.saved_model.load(str(tmp_path / "sm"))
    result = strategy.run(again.signatures["serving_default"], args=(tf.constant(x),))
    assert len(strategy.experimental_local_results(result)) == 2


def test_saved_model_errors_name_the_directory_and_a_tensorflow_one_is_explained(tmp_path):
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(str(tmp_path / "nothing"))
    foreign = tmp_path / "tf_saved"
    foreign.mkdir()
    (foreign / "saved_model.pb").write_bytes(b"\x08\x01")
    with pytest.raises(NotImplementedError, match="written by TensorFlow"):
        tf.saved_model.load(str(foreign))
    tf.saved_model.save(_model(input_shape=True), str(tmp_path / "sm"))
    (tmp_path / "sm" / "sim_saved_model.json").write_text("{trunc")
    with pytest.raises(OSError, match="sim_saved_model.json"):
        tf.saved_model.load(str(tmp_path / "sm"))
    tf.saved_model.save(_model(input_shape=True), str(tmp_path / "sm2"))
    (tmp_path / "sm2" / "model.keras").unlink()
    with pytest.raises(OSError, match="model.keras"):
        tf.saved_model.load(str(tmp_path / "sm2"))


def test_an_unbuilt_model_saves_as_tensorflow_does_with_no_signature(tmp_path, monkeypatch):
    """TensorFlow 2.21 saves a never-called subclassed model (save_and_load.ipynb): loading it
    gives no signatures and no variables; tf-keras's model.save(dir) of it is a ValueError."""
    class Subclassed(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(5)

        def call(self, inputs):
            return self.dense(inputs)
    model = Subclassed()
    tf.saved_model.save(model, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert repr(loaded.signatures) == "_SignatureMap({})" and loaded.variables == []
    with pytest.raises(TypeError, match="not callable"):
        loaded(tf.ones((1, 5)))
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    with pytest.raises(ValueError, match="cannot be saved either"):
        model.save(str(tmp_path / "again"))
    with pytest.raises(ValueError, match="never built|before the model was built"):
        tf.keras.models.load_model(str(tmp_path / "sm"))


def test_saved_model_load_restores_without_drawing_initial_weights(tmp_path):
    """tf.saved_model.load makes its variables from the file, no initializer run: a seeded start
    (SIM_SAME_INIT) counts no draw for them, as on TensorFlow, and values come from the file."""
    from sim.keras.layers import base
    from sim.launch import same_init
    from sim.keras.restoring import active
    saved = _model(input_shape=True)
    tf.saved_model.save(saved, str(tmp_path / "sm"))
    original = base.Layer.add_weight
    seeded = same_init._seeded(original, 7, active)
    cell = [c for c in seeded.__closure__ if isinstance(c.cell_contents, list)][0]
    base.Layer.add_weight = seeded
    try:
        loaded = tf.saved_model.load(str(tmp_path / "sm"))
        after_load = cell.cell_contents[0]
        _model(input_shape=True)
        after_build = cell.cell_contents[0]
    finally:
        base.Layer.add_weight = original
    assert after_load == 0 and after_build == 2
    for a, b in zip(loaded.variables, saved.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_an_object_that_is_not_trackable_is_refused_as_tensorflow_does(tmp_path):
    class Holder:
        pass
    with pytest.raises(ValueError, match=r"Expected an object of type `Trackable`, such as `tf.Module`"):
        tf.saved_model.save(Holder(), str(tmp_path / "m"))


def test_save_spec_as_tf_keras(monkeypatch):
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    model = _model()
    assert model.save_spec() is None
    model(tf.ones((5, 4)))
    (specs,), kwargs = model.save_spec()[0], model.save_spec()[1]
    assert specs.shape.as_list() == [None, 4] and kwargs == {}
