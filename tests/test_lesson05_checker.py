"""Exercise 05's checker: the reference passes, each known mistake is named, the stub is "not done"."""
import pytest

from sim.course.exercises import lesson05_bytes_per_step as ex
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.i18n import set_language, t


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


def test_reference_solution_passes(capsys):
    assert ex.check_bytes_per_gpu(ex.reference) is None
    assert "All 10 cases pass" in capsys.readouterr().out


def test_simulator_all_reduces_the_whole_model_once():
    for model in ex.MODELS:
        step = ex.simulated_step("mirrored", model)
        assert step["allreduce_bytes"] == 4 * step["params"] == step["variable_bytes"]


@pytest.mark.parametrize("wrong, key", [(w, k) for w, k in ex.MISTAKES])
def test_known_mistakes_are_named(wrong, key, capsys):
    with pytest.raises(ExerciseFailed) as error:
        ex.check_bytes_per_gpu(wrong)
    assert t(key) in str(error.value)


def test_one_device_mistake_is_named():
    def moves_on_one_device(strategy, num_params, num_gpus):
        return (4.0 * num_params, 4.0 * num_params) if strategy == "one_device" \
            else ex.reference(strategy, num_params, num_gpus)
    with pytest.raises(ExerciseFailed) as error:
        ex.check_bytes_per_gpu(moves_on_one_device)
    assert t("lesson05.ex_hint_one_device") in str(error.value)


def test_a_single_number_is_refused_with_a_hint():
    with pytest.raises(ExerciseFailed) as error:
        ex.check_bytes_per_gpu(lambda strategy, num_params, num_gpus: 4.0 * num_params)
    assert t("lesson05.ex_hint_shape") in str(error.value)


def test_stub_is_reported_not_done(capsys):
    def bytes_per_gpu(strategy, num_params, num_gpus):
        raise NotImplementedError()
    with pytest.raises(ExerciseNotDone) as failure:
        ex.check_bytes_per_gpu(bytes_per_gpu)
    assert "Not done yet" in str(failure.value)


@pytest.mark.parametrize("lang", ["zh", "pt"])
def test_hints_speak_the_course_language(lang):
    set_language(lang)
    with pytest.raises(ExerciseFailed) as error:
        ex.check_bytes_per_gpu(ex._no_variable_reads)
    assert t("lesson05.ex_hint_central_reads", lang=lang) in str(error.value)
