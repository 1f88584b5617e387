"""Exercise 03's checker: the reference passes, each known mistake is named, a stub is "not done"."""
import pytest

import sim.tf as tf
from sim.course.exercises import lesson03_custom_loop_loss as ex
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.i18n import get_language, set_language, t


@pytest.fixture(autouse=True)
def _english_on_the_course_machine():
    from sim.distribute import _machine
    before = get_language()
    set_language("en")
    _machine.use_machine("workstation-4gpu")
    yield
    set_language(before)


def test_reference_solution_passes(capsys):
    assert ex.check_compute_loss(ex.reference_compute_loss) is None
    assert "All 5 cases pass" in capsys.readouterr().out


def test_the_guide_written_by_a_learner_passes(capsys):
    loss_object = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)

    def compute_loss(labels, predictions, model_losses, global_batch_size):
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)
        if model_losses:
            loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        return loss

    assert ex.check_compute_loss(compute_loss) is None


def test_the_cases_split_as_tensorflow_does():
    described = [c.description for c in ex.cases()]
    assert "[3, 3, 3, 1]" in described[3] and "[4, 3]" in described[4]


@pytest.mark.parametrize("data_loss, regularization, hint", [
    ("local_mean", "scaled", "lesson03.hint_local_mean"),
    ("positional", "scaled", "lesson03.hint_positional"),
    ("over_replicas", "scaled", "lesson03.hint_over_replicas"),
    ("global", "unscaled", "lesson03.hint_reg_unscaled"),
    ("global", "missing", "lesson03.hint_reg_missing"),
    ("default_global", "scaled", "lesson03.hint_default_global"),
])
def test_known_mistakes_are_named(data_loss, regularization, hint, capsys):
    with pytest.raises(ExerciseFailed) as failure:
        ex.check_compute_loss(ex._mistake(data_loss, regularization))
    assert not isinstance(failure.value, ExerciseNotDone)
    assert t(hint) in str(failure.value)


def test_a_mistake_is_named_in_the_course_language(capsys):
    set_language("zh")
    with pytest.raises(ExerciseFailed) as failure:
        ex.check_compute_loss(ex._mistake("local_mean", "scaled"))
    assert t("lesson03.hint_local_mean", lang="zh") in str(failure.value)
    assert "apply_gradients" in str(failure.value) and "副本" in str(failure.value)


@pytest.mark.parametrize("legacy", [None, "1"])
def test_a_keras_loss_with_the_default_reduction_shows_tensorflows_error(capsys, monkeypatch, legacy):
    # tf-keras refuses the loss under the strategy; Keras 3 returns the replica's scaled mean, a
    # scalar, and compute_average_loss refuses that (its explanation names reduction=NONE).
    if legacy:
        monkeypatch.setenv("TF_USE_LEGACY_KERAS", legacy)
    else:
        monkeypatch.delenv("TF_USE_LEGACY_KERAS", raising=False)
    loss_object = tf.keras.losses.MeanSquaredError()

    def compute_loss(labels, predictions, model_losses, global_batch_size):
        return tf.nn.compute_average_loss(loss_object(labels, predictions),
                                          global_batch_size=global_batch_size)

    expected = "Reduction.NONE" if legacy else "at least rank 1(.|\n)*Hint: your loss object returned one number"
    with pytest.raises(ExerciseFailed, match=expected):
        ex.check_compute_loss(compute_loss)


def test_the_stub_is_reported_not_done(capsys):
    def compute_loss(labels, predictions, model_losses, global_batch_size):
        # YOUR CODE HERE
        raise NotImplementedError()

    with pytest.raises(ExerciseNotDone) as failure:
        ex.check_compute_loss(compute_loss)
    out = str(failure.value)
    assert "Not done yet" in out and "compute_loss" in out
