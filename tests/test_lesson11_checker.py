"""Exercise 11's checker: the expected answers, margins that make them unambiguous, and hints."""
import pytest

from sim.course.exercises import lesson11_plan as ex
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone


def test_expected_answers_are_clear_cut():
    answers = [c.expected for c in ex.cases()]
    assert answers == ["64x dgx1-p100, EDR", "32x dgx1-p100, EDR", "16x dgx1-p100, EDR", None,
                       "4x dgx1-p100, 10 GbE", "32x dgx1-p100, EDR"]
    for case in ex.cases():
        opts, s_min, b_crit, price, budget, deadline = case.args
        for hours, cost in (ex.hours_and_cost(o, s_min, b_crit, price) for o in opts.values()):
            assert abs(cost - budget) > 0.05 * budget and abs(hours - deadline) > 0.05 * deadline


def test_step_times_are_the_plans():
    from sim.plan import Candidate, model_step
    devices, batch, step = ex.options()["16x dgx1-p100, EDR"]
    c = Candidate("dgx1-p100", 16, "edr-ib", 8, "mirrored-nccl", 64)
    assert (devices, batch) == (128, 64) and step == pytest.approx(model_step("resnet50", c).seconds, abs=1e-4)


def test_the_solution_passes_and_mistakes_get_their_hint():
    assert ex.check_choose_plan(ex.solution) is None

    def ignoring_deadline(options, s_min, b_crit, price, budget, deadline_hours):
        return ex.solution(options, s_min, b_crit, price, budget, float("inf"))
    with pytest.raises(ExerciseFailed, match="after the deadline"):
        ex.check_choose_plan(ignoring_deadline)

    def ignoring_budget(options, s_min, b_crit, price, budget, deadline_hours):
        return ex.solution(options, s_min, b_crit, price, float("inf"), deadline_hours)
    with pytest.raises(ExerciseFailed, match="costs more than the budget"):
        ex.check_choose_plan(ignoring_budget)

    def most_gpus(options, s_min, b_crit, price, budget, deadline_hours):
        return max(options, key=lambda n: options[n][0])
    with pytest.raises(ExerciseFailed, match="costs more"):
        ex.check_choose_plan(most_gpus)

    def cheapest(options, s_min, b_crit, price, budget, deadline_hours):
        return min(options, key=lambda n: ex.hours_and_cost(options[n], s_min, b_crit, price)[1])
    with pytest.raises(ExerciseFailed, match="finishes sooner"):
        ex.check_choose_plan(cheapest)

    def todo(*args):
        raise NotImplementedError
    with pytest.raises(ExerciseNotDone):
        ex.check_choose_plan(todo)

    with pytest.raises(ExerciseFailed, match="None"):
        ex.check_choose_plan(lambda *args: None)


def test_the_exercise_example_is_the_simulated_step():
    devices, batch, step = ex.options()["16x dgx1-p100, EDR"]
    hours, cost = ex.hours_and_cost((devices, batch, step), ex.S_MIN, 16384, ex.PRICE)
    assert round(ex.S_MIN * (1 + 16384 / (devices * batch))) == 21113
    assert (step, round(hours, 2), round(cost)) == (0.3035, 1.78, 456)     # exercise 11's text
