"""Exercise 09's checker: the expected answers, margins that make them unambiguous, and hints."""
import pytest

from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.course.exercises import lesson09_fastest_cluster as ex

pytestmark = pytest.mark.lesson09


def test_expected_answers_are_clear_cut():
    answers = [c.expected for c in ex.cases()]
    # VGG-16 (most bytes per FLOP) is fastest AND cheapest on the InfiniBand DGX-1s
    assert answers == ["8x big-basin, 10 GbE", "2x big-basin, 25 GbE", None,
                       "4x dgx1-p100, EDR", "8x big-basin, 10 GbE"]
    for case in ex.cases():
        model, options, samples, budget = case.args
        costs = {n: ex.time_and_cost(model, o, samples) for n, o in options.items()}
        # no option's cost within 3 % of the budget, no two affordable ones within 10 % in time
        assert all(abs(cost - budget) > 0.03 * budget for _, cost in costs.values())
        hours = sorted(h for h, cost in costs.values() if cost <= budget)
        assert all(b > 1.1 * a for a, b in zip(hours, hours[1:]))


def test_the_solution_passes_and_mistakes_get_their_hint():
    assert ex.check_fastest_within_budget(ex.solution) is None

    def cheapest(model, options, samples, budget):
        return min(options, key=lambda n: ex.time_and_cost(model, options[n], samples)[1])
    with pytest.raises(ExerciseFailed, match="faster"):
        ex.check_fastest_within_budget(cheapest)

    def fastest_ignoring_budget(model, options, samples, budget):
        return min(options, key=lambda n: ex.time_and_cost(model, options[n], samples)[0])
    with pytest.raises(ExerciseFailed, match="costs more than the budget"):
        ex.check_fastest_within_budget(fastest_ignoring_budget)

    def todo(model, options, samples, budget):
        raise NotImplementedError
    with pytest.raises(ExerciseNotDone):
        ex.check_fastest_within_budget(todo)


def test_case_titles_write_the_sample_count_in_the_course_language():
    from sim.i18n import set_language, get_language
    before = get_language()
    try:
        set_language("pt")
        assert "115.305.030 amostras" in ex.cases()[0].description
        set_language("en")
        assert "115,305,030 samples" in ex.cases()[0].description
    finally:
        set_language(before)
