"""Misuse of public entries gets TensorFlow's error type and text, then the course's explanation
in the learner's language (issue 9, bugs 6 and 7)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n
from sim.collectives import all_reduce

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def zh():
    before = i18n.get_language()
    i18n.set_language("zh")
    yield
    i18n.set_language(before)


def _note(key, **fields):
    """The first words of a catalogue message in the current language."""
    return i18n.t("misuse." + key, **fields)[:12]


# ------------------------------------------------------------------ bug 6

def _model():
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    m.compile(optimizer="sgd", loss="mse")
    return m


@pytest.mark.parametrize("data", ["arrays", "dataset"])
def test_fit_on_empty_data_says_the_data_is_empty(zh, data):
    x, y = np.zeros((0, 2), np.float32), np.zeros((0, 1), np.float32)
    if data == "dataset":
        x, y = tf.data.Dataset.from_tensor_slices((x, y)).batch(2), None
    with pytest.raises(ValueError, match=r"Unexpected result of `train_function` \(Empty logs\)") \
            as info:
        _model().fit(x, y, verbose=0)
    assert _note("fit_empty_data") in str(info.value)


def test_fit_that_runs_out_in_a_later_epoch_still_returns():
    """Keras' rule: only a first epoch with no batch is an error; data that runs out later
    ends training with a warning."""
    ds = tf.data.Dataset.from_tensor_slices((np.ones((4, 2)), np.ones((4, 1)))).batch(2)
    with pytest.warns(UserWarning, match="Your input ran out of data"):
        history = _model().fit(ds, epochs=3, steps_per_epoch=3, verbose=0)
    assert len(history.history["loss"]) == 1


def test_all_reduce_rejects_a_device_listed_twice(zh):
    with pytest.raises(ValueError) as info:
        all_reduce([np.ones(3)] * 2, devices=["/gpu:0", "/gpu:0"])
    assert _note("allreduce_duplicate_device", device="/gpu:0", devices="") in str(info.value)


def test_all_reduce_counts_arrays_and_devices_the_right_way_round():
    with pytest.raises(ValueError, match="Got 5 arrays, but the machine 'workstation-4gpu' has "
                                         "only 4 devices"):
        all_reduce([np.ones(3)] * 5)
    with pytest.raises(ValueError, match="Got 5 arrays for 2 devices"):
        all_reduce([np.ones(3)] * 5, devices=["/gpu:0", "/gpu:1"])


# ------------------------------------------------------------------ bug 7

def test_run_of_a_non_function(zh):
    s = tf.distribute.MirroredStrategy()
    with pytest.raises(TypeError, match="'int' object is not callable") as info:
        s.run(42)
    assert _note("run_not_callable", got="42") in str(info.value)


@pytest.mark.parametrize("where", ["strategy.reduce", "replica_context.all_reduce"])
def test_an_unknown_reduce_op(zh, where):
    s = tf.distribute.MirroredStrategy()
    with pytest.raises(ValueError) as info:
        if where == "strategy.reduce":
            s.reduce("MAX", tf.constant(1.0), axis=None)
        else:
            s.run(lambda: tf.distribute.get_replica_context().all_reduce("BOGUS", tf.constant(1.)))
    text = str(info.value)
    assert "is not a valid ReduceOp" in text
    assert _note("reduce_op", op="x")[4:] in text


def test_all_reduce_given_text_instead_of_arrays(zh):
    with pytest.raises(TypeError) as info:
        all_reduce("BOGUS")
    assert _note("allreduce_arrays_text", got="'BOGUS'") in str(info.value)


def test_a_sparse_label_out_of_range(zh):
    loss = tf.keras.losses.SparseCategoricalCrossentropy()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Received a label value of 5 which is outside the valid range") as info:
        loss(np.array([5]), np.array([[0.2, 0.8]]))
    assert _note("label_range", label=5, n=2, last=1) in str(info.value)


_NAN_INF = """
import warnings
import numpy as np
import sim.tf as tf
with warnings.catch_warnings(record=True) as caught:
    tf.math.log(tf.constant([0.0, -1.0]))
    tf.constant([1.0]) / tf.constant([0.0])
    tf.exp(tf.constant([1000.0]))
    tf.nn.softmax(tf.constant([[np.inf, 1.0]]))
    x = tf.Variable([np.nan, 1.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.log(x * 0.0))
    tape.gradient(y, x)
    np.log(np.zeros(1))                     # the learner's own NumPy still warns
print(sorted({str(w.message) for w in caught}))
"""


def test_nan_and_inf_inputs_raise_no_numpy_warning_from_the_engine():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-W", "always", "-c", _NAN_INF], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "['divide by zero encountered in log']", out.stderr


@pytest.mark.parametrize("how", ["SIM_LANG", "setup"])
def test_an_unknown_course_language_is_the_same_error_both_ways(how):
    code = "import sim" if how == "SIM_LANG" else "import sim; sim.setup('fr')"
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("SIM_LANG", None)
    if how == "SIM_LANG":
        env["SIM_LANG"] = "fr"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ValueError: Unknown course language 'fr'"), last
    assert "choose one of en, zh, pt" in last
