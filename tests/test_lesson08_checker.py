"""Exercise 08's checkers: the reference passes, an empty gap fails helpfully, usual mistakes get their hint."""
import pytest

from sim.course.exercises import lesson08_noise_scale as noise
from sim.course.exercises import lesson08_scaled_lr as scaled
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.i18n import set_language

pytestmark = pytest.mark.lesson08


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def test_scaled_lr_reference_passes(capsys):
    assert scaled.check_global_batch_and_learning_rate(scaled.reference) is None
    assert f"All {len(scaled.CASES)} cases pass" in capsys.readouterr().out


def test_scaled_lr_expected_values_are_the_rules():
    assert scaled.reference(32, 2, 8, 0.1, 256, "linear") == (512, pytest.approx(0.2))
    assert scaled.reference(32, 2, 8, 0.1, 256, "sqrt") == (512, pytest.approx(0.1 * 2 ** 0.5))
    assert scaled.reference(5, 2, 2, 0.1, 5, "guide") == (20, 0.175)


@pytest.mark.parametrize("wrong, hint", [
    (scaled._only_workers, "by the number of workers only"),
    (scaled._only_gpus, "GPUs of one worker only"),
    (scaled._per_replica_ratio, "not the per-replica batch"),
    (scaled._inverted_ratio, "upside down"),
    (scaled._swapped_rules, "rules are swapped"),
])
def test_scaled_lr_usual_mistakes_are_named(wrong, hint):
    def answer(*args):
        batch, rate = wrong(*args)
        return batch, rate if rate is not None else scaled.reference(*args)[1]
    with pytest.raises(ExerciseFailed, match=hint):
        scaled.check_global_batch_and_learning_rate(answer)


def test_scaled_lr_guide_computed_as_a_rule_is_named():
    def answer(p, w, g, lr, b0, rule):
        batch = p * w * g
        return batch, lr * batch / b0 if rule == "guide" else scaled.reference(p, w, g, lr, b0, rule)[1]
    with pytest.raises(ExerciseFailed, match="LEARNING_RATES_BY_BATCH_SIZE"):
        scaled.check_global_batch_and_learning_rate(answer)


def test_scaled_lr_wrong_shape_is_explained():
    with pytest.raises(ExerciseFailed, match=r"return a pair \(global_batch, learning_rate\)"):
        scaled.check_global_batch_and_learning_rate(lambda *args: 0.2)


def test_noise_reference_passes(capsys):
    assert noise.check_critical_batch_size(noise.reference) is None
    assert f"All {len(noise.CASES)} cases pass" in capsys.readouterr().out


@pytest.mark.parametrize("wrong, hint", [
    (noise._mean_of_ratios, "averaged the ratio of each pair"),
    (noise._swapped_sizes, "b_small and b_big are swapped"),
    (noise._big_norm_as_true_gradient, r"\|G_big\|\^2 is not \|G\|\^2"),
    (noise._no_batch_weights, "divided by"),
])
def test_noise_usual_mistakes_are_named(wrong, hint):
    with pytest.raises(ExerciseFailed, match=hint):
        noise.check_critical_batch_size(wrong)


def test_noise_measurements_are_deterministic_and_recover_the_closed_form():
    from sim.scaling import linear_regression_noise_scales
    from sim.scaling.regression import StreamingRegression
    import numpy as np
    a = noise.measurements(8, 64, 400, 1.0, 0)
    noise.measurements.cache_clear()
    assert noise.measurements(8, 64, 400, 1.0, 0) == a
    problem = StreamingRegression(seed=0)
    rng = np.random.default_rng([0, 8])
    w = problem.w_star + 1.0 * rng.standard_normal(problem.dim)
    exact, _ = linear_regression_noise_scales(problem.cov, w - problem.w_star, 1.0)
    assert noise.reference(8, 64, *a) == pytest.approx(exact, rel=0.25)   # 400 pairs only


@pytest.mark.parametrize("check, name", [
    (scaled.check_global_batch_and_learning_rate, "global_batch_and_learning_rate"),
    (noise.check_critical_batch_size, "critical_batch_size"),
])
def test_unfinished_function_is_reported_as_not_done(check, name):
    def unfinished(*args):
        raise NotImplementedError()
    unfinished.__name__ = name
    with pytest.raises(ExerciseNotDone, match=f"Not done yet: \"{name}\""):
        check(unfinished)


def test_hints_speak_the_course_language():
    set_language("zh")
    with pytest.raises(ExerciseFailed, match="两条规则弄反了"):
        scaled.check_global_batch_and_learning_rate(
            lambda *a: (scaled._swapped_rules(*a)[0], scaled._swapped_rules(*a)[1] or scaled.reference(*a)[1]))
    set_language("pt")
    with pytest.raises(ExerciseFailed, match="b_small e b_big estão trocados"):
        noise.check_critical_batch_size(noise._swapped_sizes)


def test_catalogue_has_the_same_keys_in_every_language():
    import json
    from pathlib import Path
    data = json.loads((Path(scaled.__file__).parents[2] / "i18n" / "catalogs" / "lesson08.json")
                      .read_text(encoding="utf-8"))
    assert set(data["en"]) == set(data["zh"]) == set(data["pt"])
