"""The site build runs a notebook again when the Jupyter plumbing fails, and never when the lesson does."""
import nbformat
import pytest
from nbclient.exceptions import CellExecutionError, CellTimeoutError

from tools.website import ROOT, execute


class FlakyClient:
    """Stands in for nbclient: fails the first ``failures`` runs with ``error``, then fills outputs."""
    runs = 0

    def __init__(self, nb, **_):
        self.nb = nb

    def execute(self):
        type(self).runs += 1
        if type(self).runs <= self.failures:
            raise self.error
        self.nb.cells[0].outputs = [nbformat.v4.new_output("stream", text="ran\n")]


@pytest.fixture
def notebook(tmp_path):
    path = ROOT / "build" / f"test_website_execute_{tmp_path.name}.ipynb"  # named under ROOT, as lessons are
    path.parent.mkdir(exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('ran')")]), path)
    yield path
    path.unlink()


def client(monkeypatch, error, failures):
    cls = type("Client", (FlakyClient,), {"error": error, "failures": failures, "runs": 0})
    monkeypatch.setattr("nbclient.NotebookClient", cls)
    return cls


@pytest.mark.parametrize("error", [
    RuntimeError("Kernel died before replying to kernel_info"),
    CellTimeoutError("A cell timed out while it was being executed, after 300 seconds."),
])
def test_a_plumbing_failure_runs_the_notebook_again(monkeypatch, notebook, error):
    cls = client(monkeypatch, error, failures=1)
    said = []
    nb = execute.executed(notebook, log=said.append)
    assert cls.runs == 2
    assert nb.cells[0].outputs[0].text == "ran\n"
    assert len(said) == 1 and "again (2/3)" in said[0] and type(error).__name__ in said[0]


def test_the_plumbing_gets_a_limited_number_of_attempts(monkeypatch, notebook):
    cls = client(monkeypatch, RuntimeError("Kernel died before replying to kernel_info"), failures=9)
    with pytest.raises(RuntimeError, match="Kernel died"):
        execute.executed(notebook, log=lambda _: None)
    assert cls.runs == execute.ATTEMPTS


def test_an_error_in_the_lesson_is_not_run_again(monkeypatch, notebook):
    cls = client(monkeypatch, CellExecutionError("ZeroDivisionError", "", ""), failures=1)
    with pytest.raises(CellExecutionError):
        execute.executed(notebook, log=lambda _: None)
    assert cls.runs == 1
