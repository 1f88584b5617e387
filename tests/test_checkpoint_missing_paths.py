"""A weights path with nothing there, and a checkpoint directory whose ``checkpoint`` name is taken
by a sub-directory: TensorFlow 2.21's error classes (cross-checked: scenario
missing_weights_and_state_directory, Keras 3 and tf-keras), each followed by the course's line."""
import os

import pytest

import sim.tf as tf
from keras_selection import keras  # noqa: F401  (the fixture)
from sim.engine.errors import FailedPreconditionError, NotFoundError

PREFIX_ERROR = {"keras3": ValueError, "tf-keras": NotFoundError}


def _model():
    return tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])


@pytest.mark.parametrize("name", ["missing.weights.h5", "missing.h5", "missing.keras"])
def test_a_missing_weights_file_is_file_not_found(tmp_path, keras, name):
    with pytest.raises(FileNotFoundError, match="No weights file at .*" + name.replace(".", r"\.")):
        _model().load_weights(tmp_path / name)


@pytest.mark.parametrize("name", ["missing_prefix", os.path.join("no_dir", "ckpt-1")])
def test_a_missing_checkpoint_prefix_is_tensorflows_error(tmp_path, keras, name):
    with pytest.raises(PREFIX_ERROR[keras]) as caught:
        _model().load_weights(tmp_path / name)
    assert not isinstance(caught.value, FileNotFoundError)
    text = str(caught.value)
    assert str(tmp_path / name) in text and "No weights file at" in text
    start = ("Unsuccessful TensorSliceReader constructor" if keras == "tf-keras"
             else "File format not supported")
    assert text.startswith(start)


def test_a_directory_named_checkpoint_blocks_the_state_file(tmp_path):
    (tmp_path / "checkpoint").mkdir()
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(ckpt, tmp_path, max_to_keep=2)
    for save in (manager.save, lambda: ckpt.save(tmp_path / "ck")):
        with pytest.raises(FailedPreconditionError) as caught:
            save()
        text = str(caught.value)
        assert f"{tmp_path / 'checkpoint'}; Is a directory" in text
        assert "Rename or move that directory" in text
    assert tf.train.latest_checkpoint(tmp_path) is None
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".checkpoint")]   # no temp left
