"""The untouched student notebooks fail with the checker's "not done yet" message, per language,
and that message is all the learner sees: no traceback frames through the checker. A solved
exercise shows the checker's verdict only, with no stray value as the cell's output.

(nbval cannot prove this: a cell marked raises-exception passes whether it raises or not.)
"""
import re

import nbformat
import pytest
from nbclient import NotebookClient

from sim.i18n import t
from tools import build_notebooks as build
from tests.test_committed_notebooks import traceback_frames

STUDENT = sorted(p for lang in build.LANGS
                 for p in (build.ROOT / "exercises" / lang).glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", STUDENT, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_student_version_reports_not_done(path):
    nb = nbformat.read(path, as_version=4)
    lang = nb.metadata["course"]["language"]
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert errors and all(e["ename"] in ("ExerciseNotDone", "ExerciseFailed") for e in errors)
    shown = "\n".join(line for e in errors for line in e["traceback"])
    expected = t("exercises.not_done", lang=lang, name="\0").split("\0")[0]   # the text before the name
    assert expected in shown, shown[-500:]
    assert traceback_frames(shown) == [], shown


SOLUTIONS = sorted(p for lang in build.LANGS
                   for p in (build.ROOT / "exercises" / lang / "solutions").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_solved_exercise_shows_only_the_verdict(path):
    nb = nbformat.read(path, as_version=4)
    lang = nb.metadata["course"]["language"]
    passed = re.escape(t("exercises.all_passed", lang=lang, n=0)).replace("0", r"\d+")
    checked = [cell for cell in nb.cells if cell.cell_type == "code"
               and any(re.search(passed, out.get("text", "")) for out in cell.outputs)]
    assert checked, "no cell prints the checker's verdict"
    for cell in checked:
        kinds = [out.output_type for out in cell.outputs]
        assert kinds and set(kinds) == {"stream"}, kinds       # no execute_result such as `5`
