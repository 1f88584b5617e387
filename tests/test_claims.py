"""Claims follow the numbers (tools/claims.py): every sentence a lesson marks as a claim holds in
the lesson's own run, in every language, and the mechanism itself catches a false one."""
from pathlib import Path

import nbformat
import pytest

from sim.course.claims import Check, falls, judge, never_above_start, peak_over_start
from tools import claims
from tools.build_notebooks import LANGS, ROOT, language_notebook, read_source

SOURCES = sorted((ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py")) + \
    sorted((ROOT / "exercises" / "src").glob("[0-9][0-9]_*.py"))


def _notebook_paths(source: Path) -> list[Path]:
    if source.parent.parent.name == "exercises":
        return [ROOT / "exercises" / lang / "solutions" / f"{source.stem}.ipynb" for lang in LANGS]
    return [ROOT / "notebooks" / lang / f"{source.stem}.ipynb" for lang in LANGS]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_claim_holds_in_the_lessons_own_run_in_every_language(source):
    src = read_source(source)
    rel = source.relative_to(ROOT).as_posix()
    problems = claims.source_problems(src, rel)
    defined = claims.definitions(src, rel)
    for path in _notebook_paths(source):
        if defined or claims.record_path(path).exists():
            problems += claims.record_problems(defined, path)
    assert not problems, "\n".join(problems)


def test_lesson08s_old_warmup_sentence_is_caught():
    """'With warmup the loss falls from the first step': the lesson's own warmup run climbs to
    about twice its start by step 5, so the claim that sentence made is false."""
    from sim.scaling import experiments

    e3 = experiments.e3(seeds=(0,))                 # the call lesson 08 makes
    old = "never_above_start(e3[2048, True].train_loss.mean(axis=0), 50)"
    [verdict] = judge([("warmup_from_first_step", old)], {"e3": e3})
    assert not verdict["ok"] and "at step 5" in verdict["detail"], verdict
    curve = e3[2048, True].train_loss.mean(axis=0)
    assert 1.8 < peak_over_start(curve, 50) < 2.5 and not falls(curve, 50)


def _toy_source(tmp_path: Path, en: str, zh: str, pt: str, code: str = "x = [3.0, 2.0, 4.0]") -> Path:
    title = "".join(f'# %% [markdown] lang="{lang}"\n# # 99 · Toy\n\n' for lang in ("en", "zh", "pt"))
    summary = "".join(f'\n# %% [markdown] lang="{lang}"\n# ## Summary\n' for lang in ("en", "zh", "pt"))
    text = (f'{title}# %%\n{code}\n\n# %% [markdown] lang="en"\n# {en}\n\n# %% [markdown] lang="zh"\n# {zh}\n\n'
            f'# %% [markdown] lang="pt"\n# {pt}\n{summary}')     # a title and a summary, as tools.slides asks
    path = tmp_path / "99_toy.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_claim_made_in_one_language_only_is_reported(tmp_path):
    path = _toy_source(tmp_path, "It falls. <!-- claim f: falls(x) -->", "它下降。", "Cai. <!-- claim f -->")
    problems = claims.source_problems(read_source(path), path.name)
    assert len(problems) == 1 and "differ between languages" in problems[0]


def test_the_learner_never_sees_a_claim_and_the_build_judges_it_where_it_is_read(tmp_path):
    from tools.notebook_execution import execute

    path = _toy_source(tmp_path, "It falls. <!-- claim f: falls(x) -->",
                       "它下降。<!-- claim f -->", "Cai. <!-- claim f -->",
                       code="x = [3.0, 2.0, 4.0]")
    src = read_source(path)
    src.cells.append(nbformat.v4.new_code_cell("x = [3.0, 2.0, 1.0]"))   # a later cell changes x
    nb = language_notebook(src, "zh", "exercises/src/99_toy.py")   # no slides: a toy has no title
    assert all("claim" not in c.source for c in nb.cells if c.cell_type == "markdown")
    at = claims.pending_claims(nb)
    nb, verdicts = execute(nb, tmp_path, claims_at=at)
    [verdict] = verdicts
    assert verdict["id"] == "f" and not verdict["ok"] and "step 2" in verdict["detail"]


def test_records_report_false_stale_and_unevaluated_claims(tmp_path, monkeypatch):
    notebook = tmp_path / "notebooks" / "en" / "99_toy.ipynb"
    monkeypatch.setattr(claims, "ROOT", tmp_path)
    claims.write_records(claims.record_path(notebook), [
        {"id": "a", "expression": "falls(x)", "ok": False, "detail": "does not fall at step 2"},
        {"id": "b", "expression": "rises(y)", "ok": True, "detail": ""},
        {"id": "gone", "expression": "holds(1)", "ok": True, "detail": ""}])
    problems = claims.record_problems({"a": "falls(x)", "b": "rises(z)", "c": "holds(1)"}, notebook)
    text = "\n".join(problems)
    assert "'a' is false" in text and "'b' was not evaluated" in text and "'c' was not evaluated" in text
    assert "'gone' is recorded but no longer" in text


def test_the_words_say_what_the_numbers_were():
    assert not never_above_start([1.0, 0.5, 2.0]) and "2 × its start" in never_above_start([1.0, 0.5, 2.0]).detail
    assert (falls([3, 2, 1]) & falls([1, 2])).ok is False
    assert isinstance(falls([2, 1]), Check) and bool(falls([2, 1]))


def test_stripping_a_claim_keeps_the_paragraphs():
    text = "One. <!-- claim a -->\n\nTwo.\n<!-- claim b: holds(1) -->\n<!-- claim c -->\nThree."
    assert claims.strip_claims(text) == "One.\n\nTwo.\nThree."
