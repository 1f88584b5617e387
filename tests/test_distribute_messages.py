"""Every error note the distribute layer raises exists in en/zh/pt; non-English courses get it."""
import json
import re
from pathlib import Path

import pytest

import sim.tf as tf
from sim import i18n

ROOT = Path(__file__).resolve().parents[1]
CATALOG = json.loads((ROOT / "sim/i18n/catalogs/distribute.json").read_text(encoding="utf-8"))


def _used_keys():
    keys = set()
    for path in (ROOT / "sim/distribute").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'explain\((?:[^()]|\([^()]*\))*?"([a-z_0-9]+)"', text, re.S))
    return keys


def test_catalog_has_every_key_in_three_languages():
    used = _used_keys()
    assert len(used) > 20
    for lang in ("en", "zh", "pt"):
        assert set(CATALOG[lang]) == set(CATALOG["en"]), lang
        assert used <= set(CATALOG[lang]), (lang, sorted(used - set(CATALOG[lang])))


@pytest.mark.parametrize("lang, word", [("zh", "副本"), ("pt", "réplicas")])
def test_course_language_explains_after_tf_text(lang, word):
    i18n.set_language(lang)
    try:
        s = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
        with pytest.raises(ValueError) as e:
            s.reduce("SUM", tf.constant(3.0), None)
        text = str(e.value)
        assert text.startswith("A non-DistributedValues value")
        assert word in text.split("\n", 1)[1]
    finally:
        i18n.set_language("en")
    with pytest.raises(ValueError) as e:
        s.reduce("SUM", tf.constant(3.0), None)
    assert "\n" not in str(e.value)
