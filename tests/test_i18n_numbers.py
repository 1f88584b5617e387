"""Numbers in the learner's language: sim.i18n writes every numeric field of a message with the
course language's decimal and grouping symbols (pt 2.099.200 and 10,001; en/zh 2,099,200 and
10.001), and the pt notebooks' committed outputs show it."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

from sim import i18n

ROOT = Path(__file__).resolve().parents[1]

# (key, fields, the text each language must contain)
SAMPLES = [
    ("lesson05.parameters", {"n": 2_099_200}, {"en": "2,099,200", "zh": "2,099,200", "pt": "2.099.200"}),
    ("lesson05.sweep_point", {"p": 525_312, "ms": 1.564},
     {"en": "525,312", "zh": "525,312", "pt": "525.312"}),
    ("lesson05.sweep_point", {"p": 33_024, "ms": 10.001},
     {"en": "10.001 ms", "zh": "10.001 ms", "pt": "10,001 ms"}),
    ("lesson05.ex_case", {"strategy": "MirroredStrategy", "params": np.int64(131_584), "gpus": 4},
     {"en": "131,584", "zh": "131,584", "pt": "131.584"}),
    ("exercises.case_ok", {"number": 3, "case": "x"}, {"en": "3", "zh": "3", "pt": "3"}),
]


@pytest.mark.parametrize("key, fields, expected", SAMPLES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_numeric_fields_use_the_languages_separators(key, fields, expected, lang):
    assert expected[lang] in i18n.t(key, lang=lang, **fields)


def test_pt_swaps_both_symbols_and_keeps_widths():
    assert i18n.number(2_099_200.5, ">14,.1f", lang="pt") == "   2.099.200,5"
    assert i18n.number(2_099_200.5, ">14,.1f", lang="en") == "   2,099,200.5"
    assert i18n.number(np.float32(0.5), "", lang="pt") == "0,5"
    assert i18n.number(0.125, ".1%", lang="pt") == "12,5%"
    assert i18n.number(1.9e-9, ".1e", lang="pt") == "1,9e-09"


def test_text_fields_and_booleans_are_left_alone():
    assert i18n.number(True, "", lang="pt") == "True"
    formatter = i18n._LocalFormatter("pt")
    assert formatter.format("{x!s} {y}", x=0.5, y="1.5") == "0.5 1.5"  # !s: a number in code
    assert formatter.format("{b}", b=True) == "True"


def test_the_default_language_is_the_course_language():
    before = i18n.get_language()
    try:
        i18n.set_language("pt")
        assert i18n.number(10.001, ".3f") == "10,001"
        assert "2.099.200" in i18n.t("lesson05.parameters", n=2_099_200)
    finally:
        i18n.set_language(before)


def test_symbols_match_cldr():
    numbers = pytest.importorskip("babel.numbers")
    locales = {"en": "en", "zh": "zh_Hans_CN", "pt": "pt_BR"}
    for lang, locale in locales.items():
        assert i18n.NUMBER_SYMBOLS[lang] == (numbers.get_decimal_symbol(locale),
                                             numbers.get_group_symbol(locale)), lang


def _outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            yield "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))


def test_pt_notebooks_print_pt_numbers():
    text = "\n".join(o for p in sorted((ROOT / "notebooks" / "pt").glob("0[0-5]_*.ipynb"))
                     for o in _outputs(p))
    assert "2.099.200 parâmetros" in text
    assert "10,001 ms" in text
    en = "\n".join(o for p in sorted((ROOT / "notebooks" / "en").glob("0[0-5]_*.ipynb"))
                   for o in _outputs(p))
    assert "2,099,200 params" in en and "10.001 ms" in en
