"""Keras 3's files in sim.keras (sim/keras/saving): what is written where, what load_model
rebuilds, the errors of the routes Keras refuses, and the course's explanation in the
learner's language. Against TensorFlow itself: tests/tf_crosscheck/test_keras_files.py."""
from __future__ import annotations

import json
import zipfile

import h5py
import numpy as np
import pytest

import sim.tf as tf
from sim import i18n

L = tf.keras.layers
X = np.random.default_rng(3).normal(size=(5, 4)).astype("float32")


def _seq(compiled=True):
    model = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3, activation="relu"), L.Dense(2)])
    if compiled:
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
        model.fit(X, X[:, :2], epochs=1, verbose=0)
    return model


def _groups(path):
    with h5py.File(path) as f:
        names = []
        f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Group) else None)
        return names, {n: f[n].attrs.get("name") for n in names if n.endswith("vars")}


def test_keras_file_holds_keras_3s_members_and_layout(tmp_path):
    path = tmp_path / "m.keras"
    _seq().save(path)
    with zipfile.ZipFile(path) as z:
        assert z.namelist() == ["metadata.json", "config.json", "model.weights.h5"]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
        config = json.loads(z.read("config.json"))
        (tmp_path / "w.h5").write_bytes(z.read("model.weights.h5"))
    assert config["class_name"] == "Sequential"
    assert [l["class_name"] for l in config["config"]["layers"]] == ["InputLayer", "Dense", "Dense"]
    assert config["compile_config"]["optimizer"]["class_name"] == "Adam"
    groups, names = _groups(tmp_path / "w.h5")
    assert set(groups) == {"layers", "layers/dense", "layers/dense/vars", "layers/dense_1",
                           "layers/dense_1/vars", "optimizer", "optimizer/vars", "vars"}
    assert names["optimizer/vars"] == "adam"
    with h5py.File(tmp_path / "w.h5") as f:
        assert len(f["optimizer/vars"]) == 2 + 2 * 4     # iteration, rate, m and v per weight
        assert int(f["optimizer/vars/0"][()]) == 1


def test_load_model_rebuilds_predictions_and_optimizer_state(tmp_path):
    model = _seq()
    model.save(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))
    assert int(loaded.optimizer.iterations.numpy()) == 1
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert tf.keras.models.load_model(tmp_path / "m.keras", compile=False).optimizer is None


class Scaled(tf.keras.Model):            # not registered: found through custom_objects
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor
        self.dense = L.Dense(2)

    def call(self, x):
        return self.dense(x) * self.factor

    def get_config(self):
        return {"factor": self.factor, **super().get_config()}


def test_subclassed_model_needs_its_class(tmp_path):
    model = Scaled(3.0)
    model(X)
    model.save(tmp_path / "s.keras")
    with pytest.raises(TypeError, match="Could not locate class 'Scaled'"):
        tf.keras.models.load_model(tmp_path / "s.keras")
    loaded = tf.keras.models.load_model(tmp_path / "s.keras", custom_objects={"Scaled": Scaled})
    assert loaded.factor == 3.0
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))
    with tf.keras.utils.custom_object_scope({"Scaled": Scaled}):
        assert isinstance(tf.keras.models.load_model(tmp_path / "s.keras"), Scaled)
    groups, _ = _groups_of(model, tmp_path)
    assert "dense/vars" in groups              # an attribute is saved under its own name


def _groups_of(model, tmp_path):
    model.save_weights(tmp_path / "g.weights.h5")
    return _groups(tmp_path / "g.weights.h5")


def test_weights_h5_round_trip_and_refusals(tmp_path):
    model, other = _seq(), _seq(compiled=False)
    model.save_weights(tmp_path / "w.weights.h5")
    other.load_weights(tmp_path / "w.weights.h5")
    np.testing.assert_array_equal(other.predict(X, verbose=0), model.predict(X, verbose=0))
    other.load_weights(tmp_path / "w.weights.h5")        # a .keras file's weights load too
    with pytest.raises(ValueError, match="The filename must end in `.weights.h5`"):
        model.save_weights(tmp_path / "w.h5")
    with pytest.raises(NotImplementedError, match="zipped=False"):
        model.save(tmp_path / "m", zipped=False)
    with pytest.raises(NotImplementedError, match="Lambda"):
        tf.keras.Sequential([tf.keras.Input((4,)), L.Lambda(lambda t: t * 2)]).save(
            tmp_path / "l.keras")
    assert not list(tmp_path.glob(".*tmp-*"))           # a refused save leaves no temporary




def test_a_damaged_file_is_explained_in_the_learners_language(tmp_path):
    path = tmp_path / "cut.keras"
    _seq().save(path)
    path.write_bytes(path.read_bytes()[:200])
    old = i18n.get_language()
    try:
        i18n.set_language("zh")
        with pytest.raises(ValueError) as info:
            tf.keras.models.load_model(path)
    finally:
        i18n.set_language(old)
    text = str(info.value)
    assert text.startswith(f"File not found: filepath={path}")   # Keras's own sentence first
    assert "不是可读取的 .keras 归档" in text and str(path) in text.split("\n", 1)[1]


def test_functional_outputs_keep_their_structure(tmp_path):
    inp = tf.keras.Input((4,), name="features")
    hidden = L.Dense(3, name="hidden")(inp)
    listed = tf.keras.Model(inp, [L.Dense(1, name="head")(hidden)])
    listed.save(tmp_path / "listed.keras")
    loaded = tf.keras.models.load_model(tmp_path / "listed.keras")
    assert isinstance(loaded.outputs, list) and len(loaded.outputs) == 1
    shared = L.Dense(3, name="shared")                   # one layer called twice: two nodes
    inp2 = tf.keras.Input((3,), name="x")
    twice = tf.keras.Model(inp2, shared(shared(inp2)))
    twice.save(tmp_path / "twice.keras")
    again = tf.keras.models.load_model(tmp_path / "twice.keras")
    x = X[:, :3]
    np.testing.assert_allclose(again.predict(x, verbose=0), twice.predict(x, verbose=0),
                               rtol=1e-6)
    assert len(again.weights) == 2


def test_tf_keras_layout_when_selected(tmp_path, monkeypatch):
    """tf-keras (TF_USE_LEGACY_KERAS=1) writes its own variant: no name attributes, the
    metrics' variables, tf-keras's version and config forms (checked against tf-keras itself
    in tests/tf_crosscheck/test_keras_files.py)."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    model = tf.keras.Sequential([L.Dense(2, input_shape=(4,))])
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    model.fit(X, X[:, :2], verbose=0)
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as z:
        assert json.loads(z.read("metadata.json"))["keras_version"] == "2.21.0"
        config = json.loads(z.read("config.json"))
        (tmp_path / "w.h5").write_bytes(z.read("model.weights.h5"))
    assert "batch_input_shape" in config["config"]["layers"][0]["config"]
    groups, names = _groups(tmp_path / "w.h5")
    assert "metrics/mean/vars" in groups and "metrics/mean_metric_wrapper/vars" in groups
    assert set(names.values()) == {None}
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))


def test_tf_keras_hdf5_weights(tmp_path, monkeypatch):
    """tf-keras's save_weights("w.h5") (hdf5_format): layer_names, one group per layer with its
    weight_names; loading matches layers by order, with tf-keras's errors; Keras 3 reads it."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    model = _seq()
    model.save_weights(tmp_path / "w.h5")
    with h5py.File(tmp_path / "w.h5") as f:
        assert list(f.attrs["layer_names"]) == [l.name for l in model.layers]
        first = model.layers[0].name
        assert list(f[first].attrs["weight_names"]) == [f"{first}/kernel:0", f"{first}/bias:0"]
        assert f[f"{first}/{first}/kernel:0"].shape == (4, 3)
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "0")
    other = _seq(compiled=False)
    other.load_weights(tmp_path / "w.h5")
    np.testing.assert_array_equal(other.predict(X, verbose=0), model.predict(X, verbose=0))
    deeper = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3), L.Dense(3), L.Dense(2)])
    with pytest.raises(ValueError, match="Layer count mismatch when loading weights from file. "
                                         "Model expected 3 layers, found 2 saved layers.") as e:
        deeper.load_weights(tmp_path / "w.h5")
    assert str(tmp_path / "w.h5") in str(e.value)


@pytest.mark.parametrize("legacy", ["0", "1"])
def test_legacy_hdf5_full_model(tmp_path, monkeypatch, legacy):
    """model.save("m.h5") / load_model: model_config, training_config, model_weights and
    optimizer_weights as Keras 3's legacy_h5_format (or tf-keras's hdf5_format) writes them."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", legacy)
    model = _seq()
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5") as f:
        assert set(f.attrs) == {"backend", "keras_version", "model_config", "training_config"}
        assert json.loads(f.attrs["model_config"])["class_name"] == "Sequential"
        optimizer = json.loads(f.attrs["training_config"])["optimizer_config"]["class_name"]
        assert optimizer == ("Adam" if legacy == "0" else "Custom>Adam")
        assert set(f) == {"model_weights", "optimizer_weights"}
    loaded = tf.keras.models.load_model(tmp_path / "m.h5")
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))
    assert int(loaded.optimizer.iterations.numpy()) == 1
    (tmp_path / "bad.h5").write_bytes(b"not hdf5")
    with pytest.raises(OSError, match="bad.h5"):
        tf.keras.models.load_model(tmp_path / "bad.h5")
    model.save_weights(tmp_path / "w.weights.h5")
    with pytest.raises(ValueError, match="No model config found"):
        tf.keras.models.load_model(tmp_path / "w.weights.h5")


def test_skip_mismatch_warns_and_loads_the_rest(tmp_path):
    wide = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3, activation="relu"), L.Dense(5)])
    wide.save_weights(tmp_path / "w.weights.h5")
    model = _seq(compiled=False)
    before = model.layers[1].get_weights()
    with pytest.raises(ValueError, match="A total of 1 objects could not be loaded"):
        model.load_weights(tmp_path / "w.weights.h5")
    with pytest.warns(UserWarning, match="A total of 1 objects could not be loaded"):
        model.load_weights(tmp_path / "w.weights.h5", skip_mismatch=True)
    np.testing.assert_array_equal(model.layers[0].get_weights()[0], wide.layers[0].get_weights()[0])
    np.testing.assert_array_equal(model.layers[1].get_weights()[1], before[1])


def test_saved_files_get_the_mode_open_gives(tmp_path):
    """The temporary file is mkstemp's (0600); the saved file has the mode a plain open()
    gives under the process umask, as TensorFlow's files do."""
    import os
    mask = os.umask(0o022)
    try:
        _seq().save(tmp_path / "m.keras")
    finally:
        os.umask(mask)
    assert (tmp_path / "m.keras").stat().st_mode & 0o777 == 0o644
