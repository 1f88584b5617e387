"""The grading path end to end, through nbgrader itself: every exercise released, synthetic
submissions (correct, wrong in each way its checker knows, broken, empty) autograded, feedback
generated; the scores and the feedback's language asserted. Runs where nbgrader is installed
(`make test-classroom`, its own venv); the in-process half is tests/classroom/test_submissions.py."""
from __future__ import annotations

import html
import re

import nbformat
import pytest

pytest.importorskip("nbgrader")

from sim.course.exercises.checker import ExerciseFailed  # noqa: E402
from sim.i18n import set_language, t  # noqa: E402
from tests.classroom.answers import answer_cell, run_with_answer  # noqa: E402
from tests.classroom.submissions import WRONG, broken  # noqa: E402
from tools.assignments import POINTS, Course, assignment_name, exercise_stems  # noqa: E402
from tools.build_notebooks import LANGS, keep_solutions  # noqa: E402

# Each exercise's submissions are in one language, the languages taking turns.
LANG_OF = {stem: LANGS[i % len(LANGS)] for i, stem in enumerate(exercise_stems())}
# An infinite loop is ended here (a correct answer's slowest cell takes a few seconds).
TIMEOUT_S = 20


def submissions(stem: str, release: nbformat.NotebookNode) -> dict[str, tuple[str, str | None]]:
    """student id -> (answer cell, hint key or None)."""
    stub = next(c.source for c in release.cells
                if c.get("metadata", {}).get("nbgrader", {}).get("solution"))
    subs = {"correct": (keep_solutions(answer_cell(stem).source), None)}
    subs.update({f"wrong-{label}": (answer, hint) for label, answer, hint in WRONG[stem]})
    subs.update({kind: (answer, None) for kind, answer in broken(stub).items()})
    return subs


def submit(course: Course, stem: str, student: str, release: nbformat.NotebookNode, answer: str) -> None:
    nb = nbformat.from_dict(release)
    nb = nbformat.reads(nbformat.writes(nb), as_version=4)
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
            cell.source = answer
    folder = course.root / "submitted" / student / assignment_name(stem)
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{stem}.ipynb")


def text_of(page: str) -> str:
    """The feedback page's text, as a reader sees it."""
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """(stem, student) -> (score, max score, feedback text, language, hint key)."""
    root = tmp_path_factory.mktemp("classroom")
    results = {}
    for lang in LANGS:
        stems = [s for s in exercise_stems() if LANG_OF[s] == lang]
        course = Course(root / lang, lang, timeout=TIMEOUT_S)
        try:
            course.add_sources(stems)
            for stem in stems:
                release = nbformat.read(course.release(stem), as_version=4)
                for student, (answer, hint) in submissions(stem, release).items():
                    submit(course, stem, student, release, answer)
                    course.autograde(stem, student)
                    feedback = course.feedback(stem, student).read_text(encoding="utf-8")
                    results[stem, student] = (*course.score(stem, student), text_of(feedback),
                                              lang, hint, answer)
        finally:
            course.close()
    return results


def cases():
    return [(stem, student) for stem in exercise_stems()
            for student in ["correct", *(f"wrong-{label}" for label, _, _ in WRONG[stem]),
                            "exception", "syntax_error", "infinite_loop", "empty"]]


@pytest.mark.parametrize("stem, student", cases())
def test_scores(graded, stem, student):
    score, max_score, *_ = graded[stem, student]
    assert max_score == POINTS[stem]
    assert score == (POINTS[stem] if student == "correct" else 0), f"{stem}/{student}: {score}"


@pytest.mark.parametrize("stem, student", cases())
def test_feedback_speaks_the_submissions_language(graded, stem, student):
    *_, feedback, lang, hint, answer = graded[stem, student]
    set_language(lang)
    try:
        if student == "correct":
            expected = [t("exercises.all_passed", n=0).split("0", 1)[-1].strip()]
        elif student == "empty":
            expected = [t("exercises.not_done", name="\0").split("\0")[0].strip()]
        elif student.startswith("wrong-"):
            with pytest.raises(ExerciseFailed) as failure:
                run_with_answer(stem, answer, lang)
            expected = str(failure.value).splitlines()   # the verdict as taught, expected values too
            assert t(hint) in expected[-1] or any(t(hint) in line for line in expected)
        elif student == "exception":
            expected = [t("exercises.case_raised", number=1, case="", error="").split("1")[0].strip(),
                        "ZeroDivisionError"]
        elif student == "syntax_error":
            expected = ["SyntaxError"]
        else:
            expected = ["timed out" if "timed out" in feedback else "KeyboardInterrupt"]
    finally:
        set_language("en")
    missing = [line for line in expected if line.strip() and line.strip() not in feedback]
    assert not missing, f"{stem}/{student} ({lang}): not in the feedback: {missing}"
