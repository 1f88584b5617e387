"""Issue 24, item 9: TF_CONFIG addresses are checked (a port from 1 to 65535, a host, not empty),
deep nesting is a ValueError rather than a raw RecursionError, and a damaged checkpoint state
file is named by SidecarEvaluator (DataLossError saying what is wrong) instead of evaluating
nothing; latest_checkpoint and CheckpointManager log it and carry on, as TensorFlow does."""
import json
import logging
import os
import signal

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n
from sim.distribute import tf_config


def _config(address):
    return {"cluster": {"worker": [address, "localhost:23456"]}, "task": {"type": "worker", "index": 0}}


@pytest.mark.parametrize("address, words", [
    ("localhost:70000", 'its port "70000" is not a number from 1 to 65535'),
    ("localhost:0", 'its port "0" is not a number from 1 to 65535'),
    ("localhost:-5", 'its port "-5" is not a number'),
    ("localhost:abc", 'its port "abc" is not a number'),
    ("localhost", "which has no port"),
    ("::1", "which has no port"),
    (":12345", "which has no host"),
    ("", "is an empty address"),
])
@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_a_bad_address_is_named_with_a_corrected_tf_config(address, words, lang):
    i18n.set_language(lang)
    try:
        with pytest.raises(ValueError) as info:
            tf_config.validate(_config(address))
    finally:
        i18n.set_language("en")
    text = str(info.value)
    assert 'TF_CONFIG["cluster"]["worker"][0]' in text
    if lang == "en":
        assert words in text
    fixed = json.loads(text.rsplit("\n", 1)[1])
    assert tf_config.validate(fixed) is not None           # the corrected TF_CONFIG passes


@pytest.mark.parametrize("address", ["localhost:1", "10.1.10.58:65535", "[::1]:2222", "host.example.com:80"])
def test_good_addresses_pass(address):
    assert tf_config.validate(_config(address)).task_id == 0


def test_deep_nesting_is_a_value_error_not_a_recursion_error():
    with pytest.raises(ValueError, match="nests lists or objects too deeply"):
        tf_config.load({"TF_CONFIG": "[" * 100_000})


# ------------------------------------------------------------------ damaged state files

def _trained_dir(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), str(tmp_path), max_to_keep=2)
    manager.save()
    data = tf.data.Dataset.from_tensor_slices((np.ones((4, 2), np.float32), np.ones((4, 1), np.float32))).batch(2)
    return model, data


DAMAGED_STATES = {
    "not_json": (b"model_checkpoint_path: ckpt-1", "its text is not JSON"),
    "list": (b"[]", "it holds a JSON array"),
    "null": (b"null", "it holds a JSON null"),
    "latest_int": (b'{"model_checkpoint_path": 7}', "its model_checkpoint_path is a JSON number"),
    "list_int": (b'{"model_checkpoint_path": "ckpt-1", "all_model_checkpoint_paths": 7}',
                 "its all_model_checkpoint_paths is a JSON number"),
    "list_of_ints": (b'{"model_checkpoint_path": "ckpt-1", "all_model_checkpoint_paths": [1]}',
                     "is a JSON array of number"),
    "not_utf8": (b"\xff\xfe\x00garbage", "not UTF-8"),
    "deep": (b"[" * 100_000, "its text is not JSON"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED_STATES))
def test_sidecar_evaluator_names_a_damaged_state_file(tmp_path, case, caplog):
    model, data = _trained_dir(tmp_path)
    data_bytes, words = DAMAGED_STATES[case]
    (tmp_path / "checkpoint").write_bytes(data_bytes)
    sidecar = tf.keras.utils.SidecarEvaluator(model=model, data=data, checkpoint_dir=str(tmp_path))
    with pytest.raises(tf.errors.DataLossError) as info:
        sidecar.start()
    assert str(tmp_path / "checkpoint") in str(info.value) and words in str(info.value)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):     # TensorFlow's way: log, go on
        assert tf.train.latest_checkpoint(str(tmp_path)) is None
        manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), str(tmp_path), 2)
    assert manager.checkpoints == [] and "Checkpoint ignored" in caplog.text


@pytest.fixture
def no_hang():
    """A regression would block on the FIFO forever: SIGALRM ends the test run instead."""
    signal.alarm(30)
    yield
    signal.alarm(0)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_state_file_never_blocks(tmp_path, no_hang):
    model, data = _trained_dir(tmp_path)
    os.remove(tmp_path / "checkpoint")
    os.mkfifo(tmp_path / "checkpoint")
    with pytest.raises(tf.errors.DataLossError, match="not a regular file"):
        tf.keras.utils.SidecarEvaluator(model=model, data=data, checkpoint_dir=str(tmp_path)).start()
    assert tf.train.latest_checkpoint(str(tmp_path)) is None


def test_sidecar_evaluator_still_evaluates_a_good_directory(tmp_path):
    model, data = _trained_dir(tmp_path)
    results = tf.keras.utils.SidecarEvaluator(model=model, data=data, checkpoint_dir=str(tmp_path)).start()
    assert [os.path.basename(p) for p, _ in results] == ["ckpt-1"] and "loss" in results[0][1]
