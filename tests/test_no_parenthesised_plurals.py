"""No learner-facing output of lessons 06-10 writes a plural as "worker(s)" or "servidor(es)": the
course picks the word by the count (catalogues: {n:?worker|workers}; English reprs: by hand).
TensorFlow's own error texts, quoted as TensorFlow writes them ("4 file(s)"), are exempt."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ("06", "07", "08", "09", "10")
PARENTHESISED_PLURAL = re.compile(r"\w\((s|es|is)\)")
TENSORFLOW_ERROR = re.compile(r"^\s*\w+Error: ")


def parenthesised_plurals(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if PARENTHESISED_PLURAL.search(line) and not TENSORFLOW_ERROR.match(line)]


def test_the_check_can_fail():
    assert parenthesised_plurals("<Strategy with 3 worker(s)>") == ["<Strategy with 3 worker(s)>"]
    assert parenthesised_plurals("1 servidor(es) de parâmetros") == ["1 servidor(es) de parâmetros"]
    assert parenthesised_plurals("InvalidArgumentError: only has 4 file(s)") == []
    assert parenthesised_plurals("3 workers, 1 servidor") == []


def _outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            yield "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))


@pytest.mark.parametrize("lang", ("en", "zh", "pt"))
def test_printed_plurals_are_words_not_parentheses(lang):
    paths = [p for n in LESSONS for folder in (ROOT / "notebooks" / lang, ROOT / "exercises" / lang / "solutions")
             for p in folder.glob(f"{n}_*.ipynb")]
    assert len(paths) >= 10
    bad = {p.name: found for p in paths for text in _outputs(p) if (found := parenthesised_plurals(text))}
    assert not bad
