"""Exercise 11's checker: the expected answers, margins that make them unambiguous, and hints."""
import pytest

from sim.course.exercises import lesson11_plan as ex
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone


def test_expected_answers_are_clear_cut():
    answers = [c.expected for c in ex.cases()]
    assert answers == ["32x dgx1-p100, EDR", "64x dgx1-p100, EDR, 64/GPU", "32x dgx1-p100, EDR",
                       "1x dgx1-p100", None, None]
    for case in ex.cases():
        opts, epochs_of, examples, price, budget, deadline = case.args
        for hours, cost in (ex.hours_and_cost(o, epochs_of, examples, price) for o in opts.values()):
            assert abs(cost - budget) > 0.05 * budget and abs(hours - deadline) > 0.05 * deadline


def test_goyal_never_reaches_past_8k():
    opts = ex.options()
    assert ex.hours_and_cost(opts["32x dgx1-p100, EDR, 64/GPU"], ex.epochs_at("goyal-sgd"), ex.EXAMPLES,
                             ex.PRICE) == (float("inf"), float("inf"))


def test_step_times_are_the_plans():
    from sim.plan import Candidate, model_step
    devices, batch, step = ex.options()["16x dgx1-p100, EDR"]
    c = Candidate("dgx1-p100", 16, "edr-ib", 8, "mirrored-nccl", 64)
    assert (devices, batch) == (128, 64) and step == pytest.approx(model_step("resnet50", c).seconds, abs=1e-4)


def test_the_solution_passes_and_mistakes_get_their_hint():
    assert ex.check_choose_plan(ex.solution) is None

    def ignoring_deadline(options, epochs_at, examples, price, budget, deadline_hours):
        return ex.solution(options, epochs_at, examples, price, budget, float("inf"))
    with pytest.raises(ExerciseFailed, match="after the deadline"):
        ex.check_choose_plan(ignoring_deadline)

    def ignoring_budget(options, epochs_at, examples, price, budget, deadline_hours):
        return ex.solution(options, epochs_at, examples, price, float("inf"), deadline_hours)
    with pytest.raises(ExerciseFailed, match="costs more than the budget"):
        ex.check_choose_plan(ignoring_budget)

    def most_gpus(options, epochs_at, examples, price, budget, deadline_hours):
        return max(options, key=lambda n: options[n][0])
    with pytest.raises(ExerciseFailed, match="never gets there"):
        ex.check_choose_plan(most_gpus)

    def cheapest(options, epochs_at, examples, price, budget, deadline_hours):
        return min(options, key=lambda n: ex.hours_and_cost(options[n], epochs_at, examples, price)[1])
    with pytest.raises(ExerciseFailed, match="finishes sooner"):
        ex.check_choose_plan(cheapest)

    def todo(*args):
        raise NotImplementedError
    with pytest.raises(ExerciseNotDone):
        ex.check_choose_plan(todo)

    with pytest.raises(ExerciseFailed, match="None"):
        ex.check_choose_plan(lambda *args: None)


def test_the_exercise_example_is_the_simulated_step():
    import math
    devices, batch, step = ex.options()["16x dgx1-p100, EDR"]
    hours, cost = ex.hours_and_cost((devices, batch, step), ex.epochs_at("goyal-sgd"), ex.EXAMPLES, ex.PRICE)
    assert math.ceil(90 * ex.EXAMPLES / (devices * batch)) == 14076
    assert (step, round(hours, 2), round(cost)) == (0.2602, 1.02, 260)   # exercise 11's text
