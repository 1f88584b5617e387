"""The message catalogues: every key in every language, with the same placeholders."""
import string

import pytest

from sim import i18n


def test_no_key_missing_in_any_language():
    assert i18n.missing_keys() == {lang: [] for lang in i18n.LANGUAGES}


def _fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_placeholders_agree_across_languages():
    tables = i18n.catalogs()
    for key, english in tables["en"].items():
        for lang in ("zh", "pt"):
            assert _fields(tables[lang][key]) == _fields(english), (lang, key)


def test_t_formats_in_the_chosen_language():
    before = i18n.get_language()
    try:
        i18n.set_language("pt")
        assert "4 réplicas" in i18n.t("exercises.shard_split", g=8, r=4, sizes=[2, 2, 2, 2])
        assert "副本" in i18n.t("exercises.shard_split", lang="zh", g=8, r=4, sizes=[2, 2, 2, 2])
    finally:
        i18n.set_language(before)


def test_unknown_language_names_the_choices():
    with pytest.raises(ValueError, match="en, zh, pt"):
        i18n.set_language("fr")


def test_missing_key_is_an_error_not_a_fallback():
    with pytest.raises(i18n.MissingMessage):
        i18n.t("core.no_such_message")
