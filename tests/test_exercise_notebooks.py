"""The untouched student notebooks fail with the checker's "not done yet" message, per language.

(nbval cannot prove this: a cell marked raises-exception passes whether it raises or not.)
"""
import nbformat
import pytest
from nbclient import NotebookClient

from sim.i18n import t
from tools import build_notebooks as build

STUDENT = sorted(p for lang in build.LANGS
                 for p in (build.ROOT / "exercises" / lang).glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", STUDENT, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_student_version_reports_not_done(path):
    nb = nbformat.read(path, as_version=4)
    lang = nb.metadata["course"]["language"]
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    printed = "".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                      for out in cell.outputs if out.output_type == "stream")
    expected = t("exercises.not_done", lang=lang, name="").split("`")[0]
    assert expected in printed, printed[-500:]
    errors = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert errors and all(e["ename"] in ("ExerciseNotDone", "ExerciseFailed") for e in errors)
