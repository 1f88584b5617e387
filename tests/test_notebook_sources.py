"""One source, three languages: the committed notebooks are exactly what their sources build."""
import shutil
from pathlib import Path

import nbformat
import pytest

from tools import build_notebooks as build

SETUP_PREFIX = "import sim\nsim.setup("


@pytest.fixture(scope="module")
def outputs():
    return build.plan()


def test_every_source_builds_and_is_committed(outputs):
    assert build.drifted(outputs) == []


def test_readme_course_maps_are_built_from_the_lessons(outputs):
    assert build.stale_readmes(outputs) == []


def test_every_lesson_exists_in_three_languages(outputs):
    lessons = sorted((build.ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py"))
    assert lessons, "no lesson sources found"
    for src in lessons:
        for lang in build.LANGS:
            assert (build.ROOT / "notebooks" / lang / f"{src.stem}.ipynb").exists()


def _code(path):
    """Code cells, with the one intended difference (the localized stub comment) neutralised."""
    nb = nbformat.read(path, as_version=4)
    lang = nb.metadata["course"]["language"]
    return [c.source.replace(build.STUB[lang], "# STUB") for c in nb.cells
            if c.cell_type == "code" and not c.source.startswith(SETUP_PREFIX)]


def test_code_cells_are_identical_across_languages():
    for folder in ("notebooks/en", "exercises/en", "exercises/en/solutions"):
        for english in sorted((build.ROOT / folder).glob("[0-9][0-9]_*.ipynb")):
            for lang in ("zh", "pt"):
                other = build.ROOT / folder.replace("/en", f"/{lang}") / english.name
                assert _code(other) == _code(english), other


def test_committed_lessons_carry_executed_outputs():
    for lang in build.LANGS:
        for path in sorted((build.ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            code = [c for c in nb.cells if c.cell_type == "code"]
            assert all(c.execution_count for c in code), f"{path} was not executed (make notebooks)"


def test_a_hand_edited_notebook_is_caught(outputs, tmp_path):
    """The drift check fails on purpose when fed a notebook edited by hand (on a copy)."""
    target = next(o for o in outputs if o.path.name.startswith("00_") and "/zh/" in o.path.as_posix())
    copy = tmp_path / target.path.name
    shutil.copy(target.path, copy)
    nb = nbformat.read(copy, as_version=4)
    markdown = next(c for c in nb.cells if c.cell_type == "markdown")
    markdown.source += "\n手工修改"
    nbformat.write(nb, copy)
    edited = build.Output(copy, target.notebook, target.execute)
    assert len(build.drifted([edited])) == 1
    assert build.drifted([build.Output(target.path, target.notebook, target.execute)]) == []


def test_a_missing_translation_is_refused(tmp_path):
    source = tmp_path / "99_broken.py"
    source.write_text('# %% [markdown] lang="en"\n# Hello\n\n# %% [markdown] lang="zh"\n# 你好\n\n'
                      '# %%\nprint(1)\n', encoding="utf-8")
    with pytest.raises(build.SourceError, match="same number of cells in every language"):
        build.read_source(source)


def test_a_code_cell_with_a_language_is_refused(tmp_path):
    source = tmp_path / "99_broken.py"
    source.write_text('# %% lang="en"\nprint(1)\n', encoding="utf-8")
    with pytest.raises(build.SourceError, match="shared by every language"):
        build.read_source(source)


def test_student_version_replaces_the_solution_with_a_localized_stub():
    code = "def f(x):\n    ### BEGIN SOLUTION\n    return x + 1\n    ### END SOLUTION\n"
    student = build.strip_solutions(code, "zh")
    assert "return x + 1" not in student
    assert "    # 在此处编写你的代码\n    raise NotImplementedError()" in student
    assert build.keep_solutions(code) == "def f(x):\n    return x + 1"


def test_no_committed_output_shows_a_warning_or_stderr():
    """Warnings on stderr confuse learners and carry temporary paths; lessons must not print any."""
    for folder in ("notebooks", "exercises"):
        for path in sorted((build.ROOT / folder).glob("*/**/[0-9][0-9]_*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            for cell in nb.cells:
                for out in cell.get("outputs", []):
                    assert out.get("name") != "stderr", f"{path}: {out.get('text', '')[:200]}"


def _cjk(char):
    return ord(char) > 0x2E80


def test_chinese_paragraphs_do_not_break_between_hanzi():
    """A line break between two hanzi renders as a stray space: one source line per paragraph."""
    sources = sorted((build.ROOT / "notebooks" / "src").glob("*.py")) + \
        sorted((build.ROOT / "exercises" / "src").glob("*.py"))
    for path in sources:
        nb = build.read_source(path)
        for cell in nb.cells:
            if cell.metadata.get("lang") != "zh":
                continue
            lines = cell.source.split("\n")
            for first, second in zip(lines, lines[1:]):
                first, second = first.rstrip(), second.strip()
                if first and second and _cjk(first[-1]) and _cjk(second[0]):
                    raise AssertionError(f"{path.name}: '{first[-20:]}' / '{second[:20]}'")


def test_consecutive_stream_chunks_are_joined_so_outputs_do_not_depend_on_timing():
    import nbformat as nbf

    outputs = [nbf.v4.new_output("stream", name="stdout", text="20"),
               nbf.v4.new_output("stream", name="stdout", text=" 0.175\n"),
               nbf.v4.new_output("stream", name="stderr", text="warning\n"),
               nbf.v4.new_output("execute_result", data={"text/plain": "1"}, execution_count=1),
               nbf.v4.new_output("stream", name="stdout", text="x\n")]
    joined = build.coalesce_streams(outputs)
    assert [(o.output_type, o.get("name"), o.get("text")) for o in joined] == [
        ("stream", "stdout", "20 0.175\n"), ("stream", "stderr", "warning\n"),
        ("execute_result", None, None), ("stream", "stdout", "x\n")]


def test_a_markdown_edit_keeps_the_outputs_and_a_code_edit_drops_them():
    import nbformat as nbf

    def book(text, code):
        cell = nbf.v4.new_code_cell(code)
        return nbf.v4.new_notebook(cells=[nbf.v4.new_markdown_cell(text), cell])

    committed = book("old words", "print(1)")
    committed.cells[1].outputs = [nbf.v4.new_output("stream", name="stdout", text="1\n")]
    committed.cells[1].execution_count = 3
    kept = build.keep_outputs(committed, book("new words", "print(1)"))
    assert kept.cells[0].source == "new words"
    assert kept.cells[1].outputs[0]["text"] == "1\n" and kept.cells[1].execution_count == 3
    dropped = build.keep_outputs(committed, book("new words", "print(2)"))
    assert dropped.cells[1].outputs == [] and dropped.cells[1].source == "print(2)"
