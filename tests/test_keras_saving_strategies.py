"""Keras 3 files under tf.distribute (sim/keras/saving): a model saved under one strategy loads
under another or none with the same predictions, as TensorFlow's save-and-load tutorial shows;
ParameterServerStrategy's sharded variables are saved whole. The multi-worker save (the chief
writes, the others write to temporary paths they remove) runs through the launcher in
tests/tf_crosscheck/test_keras_files.py, next to TensorFlow's own run."""
from __future__ import annotations

import h5py
import numpy as np
import zipfile

import sim.tf as tf
from tests.ps_cluster import Resolver

L = tf.keras.layers
X = np.random.default_rng(5).normal(size=(16, 4)).astype("float32")
Y = X @ np.array([[1.0], [-2.0], [0.5], [1.5]], np.float32)


def _trained(strategy):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(8, activation="relu"),
                                     L.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    model.fit(X, Y, batch_size=8, epochs=2, verbose=0)
    return model


def test_saved_under_mirrored_loads_under_default_and_another_mirrored(tmp_path):
    saving = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    model = _trained(saving)
    model.save(tmp_path / "m.keras")
    expected = model.predict(X, verbose=0)
    plain = tf.keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(plain.predict(X, verbose=0), expected)
    assert int(plain.optimizer.iterations.numpy()) == 4
    other = tf.distribute.MirroredStrategy()            # all four GPUs of the machine
    with other.scope():
        mirrored = tf.keras.models.load_model(tmp_path / "m.keras")
    assert type(mirrored.weights[0]).__name__ == "Variable"          # Keras 3's, over a mirror
    assert len(mirrored.weights[0]._values) == 4
    assert mirrored.distribute_strategy is other
    np.testing.assert_allclose(mirrored.predict(X, verbose=0), expected, rtol=1e-6, atol=1e-7)
    # training on under the new strategy starts from the saved Adam moments (batches of 8
    # split evenly over 2 and 4 replicas, so both sum the same global mean)
    for a, b in zip(mirrored.optimizer.variables[2:], model.optimizer.variables[2:]):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    mirrored.fit(X, Y, batch_size=8, epochs=1, verbose=0)
    model.fit(X, Y, batch_size=8, epochs=1, verbose=0)
    np.testing.assert_allclose(mirrored.predict(X, verbose=0), model.predict(X, verbose=0),
                               rtol=1e-5, atol=1e-6)


def test_weights_h5_from_mirrored_into_an_unscoped_model(tmp_path):
    model = _trained(tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"]))
    model.save_weights(tmp_path / "w.weights.h5")
    plain = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(8, activation="relu"), L.Dense(1)])
    plain.load_weights(tmp_path / "w.weights.h5")
    np.testing.assert_array_equal(plain.predict(X, verbose=0), model.predict(X, verbose=0))


def test_parameter_server_sharded_embedding_is_saved_whole(tmp_path):
    strategy = tf.distribute.ParameterServerStrategy(
        Resolver(workers=1, ps=2),
        variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,), dtype="int32"), L.Embedding(10, 4),
                                     L.Flatten(), L.Dense(1)])
    table = model.layers[0].embeddings
    assert getattr(table, "_is_sharded_variable", False) and len(table.variables) == 2
    table.assign(np.arange(40, dtype=np.float32).reshape(10, 4))
    model.save(tmp_path / "ps.keras")
    with zipfile.ZipFile(tmp_path / "ps.keras") as z:
        (tmp_path / "w.h5").write_bytes(z.read("model.weights.h5"))
    with h5py.File(tmp_path / "w.h5") as f:
        assert sorted(f["layers/embedding/vars"]) == ["0"]          # one array, not two shards
        np.testing.assert_array_equal(f["layers/embedding/vars/0"][()],
                                      np.arange(40).reshape(10, 4))
    ids = np.array([[0, 5, 9], [1, 2, 3]], np.int32)
    loaded = tf.keras.models.load_model(tmp_path / "ps.keras")
    assert not getattr(loaded.layers[0].embeddings, "_is_sharded_variable", False)
    np.testing.assert_allclose(loaded.predict(ids, verbose=0), model.predict(ids, verbose=0),
                               rtol=1e-6)
    with strategy.scope():                                          # and back onto the shards
        again = tf.keras.models.load_model(tmp_path / "ps.keras")
    np.testing.assert_array_equal(again.layers[0].embeddings.variables[1].numpy(),
                                  np.arange(40, dtype=np.float32).reshape(10, 4)[5:])
