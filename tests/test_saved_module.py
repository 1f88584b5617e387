"""A tf.Module's SavedModel: variables, generators, lists and dicts rebuilt, its tf.functions
callable as traced (TensorFlow 2.21's output for the same script, measured, in the comments)."""
import json
import os

import numpy as np
import pytest

import sim.tf as tf

SCALE = 3           # a plain global a saved function may read


class Holder(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0])
        self.listed = [tf.Variable(3.0)]
        self.mapped = {"a": tf.Variable(4)}
        self.g = tf.random.Generator.from_seed(0)
        self.child = tf.Module()
        self.child.w = tf.Variable(7.0, trainable=False)

    @tf.function
    def f(self, x):
        print("traced f")
        return self.v * x * SCALE

    @tf.function
    def __call__(self):
        return self.g.normal([])

    @tf.function
    def untraced(self):
        return self.v


def _saved(tmp_path):
    m = Holder()
    m.f(tf.constant(2.0))
    m.f(3.0)
    m()
    tf.saved_model.save(m, str(tmp_path / "m"))
    return m, tf.saved_model.load(str(tmp_path / "m"))


def test_variables_and_the_tree_come_back(tmp_path):
    m, r = _saved(tmp_path)
    np.testing.assert_array_equal(r.v.numpy(), [1.0, 2.0])
    assert repr(r.listed).startswith("ListWrapper([<tf.Variable") and float(r.listed[0]) == 3.0
    assert isinstance(r.mapped, dict) and int(r.mapped["a"]) == 4 and r.mapped["a"].dtype == tf.int32
    assert float(r.child.w) == 7.0 and not r.child.w.trainable
    assert type(r).__name__ == "_UserObject"
    assert sorted(os.listdir(tmp_path / "m")) == ["sim_saved_module.json", "variables.npz"]


def test_a_loaded_function_runs_as_traced_and_its_print_is_silent(tmp_path, capsys):
    m, r = _saved(tmp_path)
    capsys.readouterr()
    np.testing.assert_allclose(r.f(tf.constant(5.0)).numpy(), [15.0, 30.0])
    np.testing.assert_allclose(r.f(3.0).numpy(), [9.0, 18.0])
    np.testing.assert_allclose(r.f(4.0).numpy(), [12.0, 24.0])   # TF: fits the scalar tensor
    assert capsys.readouterr().out == ""


def test_a_call_unlike_every_traced_one_is_tensorflows_value_error(tmp_path):
    m, r = _saved(tmp_path)
    with pytest.raises(ValueError) as e:
        r.f(tf.constant([1.0, 2.0]))
    text = str(e.value)
    assert text.startswith("Could not find matching concrete function to call loaded from the SavedModel. Got:")
    assert "<tf.Tensor 'x:0' shape=(2,) dtype=float32>" in text
    assert "one of the following 2 option(s)" in text
    assert "TensorSpec(shape=(), dtype=tf.float32, name='x')" in text and "    * 3.0" in text


def test_the_generator_goes_on_from_its_saved_state(tmp_path):
    m, r = _saved(tmp_path)
    np.testing.assert_array_equal(r.g.state.numpy(), m.g.state.numpy())
    expected = float(m())                    # the saved object draws the next number...
    assert float(r()) == expected            # ...and so does the loaded one, from the same state
    assert not hasattr(r, "untraced")        # never traced: not saved


def test_a_global_object_the_source_needs_is_refused_with_what_to_do(tmp_path):
    table = {"k": 1}

    class Reads(tf.Module):
        @tf.function
        def f(self):
            return tf.constant(LOOKUP["k"])
    globals()["LOOKUP"] = table
    try:
        m = Reads()
        m.f()
        with pytest.raises(ValueError, match=r"reads the global LOOKUP \(a dict\).*Keep what it uses"):
            tf.saved_model.save(m, str(tmp_path / "r"))
    finally:
        del globals()["LOOKUP"]


def test_a_damaged_marker_is_an_os_error_naming_the_file(tmp_path):
    _saved(tmp_path)
    marker = tmp_path / "m" / "sim_saved_module.json"
    data = json.loads(marker.read_text())
    data["root"]["kind"] = "pickle"
    marker.write_text(json.dumps(data))
    with pytest.raises(OSError, match="sim_saved_module.json: unknown node kind 'pickle'"):
        tf.saved_model.load(str(tmp_path / "m"))
    marker.write_text("{not json")
    with pytest.raises(OSError, match="Cannot parse file .*sim_saved_module.json"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_a_fifo_in_place_of_the_marker_is_refused_at_once(tmp_path):
    """Read as the Keras SavedModel's marker is (saved_model_dir.read_json): a FIFO would block."""
    _saved(tmp_path)
    marker = tmp_path / "m" / "sim_saved_module.json"
    marker.unlink()
    os.mkfifo(marker)
    with pytest.raises(OSError, match="Cannot parse file .*sim_saved_module.json: not a sim.tf.saved_module/1 file"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_a_closure_the_source_needs_is_refused_in_the_course_language(tmp_path):
    from sim import i18n
    factor = tf.constant(2.0)

    class Closes(tf.Module):
        @tf.function
        def f(self):
            return factor * 2
    m = Closes()
    m.f()
    before = i18n.get_language()
    try:
        for lang, said in (("en", "reads factor from the function around it. Keep what it uses"),
                           ("zh", "它从外层函数读取了 factor。请把它用到的东西放在模块本身上"),
                           ("pt", "ela lê factor da função que a envolve. Guarde o que ela usa")):
            i18n.set_language(lang)
            with pytest.raises(ValueError, match=said):
                tf.saved_model.save(m, str(tmp_path / lang))
    finally:
        i18n.set_language(before)


def test_a_lambda_is_refused_with_what_to_write_instead(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.f = tf.function(lambda: m.v * 2)
    m.f()
    with pytest.raises(ValueError, match=r"tf.function root.f as its Python source, and it is not a def.*Write it as a def"):
        tf.saved_model.save(m, str(tmp_path / "l"))
