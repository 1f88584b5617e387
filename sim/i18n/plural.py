"""Grammatical plurals in the course's languages, for catalogue templates.

A template picks a word by a count with the spec ``?singular|plural``: ``"{n} {n:?worker|workers}"``
gives "1 worker" and "4 workers"; Chinese has one form (``"{n} 个工作进程"``). The categories are
CLDR's plural rules for integers and decimals (a test checks them against Babel's copy of CLDR):
en "one" for exactly 1; pt (Brazil) "one" when the integer part is 0 or 1 ("0 worker" is the
pt-BR singular, CLDR rule ``i = 0..1``); zh never.
"""
from __future__ import annotations

import math

PLURAL_SPEC = "?"


def plural_category(count, lang: str) -> str:
    """CLDR's category, ``"one"`` or ``"other"``, of ``count`` in ``lang``."""
    if lang == "zh":
        return "other"
    if lang == "pt":
        return "one" if 0 <= abs(count) < 2 and math.floor(abs(count)) in (0, 1) else "other"
    is_integer = float(count).is_integer()
    return "one" if is_integer and abs(count) == 1 else "other"


def choose(count, spec: str, lang: str) -> str:
    """The form of ``?one|other`` (the text after ``?``) that ``count`` takes in ``lang``."""
    forms = spec[len(PLURAL_SPEC):].split("|")
    if len(forms) == 1:
        return forms[0]
    try:
        count = float(count)          # a count may come as text ("2" from a regime's name)
    except (TypeError, ValueError):
        return forms[1]
    return forms[0] if plural_category(count, lang) == "one" else forms[1]
