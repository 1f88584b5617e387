"""The message catalogues: every key in every language, with the same placeholders."""
import re
import string

import pytest

from sim import i18n


def test_no_key_missing_in_any_language():
    assert i18n.missing_keys() == {lang: [] for lang in i18n.LANGUAGES}


def _fields(template):
    """Every field name, those nested in a format spec included ({gpus:?{device}|{device}s})."""
    names = set()
    for _, name, spec, _ in string.Formatter().parse(template):
        if name:
            names.add(name)
        if spec:
            names |= _fields(spec)
    return names


def test_a_plural_picks_the_form_by_the_count():
    assert i18n.t("lesson06.step_summary", lang="en", workers=1, gpus=8, device="GPU", network="n",
                  implementation="NCCL", compute=1, allreduce=1, step=2).startswith("1 worker × 8 GPUs")
    assert i18n.t("ps.timeline_title", lang="pt", workers=2, ps=1).endswith(
        "2 workers, 1 servidor de parâmetros")
    assert i18n.t("ps.timeline_title", lang="pt", workers=1, ps=3).endswith(
        "1 worker, 3 servidores de parâmetros")


def test_plural_rules_match_cldr():
    babel = pytest.importorskip("babel")
    from sim.i18n.plural import plural_category
    for lang, locale in {"en": "en", "zh": "zh_Hans_CN", "pt": "pt_BR"}.items():
        rule = babel.Locale.parse(locale).plural_form
        for count in (0, 1, 2, 5, 21, 100, 0.5, 1.5, 2.5):
            assert plural_category(count, lang) == rule(count), (lang, count)


def test_no_template_writes_a_plural_by_hand():
    for lang in ("en", "pt"):
        for key, template in i18n.catalogs()[lang].items():
            assert not re.search(r"\w\((?:s|es|is)\)", template), (lang, key)   # not "time (s)"


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


def test_a_width_in_a_message_counts_display_columns():
    """A CJK character takes two columns of a terminal or notebook: a cell holding Chinese is padded
    to the same width as one holding digits (lessons-zh-review-2, lesson 09 item 12)."""
    from sim.i18n import _LocalFormatter, _display_width
    fmt = _LocalFormatter("zh")
    cells = [fmt.format("{b:>8}|", b=text) for text in ("64", "整个模型", "桶 MB")]
    assert [_display_width(c) for c in cells] == [9, 9, 9]
    assert cells[1] == "整个模型|" and cells[0] == "      64|"
    assert fmt.format("{b:<6}|", b="开") == "开    |"
    assert fmt.format("{b:>3}|", b="整个模型") == "整个模型|"        # too wide: as str.format, no cut
    assert fmt.format("{b}|{n:>6,.1f}", b="网络", n=1234.5) == "网络|1,234.5"
