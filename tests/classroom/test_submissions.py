"""The synthetic submissions do what they say, checked in-process (fast; no nbgrader needed):
each wrong answer draws the hint it names, each exercise has wrong answers, the solution passes."""
import re
from pathlib import Path

import pytest

from sim.course.exercises.checker import ExerciseFailed
from sim.i18n import set_language, t
from tests.classroom.answers import answer_cell, run_with_answer
from tests.classroom.submissions import WRONG, broken
from tools.assignments import exercise_stems
from tools.build_notebooks import ROOT, keep_solutions


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def test_every_exercise_has_wrong_answers():
    assert sorted(WRONG) == exercise_stems()
    assert all(WRONG[stem] for stem in WRONG)


def _checker_module(stem: str) -> Path:
    """The checker an exercise imports (its `from sim.course.exercises.X import check_...` line)."""
    source = (ROOT / "exercises" / "src" / f"{stem}.py").read_text(encoding="utf-8")
    module = re.search(r"from sim\.course\.exercises\.(\w+) import .*check_", source).group(1)
    return ROOT / "sim" / "course" / "exercises" / f"{module}.py"


@pytest.mark.parametrize("stem", exercise_stems())
def test_every_hint_a_checker_knows_has_a_wrong_submission(stem):
    """'Wrong in each way the checker knows': each hint key its checker names is drawn by one."""
    known = set(re.findall(r'"([a-z0-9_]+\.[a-z0-9_]*hint[a-z0-9_]*)"',
                           _checker_module(stem).read_text(encoding="utf-8")))
    assert known, f"{stem}: its checker names no hint"
    assert known <= {hint for _, _, hint in WRONG[stem]}, sorted(known - {h for _, _, h in WRONG[stem]})


@pytest.mark.parametrize("stem, label, answer, hint",
                         [(s, label, a, h) for s, rows in WRONG.items() for label, a, h in rows])
def test_a_wrong_answer_draws_its_hint(stem, label, answer, hint):
    with pytest.raises(ExerciseFailed) as failure:
        run_with_answer(stem, answer)
    assert t(hint) in str(failure.value), f"{stem}/{label}: {failure.value}"


@pytest.mark.parametrize("stem", exercise_stems())
def test_the_solution_passes(stem, capsys):
    run_with_answer(stem, keep_solutions(answer_cell(stem).source))
    assert t("exercises.all_passed", n=0).split("0")[-1].strip() in capsys.readouterr().out


def test_broken_answers_are_made_from_the_stub():
    kinds = broken("def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()")
    assert kinds["exception"].endswith("    return 1 / 0")
    assert kinds["infinite_loop"].endswith("    while True:\n        pass")
    with pytest.raises(SyntaxError):
        compile(kinds["syntax_error"], "<answer>", "exec")
