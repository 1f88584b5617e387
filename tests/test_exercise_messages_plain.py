"""The exercise checkers print their messages as plain text (a cell's output, not Markdown), so no
message of the exercises catalogue may carry Markdown's backticks: they would show as `name`."""
import json
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parents[1] / "sim" / "i18n" / "catalogs" / "exercises.json"


def test_no_exercise_message_shows_markdown_backticks():
    catalogue = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    marked = [f"{lang}.{key}" for lang, messages in catalogue.items() if isinstance(messages, dict)
              for key, text in messages.items() if isinstance(text, str) and "`" in text]
    assert not marked, f"Markdown backticks in plain-text messages: {marked}"
