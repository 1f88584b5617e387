"""The course language and the message catalogues.

Every learner-facing string (plot labels, error messages, checker verdicts) lives in a
catalogue under ``sim/i18n/catalogs/<domain>.json``; each file holds the three languages
side by side so a translator sees them together. Keys are ``"<domain>.<name>"``.
A key missing in one language is an error (and a test failure), never a silent fallback.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "zh", "pt")
_CATALOG_DIR = Path(__file__).with_name("catalogs")


class MissingMessage(KeyError):
    """A catalogue key is absent (or absent in one language)."""


def _check(lang, where: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(
            f"Unknown course language {lang!r} ({where}); choose one of {', '.join(LANGUAGES)} "
            f"(for example sim.setup('zh'), or the environment variable SIM_LANG=zh)."
        )
    return lang


def set_language(lang: str) -> str:
    """Set the course language (``"en"``, ``"zh"`` or ``"pt"``) and return it."""
    global _language
    _language = _check(lang, "the language passed to sim.setup / sim.i18n.set_language")
    return lang


# The starting language: SIM_LANG, checked as sim.setup checks its argument (an unknown one is
# the same ValueError, not a silent fall-back to English).
_language = _check(os.environ.get("SIM_LANG") or "en", "the environment variable SIM_LANG")


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


def t(key: str, lang: str | None = None, **fields) -> str:
    """The message ``key`` in the course language, with ``fields`` filled in."""
    lang = lang or _language
    table = catalogs()[lang]
    if key not in table:
        raise MissingMessage(f"message {key!r} has no {lang!r} text in sim/i18n/catalogs/")
    return table[key].format(**fields)


def missing_keys() -> dict[str, list[str]]:
    """Keys present in some language but missing in another: ``{lang: [keys]}``."""
    every = set().union(*(set(v) for v in catalogs().values()))
    return {lang: sorted(every - set(table)) for lang, table in catalogs().items()}
