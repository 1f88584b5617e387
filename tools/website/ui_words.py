"""The interface strings of the theme and of Sphinx's search page in the page's language.

Furo writes a few English labels straight into its templates (the sidebar toggles, the theme
button, its icons' titles, "Skip to content"), and Sphinx's zh_CN catalogue lacks the search
summary Sphinx 8 prints ("Search finished, found 7 pages ..."); sphinx-copybutton has no
Portuguese. Screen readers read those labels and the browser shows them as tooltips, so the zh and
pt pages get them in their language: the search strings through a ``sphinx.js`` catalogue beside
the project's .po files, the rest by replacing the exact English the theme writes.
"""
from __future__ import annotations

import json
from pathlib import Path

from tools.website import SPHINX_LANGUAGE

# English as Furo 2025 writes it (attribute values and <title> texts) -> the page's language.
THEME = {
    "zh": {
        'aria-label="Toggle site navigation sidebar"': 'aria-label="展开或收起站点导航"',
        'aria-label="Toggle table of contents sidebar"': 'aria-label="展开或收起本页目录"',
        'aria-label="Toggle Light / Dark / Auto color theme"': 'aria-label="切换浅色 / 深色 / 自动配色"',
        "<title>Contents</title>": "<title>目录</title>",
        "<title>Menu</title>": "<title>菜单</title>",
        "<title>Expand</title>": "<title>展开</title>",
        "<title>Light mode</title>": "<title>浅色模式</title>",
        "<title>Dark mode</title>": "<title>深色模式</title>",
        "<title>Auto light/dark, in light mode</title>": "<title>自动配色，当前为浅色</title>",
        "<title>Auto light/dark, in dark mode</title>": "<title>自动配色，当前为深色</title>",
        "Skip to content": "跳到正文",
        ">Toggle navigation of ": ">展开或收起：",
    },
    "pt": {
        'aria-label="Toggle site navigation sidebar"': 'aria-label="Mostrar ou ocultar a navegação do site"',
        'aria-label="Toggle table of contents sidebar"': 'aria-label="Mostrar ou ocultar o sumário da página"',
        'aria-label="Toggle Light / Dark / Auto color theme"': 'aria-label="Alternar o tema claro / escuro / automático"',
        "<title>Contents</title>": "<title>Sumário</title>",
        "<title>Menu</title>": "<title>Menu</title>",
        "<title>Expand</title>": "<title>Expandir</title>",
        "<title>Light mode</title>": "<title>Modo claro</title>",
        "<title>Dark mode</title>": "<title>Modo escuro</title>",
        "<title>Auto light/dark, in light mode</title>": "<title>Automático, agora no modo claro</title>",
        "<title>Auto light/dark, in dark mode</title>": "<title>Automático, agora no modo escuro</title>",
        "Skip to content": "Pular para o conteúdo",
        ">Toggle navigation of ": ">Mostrar ou ocultar a navegação de ",
    },
}

# Sphinx's search page: the summary (singular and plural keys of ngettext) and its messages.
SEARCH = {
    "zh": {"Search finished, found one page matching the search query.":
           ["搜索完成，找到 ${resultCount} 个匹配的页面。"]},
    "pt": {"Search finished, found one page matching the search query.":
           ["Pesquisa concluída: ${resultCount} página corresponde à pesquisa.",
            "Pesquisa concluída: ${resultCount} páginas correspondem à pesquisa.",
            "Pesquisa concluída: ${resultCount} páginas correspondem à pesquisa."]},
}
COPYBUTTON_PT = ("  'pt-BR': {'copy': 'Copiar', 'copy_to_clipboard': 'Copiar para a área de transferência', "
                 "'copy_success': 'Copiado!', 'copy_failure': 'Não foi possível copiar'},\n")


def write_search_translations(lang: str, locales: Path) -> Path | None:
    """Sphinx's own ``sphinx.js`` catalogue of the language plus the course's search strings, in
    the project's locale folder (Sphinx prefers it to its own)."""
    if lang not in SEARCH:
        return None
    import sphinx

    code = SPHINX_LANGUAGE[lang]
    shipped = Path(sphinx.__file__).parent / "locale" / code / "LC_MESSAGES" / "sphinx.js"
    text = shipped.read_text(encoding="utf-8")
    start, end = text.index("(") + 1, text.rindex(")")
    catalogue = json.loads(text[start:end])
    catalogue["messages"].update(SEARCH[lang])
    out = locales / code / "LC_MESSAGES" / "sphinx.js"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text[:start] + json.dumps(catalogue, ensure_ascii=False, indent=4, sort_keys=True)
                   + text[end:], encoding="utf-8")
    return out


def translate_theme(html_root: Path, lang: str) -> int:
    """Replace the theme's English labels in every page of one language; return the pages changed."""
    words = THEME.get(lang)
    if not words:
        return 0
    changed = 0
    for page in html_root.rglob("*.html"):
        text = original = page.read_text(encoding="utf-8")
        for english, own in words.items():
            text = text.replace(english, own)
        if text != original:
            page.write_text(text, encoding="utf-8")
            changed += 1
    copybutton = html_root / "_static" / "copybutton.js"
    if lang == "pt" and copybutton.exists():
        script = copybutton.read_text(encoding="utf-8")
        if "'pt-BR'" not in script:
            copybutton.write_text(script.replace("const messages = {\n", "const messages = {\n" + COPYBUTTON_PT, 1),
                                  encoding="utf-8")
    return changed
