"""Search in Chinese: Sphinx indexes Chinese text with jieba; the glossary's terms are added to
jieba's dictionary so every course term is one searchable word."""
from __future__ import annotations

from pathlib import Path

from tools.website import BUILD, ROOT


def glossary_terms(lang_column: int = 2) -> list[str]:
    """The Chinese terms of notebooks/GLOSSARY.md (its second column), split at "/" and "（"."""
    terms = []
    text = (ROOT / "notebooks" / "GLOSSARY.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|")][2:]  # after the header
    for line in rows:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        for part in cells[lang_column - 1].replace("（", "/").replace("）", "/").split("/"):
            part = part.strip()
            if part and any(ord(ch) >= 0x2E80 for ch in part) and " " not in part:
                terms.append(part)
    return terms


def jieba_dictionary() -> Path:
    """Write the glossary's Chinese terms as a jieba user dictionary (word, frequency per line)."""
    path = BUILD / "jieba-glossary.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(f"{term} 100000\n" for term in sorted(set(glossary_terms())))
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path
