"""The course language and the message catalogues.

Every learner-facing string (plot labels, error messages, checker verdicts) lives in a
catalogue under ``sim/i18n/catalogs/<domain>.json``; each file holds the three languages
side by side so a translator sees them together. Keys are ``"<domain>.<name>"``.
A key missing in one language is an error (and a test failure), never a silent fallback.

Numbers follow the course language wherever a message prints them: ``t()`` formats each
numeric field with the template's own format spec (``{n:,}``, ``{ms:.3f}``, widths and all),
then writes the language's decimal and grouping symbols, so pt reads 2.099.200 and 10,001
while en and zh read 2,099,200 and 10.001. A field converted with ``!s``/``!r`` is text and
stays as it is (use that for a number inside a code snippet). ``number()`` does the same
for code outside the catalogues (plot tick labels, widgets). A field whose spec starts with ``?``
picks a word by the count's grammatical number: ``{n:?worker|workers}`` (see ``plural.py``).
"""
from __future__ import annotations

import json
import numbers
import os
import re
import string
import unicodedata
from functools import lru_cache
from pathlib import Path

from sim.i18n.plural import PLURAL_SPEC, choose

LANGUAGES = ("en", "zh", "pt")
_CATALOG_DIR = Path(__file__).with_name("catalogs")
_language = os.environ.get("SIM_LANG", "en") if os.environ.get("SIM_LANG", "en") in LANGUAGES else "en"


# (decimal symbol, grouping symbol) per language, from CLDR (en, zh_Hans_CN, pt_BR; a test
# checks them against Babel's copy of CLDR). Python's format spec does the rest, so Babel is
# not a run-time dependency: only these two symbols differ between the course's languages.
NUMBER_SYMBOLS = {"en": (".", ","), "zh": (".", ","), "pt": (",", ".")}


class MissingMessage(KeyError):
    """A catalogue key is absent (or absent in one language)."""


def set_language(lang: str) -> str:
    """Set the course language (``"en"``, ``"zh"`` or ``"pt"``) and return it."""
    global _language
    if lang not in LANGUAGES:
        raise ValueError(_unknown_language(lang, "sim.setup / sim.i18n.set_language"))
    _language = lang
    return lang


def _unknown_language(lang, where: str) -> str:
    return (f"Unknown course language {lang!r} ({where}); choose one of {', '.join(LANGUAGES)} "
            f"(for example sim.setup('zh'), or the environment variable SIM_LANG=zh).")


# SIM_LANG is checked as sim.setup checks its argument: an unknown language is the same
# ValueError, not a silent fall-back to English.
if os.environ.get("SIM_LANG") and os.environ["SIM_LANG"] not in LANGUAGES:
    raise ValueError(_unknown_language(os.environ["SIM_LANG"], "the environment variable SIM_LANG"))


def get_language() -> str:
    return _language


@lru_cache(maxsize=None)
def catalogs() -> dict[str, dict[str, str]]:
    """All catalogues merged: ``{lang: {key: template}}``."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for path in sorted(_CATALOG_DIR.glob("*.json")):
        domain = path.stem
        data = json.loads(path.read_text(encoding="utf-8"))
        for lang in LANGUAGES:
            for name, template in data.get(lang, {}).items():
                merged[lang][f"{domain}.{name}"] = template
    return merged


def _is_number(value) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def number(value, spec: str = "", lang: str | None = None) -> str:
    """``format(value, spec)`` written with the course language's decimal and grouping symbols."""
    text = format(value, spec)
    decimal, group = NUMBER_SYMBOLS[lang or _language]
    if (decimal, group) == (".", ","):
        return text
    return text.translate(str.maketrans({".": decimal, ",": group}))


class _LocalFormatter(string.Formatter):
    """``str.format`` whose numeric fields are written in one language's number format."""

    def __init__(self, lang: str):
        super().__init__()
        self.lang = lang

    def format_field(self, value, format_spec):
        if format_spec.startswith(PLURAL_SPEC):
            return choose(value, format_spec, self.lang)
        if _is_number(value):
            return number(value, format_spec, self.lang)
        if isinstance(value, str) and format_spec:       # a CJK character takes two columns
            format_spec = _display_spec(value, format_spec)
        return super().format_field(value, format_spec)


def _display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


_WIDTH_SPEC = re.compile(r"((?:.?[<>^])?)(\d+)")   # a string field's [[fill]align]width


def _display_spec(text: str, spec: str) -> str:
    """``spec`` ([[fill]align]width) with the width counted in display columns, so that a table
    cell holding Chinese lines up under its header."""
    m = None if text.isascii() else _WIDTH_SPEC.fullmatch(spec)
    if not m:
        return spec
    return f"{m.group(1)}{max(0, int(m.group(2)) - (_display_width(text) - len(text)))}"


def t(key: str, lang: str | None = None, **fields) -> str:
    """The message ``key`` in the course language, with ``fields`` filled in (numbers in the
    language's format: see the module docstring)."""
    lang = lang or _language
    table = catalogs()[lang]
    if key not in table:
        raise MissingMessage(f"message {key!r} has no {lang!r} text in sim/i18n/catalogs/")
    return _LocalFormatter(lang).format(table[key], **fields)


def join_list(items, lang: str | None = None) -> str:
    """``items`` as a list in running text: "5, 10, 20" in en and pt, "5、10、20" in zh."""
    return t("core.list_separator", lang=lang).join(
        number(i, "", lang) if _is_number(i) else str(i) for i in items)


def pad(text: str, width: int, left: bool = False) -> str:
    """``text`` padded to ``width`` display columns (a CJK character takes two), right-aligned."""
    spaces = " " * max(0, width - _display_width(str(text)))
    return f"{text}{spaces}" if left else f"{spaces}{text}"


def number_list(values, spec: str = "", lang: str | None = None) -> str:
    """A printed list of numbers, ``[0.7188, 1.7305]``, in the language's number format; where
    the decimal mark is a comma (pt) the items are separated by "; " so they stay readable."""
    decimal, _ = NUMBER_SYMBOLS[lang or _language]
    return "[" + ("; " if decimal == "," else ", ").join(number(v, spec, lang) for v in values) + "]"


def missing_keys() -> dict[str, list[str]]:
    """Keys present in some language but missing in another: ``{lang: [keys]}``."""
    every = set().union(*(set(v) for v in catalogs().values()))
    return {lang: sorted(every - set(table)) for lang, table in catalogs().items()}
