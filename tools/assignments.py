"""The exercises as nbgrader assignments, one course folder per language (make assignments).

    python -m tools.assignments                 # build/assignments/{en,zh,pt}: source + release
    python -m tools.assignments --out DIR       # somewhere else

Each exercise source (exercises/src/NN_topic.py) becomes the nbgrader *source* notebook of one
assignment, named after it (``ex01_transfer_time``), in each language. The exercise's own
``### BEGIN SOLUTION`` regions are nbgrader's markers already; the build adds nbgrader's cell
metadata (what is the answer, what is graded, what is locked). The checker cell becomes the
autograded test cell. Its hidden part runs the checker as the course runs it, whose verdict names
the expected value of a wrong case; the student meets it only in the feedback, after grading. Its
visible part, all the release shows, runs the same checker without answers (a wrong case is named,
the expected value is not), so a student can check their work without being handed the answer. nbgrader's
``generate_assignment`` then writes the *release* version the students get. Nothing here depends on
the machine it ran on: the folders hold no absolute paths (nbgrader's database stays outside, in a
temporary folder), so the output can be copied to a JupyterHub as it is.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat

from tools.build_notebooks import LANGS, ROOT, SOLUTION_BEGIN, STUB, language_notebook, read_source

# Points per exercise (docs/teaching.md states them; a test holds the two together). Exercises that
# ask for a simulator mechanism written from scratch weigh more than those that apply one rule.
POINTS = {
    "00_data_parallel_gradient": 5,
    "01_transfer_time": 5,
    "02_choose_algorithm": 5,
    "02_ring_allreduce": 10,
    "03_custom_loop_loss": 10,
    "04_batch_split": 10,
    "05_bytes_per_step": 10,
    "06_tf_config": 5,
    "07_predict_shards": 10,
    "07_stable_learning_rate": 5,
    "08_batch_and_learning_rate": 5,
    "08_critical_batch": 5,
    "09_fastest_cluster": 5,
    "11_choose_plan": 5,
    "12_slurm_task": 5,
}
# How long one cell of a student's notebook may run when graded: an infinite loop ends here.
CELL_TIMEOUT_S = 60

HIDE_BEGIN = "### BEGIN HIDDEN TESTS"
HIDE_END = "### END HIDDEN TESTS"


def assignment_name(stem: str) -> str:
    """nbgrader's assignment name for an exercise: ex01_transfer_time."""
    return "ex" + stem


def exercise_stems() -> list[str]:
    return sorted(p.stem for p in (ROOT / "exercises" / "src").glob("[0-9][0-9]_*.py"))


def _nbgrader(cell_id: str, *, solution=False, grade=False, locked=False, points=None) -> dict:
    meta = {"grade": grade, "grade_id": cell_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return meta


def _is_check_call(source: str) -> bool:
    return any(line.startswith("check_") for line in source.splitlines())


def graded_test_source(check_source: str) -> str:
    """The autograded cell: (hidden) the checker as taught, whose verdict names the expected
    values, so they reach the student in the feedback after grading; then, visible in the
    release, the same checker without answers, for the student to check their work."""
    return "\n".join([
        HIDE_BEGIN,
        check_source,
        HIDE_END,
        "from sim.course.exercises.checker import without_answers",
        "with without_answers():",
        *("    " + line for line in check_source.splitlines()),
    ])


def assignment_notebook(stem: str, lang: str) -> nbformat.NotebookNode:
    """The nbgrader source notebook of one exercise in one language."""
    rel = f"exercises/src/{stem}.py"
    nb = language_notebook(read_source(ROOT / rel), lang, rel, "lesson")
    nb.metadata["course"]["variant"] = "assignment"
    tests = 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.metadata["nbgrader"] = _nbgrader(f"text-{cell.id}", locked=True)
        elif SOLUTION_BEGIN in cell.source:
            cell.metadata["nbgrader"] = _nbgrader(f"answer-{cell.id}", solution=True)
        elif _is_check_call(cell.source):
            cell.source = graded_test_source(cell.source)
            cell.metadata["nbgrader"] = _nbgrader(f"test-{cell.id}", grade=True, locked=True,
                                                  points=POINTS[stem])
            tests += 1
        else:
            cell.metadata["nbgrader"] = _nbgrader(f"setup-{cell.id}", locked=True)
    if tests != 1:
        raise ValueError(f"{rel}: expected one checker cell (a line starting with check_), found {tests}")
    return nb


def course_settings(lang: str, timeout: int = CELL_TIMEOUT_S) -> dict[str, dict]:
    """nbgrader's settings for one language's course folder, by class then trait."""
    return {
        "CourseDirectory": {"course_id": f"tfdist-{lang}"},
        "ClearSolutions": {"code_stub": {"python": STUB[lang] + "\nraise NotImplementedError()"}},
        "Execute": {"timeout": timeout, "interrupt_on_timeout": True},
    }


def config_file(settings: dict[str, dict]) -> str:
    """The same settings as the nbgrader_config.py a teacher's nbgrader reads (relative paths only)."""
    lines = ["# nbgrader's settings for this course folder (written by tools/assignments.py).",
             "c = get_config()  # noqa: F821"]
    lines += [f"c.{cls}.{trait} = {value!r}" for cls, traits in settings.items()
              for trait, value in traits.items()]
    return "\n".join(lines) + "\n"


def _venv_tools_on_path() -> None:
    """nbgrader runs its own tools (alembic) by name: this venv's bin must be on PATH, also when
    its python was started by full path without activating the venv."""
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])


class Course:
    """One language's nbgrader course folder, driven through nbgrader's own Python API. Its
    database (the gradebook) lives in a temporary folder, so the course folder stays portable."""

    def __init__(self, root: Path, lang: str, timeout: int = CELL_TIMEOUT_S):
        from nbgrader.apps import NbGraderAPI
        from traitlets.config import Config

        self.root, self.lang = root, lang
        _venv_tools_on_path()
        self._db = tempfile.TemporaryDirectory()
        settings = course_settings(lang, timeout)
        config = Config()
        for cls, traits in settings.items():
            for trait, value in traits.items():
                setattr(getattr(config, cls), trait, value)
        config.CourseDirectory.root = str(root)
        config.CourseDirectory.db_url = f"sqlite:///{Path(self._db.name) / 'gradebook.db'}"
        root.mkdir(parents=True, exist_ok=True)
        (root / "nbgrader_config.py").write_text(config_file(settings), encoding="utf-8")
        self.api = NbGraderAPI(config=config)

    def close(self) -> None:
        self.api.gradebook.close() if hasattr(self.api.gradebook, "close") else None
        self._db.cleanup()

    def _run(self, what: str, *args) -> dict:
        result = getattr(self.api, what)(*args)
        if not result.get("success"):
            raise RuntimeError(f"nbgrader {what} {' '.join(args)} failed in {self.root}:\n"
                               f"{result.get('log')}\n{result.get('error')}")
        return result

    def add_sources(self, stems: list[str]) -> None:
        for stem in stems:
            folder = self.root / "source" / assignment_name(stem)
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(assignment_notebook(stem, self.lang), folder / f"{stem}.ipynb")

    def release(self, stem: str) -> Path:
        """nbgrader's generate_assignment: the student version, in release/."""
        self._run("generate_assignment", assignment_name(stem))
        return self.root / "release" / assignment_name(stem) / f"{stem}.ipynb"

    def autograde(self, stem: str, student: str) -> None:
        self._run("autograde", assignment_name(stem), student)

    def feedback(self, stem: str, student: str) -> Path:
        self._run("generate_feedback", assignment_name(stem), student)
        return self.root / "feedback" / student / assignment_name(stem) / f"{stem}.html"

    def score(self, stem: str, student: str) -> tuple[float, float]:
        """(score, max score) of a student's autograded submission."""
        submission = self.api.gradebook.find_submission(assignment_name(stem), student)
        return submission.score, submission.max_score


def build(out: Path, stems: list[str] | None = None, langs=LANGS) -> list[Path]:
    """Write every language's course folder under ``out``: source and release of each exercise."""
    stems = stems or exercise_stems()
    roots = []
    for lang in langs:
        root = out / lang
        shutil.rmtree(root, ignore_errors=True)
        course = Course(root, lang)
        try:
            course.add_sources(stems)
            for stem in stems:
                course.release(stem)
        finally:
            course.close()
        roots.append(root)
    return roots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "assignments",
                        help="where the course folders go (default build/assignments)")
    parser.add_argument("--only", help="only exercises whose name starts with this (e.g. 01)")
    args = parser.parse_args(argv)
    stems = [s for s in exercise_stems() if not args.only or s.startswith(args.only)]
    if not stems:
        print(f"no exercise starts with {args.only!r}; names: {', '.join(exercise_stems())}")
        return 2
    for root in build(args.out, stems):
        print(f"wrote {root.relative_to(ROOT) if root.is_relative_to(ROOT) else root}: "
              f"source/ and release/ of {len(stems)} assignments")
    return 0


if __name__ == "__main__":
    sys.exit(main())
