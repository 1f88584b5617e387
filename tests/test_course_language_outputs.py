"""What the native reviews found coming back in code written since (lessons-zh-review-2.md §3,
lessons-pt-review-2.md): the committed zh and pt notebooks' printed outputs hold no unit word after
a number in zh ("6.74 秒": the glossary writes the symbol), no ", " list between Chinese items, no
English plural labels ("GPUs", "/device") in zh, and none of the pt words the glossary bans
("inicializador", "forma fechada", "espelhos", "retoma da"). Lessons 00-08 and 10 and their
exercises (09 and 11 are checked with their own rewrite)."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OWN = tuple(f"{n:02d}" for n in (*range(9), 10))

ZH_RULES = {
    "a unit word after a number (write the symbol: 6.74 s, 0.78 ms)": re.compile(r"\d\s*(毫秒|秒|微秒)"),
    "a half-width list separator between Chinese items (join_list gives 、)":
        re.compile(r"[\u4e00-\u9fff][，,]?\s*, \s*[\u4e00-\u9fff]|[\u4e00-\u9fff], [\u4e00-\u9fff]"),
    "an English label": re.compile(r"\bGPUs\b|(?<![:\w])\d+/device\b(?!:)|\bexcess loss\b"),
    "a Python boolean closing a Chinese sentence (print 是/否)": re.compile(r"是否[^\n]*：(True|False)"),
}
PT_RULES = {
    "a banned word (glossary)": re.compile(r"inicializador|forma fechada|fórmula fechada \d|espelhos iguais|retoma da"),
    "'abortadas por:' (TensorFlow's calque)": re.compile(r"abortadas por:"),
}


def _outputs(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            out.append("".join(o.get("text", "")) or "".join(o.get("data", {}).get("text/plain", "")))
    return "\n".join(out)


def _notebooks(lang):
    paths = [p for p in sorted((ROOT / "notebooks" / lang).glob("*.ipynb")) if p.name[:2] in OWN]
    paths += [p for p in sorted((ROOT / "exercises" / lang / "solutions").glob("*.ipynb")) if p.name[:2] in OWN]
    return paths


def problems(text: str, rules: dict) -> list[str]:
    found = []
    for line in text.splitlines():
        for what, pattern in rules.items():
            if pattern.search(line):
                found.append(f"{what}: {line.strip()[:160]}")
    return found


def test_the_rules_can_fail():
    assert problems("用时 6.74 秒", ZH_RULES) and problems("支持, 有限支持", ZH_RULES)
    assert problems("32 GPUs", ZH_RULES) and problems("32/device", ZH_RULES)
    assert not problems("/job:localhost/replica:0/task:0/device:GPU:0", ZH_RULES)
    assert problems("是否相同：True", ZH_RULES)
    assert not problems("用时 6.74 s；支持、有限支持；4 个 GPU", ZH_RULES)
    assert problems("malha do inicializador", PT_RULES) and not problems("o launcher", PT_RULES)


@pytest.mark.parametrize("lang,rules", [("zh", ZH_RULES), ("pt", PT_RULES)])
def test_printed_outputs_follow_the_course_language(lang, rules):
    found = [f"{path.relative_to(ROOT)}: {p}" for path in _notebooks(lang) for p in problems(_outputs(path), rules)]
    assert not found, "\n".join(found)


def test_catalogues_hold_no_unit_word_after_a_number_in_zh():
    """The same rule at its source, every catalogue's zh text ({s} 秒 is a number then 秒)."""
    found = []
    for path in sorted((ROOT / "sim" / "i18n" / "catalogs").glob("*.json")):
        zh = json.loads(path.read_text(encoding="utf-8")).get("zh", {})
        for key, text in zh.items():
            if re.search(r"(\d|\})\s*(毫秒|秒)(?![数钟])", text):
                found.append(f"{path.stem}.{key}: {text[:120]}")
    assert not found, "\n".join(found)
