"""Every course-language note the ps package asks for exists in the ps catalogue, in all languages."""
import pathlib
import re

from sim import i18n


def test_every_explain_key_is_in_the_catalogue():
    keys = set()
    for path in pathlib.Path("sim/distribute/ps").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'explain\((?:[^()]|\([^()]*\))*?,\s*"([a-z_]+)"', text, re.S))
    assert len(keys) >= 15
    for lang in i18n.LANGUAGES:
        missing = [k for k in keys if f"ps.{k}" not in i18n.catalogs()[lang]]
        assert not missing, (lang, missing)
