"""Claims follow the numbers: a lesson's sentences that state a figure or a direction, checked
against the values its own code computed, in every language (docs/claims.md says how to write one).

A claim is an HTML comment in a markdown cell of a lesson or exercise source:

    <!-- claim warmup_start: rises(e3[2048, True].train_loss.mean(axis=0), 4) -->   (defines it, once)
    <!-- claim warmup_start -->                                                      (the other languages)

The build strips the comments from the learner's notebooks, evaluates each claim in the notebook's
kernel just before the next code cell runs (what the learner has seen by then, not what later cells
overwrite), with the words of sim.course.claims, and writes the verdicts next to the notebook
(``notebooks/claims/<lang>/<stem>.json``). ``problems()`` (run by tests/test_claims.py) reports a
claim that is false, missing from a language, unevaluated or evaluated from an older source.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "zh", "pt")
CLAIM = re.compile(r"[ \t]*<!--\s*claim\s+([A-Za-z0-9_.-]+)\s*(?::\s*(.*?))?\s*-->[ \t]*\n?", re.S)
METADATA_KEY = "claims"          # a generated cell's claims, held only until the build writes it


def claims_in(text: str) -> list[tuple[str, str | None]]:
    """``(id, expression or None)`` of each claim comment in a markdown cell's text."""
    return [(m.group(1), " ".join(m.group(2).split()) if m.group(2) else None)
            for m in CLAIM.finditer(text)]


_ALONE = re.compile(r"^[ \t]*<!--\s*claim\b.*?-->[ \t]*(\n|$)", re.S | re.M)
_INLINE = re.compile(r"[ \t]*<!--\s*claim\b.*?-->", re.S)


def strip_claims(text: str) -> str:
    """The markdown a learner sees: the claim comments removed (a line that held only claims goes,
    a claim at the end of a sentence leaves the line and its paragraph break as they were)."""
    if not CLAIM.search(text):
        return text
    return _INLINE.sub("", _ALONE.sub("", text)).rstrip("\n")


def definitions(src: nbformat.NotebookNode, name: str = "source") -> dict[str, str]:
    """Each claim's expression, defined once in the source (in any language's cell)."""
    found: dict[str, str] = {}
    for cell in src.cells:
        if cell.cell_type != "markdown":
            continue
        for claim_id, expression in claims_in(cell.source):
            if expression is None:
                continue
            if claim_id in found and found[claim_id] != expression:
                raise ValueError(f"{name}: claim {claim_id!r} is defined twice with different expressions")
            found[claim_id] = expression
    return found


def record_path(notebook_path: Path) -> Path:
    """Where the verdicts of one generated notebook's claims are kept."""
    lang = notebook_path.parent.name if notebook_path.parent.name in LANGS else notebook_path.parent.parent.name
    base = ROOT / ("exercises" if "exercises" in notebook_path.parts else "notebooks") / "claims"
    return base / lang / f"{notebook_path.stem}.json"


def hold(cell: nbformat.NotebookNode, defined: dict[str, str]) -> None:
    """Move a generated markdown cell's claims out of its text into its metadata (until written)."""
    found = claims_in(cell.source) if cell.cell_type == "markdown" else []
    if found:
        cell.metadata[METADATA_KEY] = [[i, defined.get(i, "")] for i, _ in found]
        cell.source = strip_claims(cell.source)


def record(notebook_path: Path, verdicts: list[dict]) -> None:
    """Keep the verdicts of one executed notebook, and say at once which claims are false."""
    path = record_path(notebook_path)
    if verdicts or path.exists():
        write_records(path, verdicts)
    for verdict in verdicts:
        if not verdict["ok"]:
            print(f"  FALSE CLAIM {verdict['id']}: {verdict['expression']} -> {verdict['detail']}",
                  flush=True)


def pending_claims(nb: nbformat.NotebookNode) -> dict[int, list[tuple[str, str]]]:
    """Pop the claims the build left in cell metadata: {index of the code cell to run next: claims}.
    Claims after the last code cell are keyed ``len(nb.cells)`` (judged when the notebook ends)."""
    at: dict[int, list[tuple[str, str]]] = {}
    waiting: list[tuple[str, str]] = []
    for index, cell in enumerate(nb.cells):
        waiting += [tuple(c) for c in cell.metadata.pop(METADATA_KEY, [])]
        if cell.cell_type == "code" and waiting:
            at[index] = waiting
            waiting = []
    if waiting:
        at[len(nb.cells)] = waiting
    return at


def judge_snippet(claims: list[tuple[str, str]]) -> str:
    """Code run (unseen, no history) in the lesson's kernel: the verdicts as one JSON line."""
    return ("print('CLAIMS ' + __import__('json').dumps(__import__('sim.course.claims', fromlist=['judge'])"
            f".judge({claims!r}, globals()), ensure_ascii=False))")


def write_records(path: Path, records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def _markdown_runs(src: nbformat.NotebookNode) -> list[dict[str, list]]:
    """Each run of markdown cells between code cells, as {lang: [cell texts in order]}."""
    runs, run = [], {lang: [] for lang in LANGS}
    for cell in src.cells + [nbformat.v4.new_code_cell("")]:
        if cell.cell_type == "markdown":
            run[cell.metadata.get("lang")].append(cell.source)
        elif any(run.values()):
            runs.append(run)
            run = {lang: [] for lang in LANGS}
    return runs


def source_problems(src: nbformat.NotebookNode, name: str) -> list[str]:
    """A claim made in one language and not the others, or referenced but never defined."""
    problems = []
    defined = definitions(src, name)
    for run in _markdown_runs(src):
        for position, cells in enumerate(zip(*(run[lang] for lang in LANGS))):
            ids = {lang: sorted({i for i, _ in claims_in(text)}) for lang, text in zip(LANGS, cells)}
            if len({tuple(v) for v in ids.values()}) > 1:
                problems.append(f"{name}: a markdown cell's claims differ between languages {ids}: "
                                "each language states the same facts, so each carries the same claims")
            for claim_id in ids["en"]:
                if claim_id not in defined:
                    problems.append(f"{name}: claim {claim_id!r} has no expression "
                                    "(write `<!-- claim ID: EXPRESSION -->` in one language)")
    return problems


def record_problems(defined: dict[str, str], notebook_path: Path) -> list[str]:
    """A claim the last build found false, did not evaluate, or evaluated from another expression."""
    shown = notebook_path.relative_to(ROOT) if notebook_path.is_relative_to(ROOT) else notebook_path
    path = record_path(notebook_path)
    records = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    by_id = {r["id"]: r for r in records}
    problems = []
    for claim_id, expression in defined.items():
        record = by_id.get(claim_id)
        if record is None or record["expression"] != expression:
            problems.append(f"{shown}: claim {claim_id!r} was not evaluated from this source "
                            "(rebuild it: python -m tools.build_notebooks --only NN --execute)")
        elif not record["ok"]:
            problems.append(f"{shown}: claim {claim_id!r} is false in the lesson's own run: "
                            f"{expression} -> {record['detail']}")
    for claim_id in set(by_id) - set(defined):
        problems.append(f"{shown}: claim {claim_id!r} is recorded but no longer in the source (rebuild it)")
    return problems
