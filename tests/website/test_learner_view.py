"""The website as a learner sees it (the flaws of shared/reviews/browser-site-and-lessons-10-11.md):
Chinese in code and outputs drawn with the course's font on a machine without any Chinese font,
Chinese search for phrases typed without spaces, search and theme words in the page's language,
copy buttons, figures that enlarge to a legible size on a phone, each figure once, a home table
that fits a phone, the sidebar in the course's order, a favicon, titles that fit a phone."""
from __future__ import annotations

import struct
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from test_browser import Visit, cjk_count

COURSE_FONT = "Noto Sans SC Course"
PHONE, DESKTOP = (390, 844), (1280, 720)


def lesson_and_exercise_pages(site: Path, lang: str) -> list[Path]:
    return sorted((site / lang / "lessons").glob("*.html")) + sorted((site / lang / "exercises").glob("*.html"))


def fonts_of_chinese_text(page, selector: str) -> list[dict]:
    """For each element under ``selector`` with Chinese in its own text: how many CJK characters it
    holds and how many glyphs Chromium drew with the course font (DevTools' own account)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    found = []
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]:
        described = cdp.send("DOM.describeNode", {"nodeId": node, "depth": 1})["node"]
        own = "".join(c.get("nodeValue", "") for c in described.get("children", []) if c.get("nodeType") == 3)
        if cjk_count(own) == 0:
            continue
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        found.append({"text": own.strip()[:60], "cjk": cjk_count(own),
                      "course": sum(f["glyphCount"] for f in fonts if f["familyName"] == COURSE_FONT),
                      "fonts": {f["familyName"]: f["glyphCount"] for f in fonts}})
    cdp.detach()
    return found


def test_chinese_in_code_outputs_and_messages_is_drawn_with_the_course_font(site, browser_without_cjk):
    """On a machine with no Chinese font (the system's are hidden), every Chinese character in code
    cells, outputs, checker messages and the run box of every zh lesson and exercise is a glyph of
    the course font, not a tofu box of whatever font comes next."""
    visit = Visit(browser_without_cjk)
    problems, checked = [], 0
    for path in lesson_and_exercise_pages(site, "zh"):
        visit.go(path.as_uri())
        visit.page.evaluate("document.fonts.ready")
        for item in fonts_of_chinese_text(visit.page, "article pre, article pre *, article code, article .admonition p"):
            if not item["fonts"]:
                continue   # not drawn (a collapsed solution's label); tofu would name a font
            checked += item["cjk"]
            if item["course"] < item["cjk"]:
                problems.append(f"{path.name}: {item['text']!r}: {item['course']} of {item['cjk']} from the "
                                f"course font, drawn with {item['fonts']}")
    visit.close()
    assert checked > 1000, f"only {checked} Chinese characters in code and outputs were checked"
    assert not problems, "\n".join(problems[:20])


# The lessons' text tables count a wide (CJK or full-width) character as two columns, as a terminal
# does (sim.course.text_table). For every table line of a <pre> with such characters: its drawn
# width, and the width its columns should have (the width of "0" in that <pre> times its columns).
WIDE_TABLE_LINES = r"""pre => {
    const wide = c => /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(c);
    const probe = document.createElement("span");
    probe.textContent = "0".repeat(20);
    pre.appendChild(probe);
    const cell = probe.getBoundingClientRect().width / 20;
    probe.remove();
    const text = pre.textContent, walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    const nodes = []; let at = 0;
    while (walker.nextNode()) { nodes.push([walker.currentNode, at]); at += walker.currentNode.length; }
    const locate = i => { for (const [n, start] of nodes) if (i < start + n.length) return [n, i - start];
                          const [n, start] = nodes[nodes.length - 1]; return [n, n.length]; };
    const rows = []; let start = 0;
    for (const line of text.split("\n")) {
        const end = start + line.length;
        if (/\S {2,}\S/.test(line.trim()) && [...line].some(wide)) {
            const r = document.createRange();
            r.setStart(...locate(start)); r.setEnd(...locate(end));
            const columns = [...line].reduce((n, c) => n + (wide(c) ? 2 : 1), 0);
            const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
            if (tops.size > 1) { start = end + 1; continue; }   // wrapped: its own test's business
            rows.push({line: line.slice(0, 50), drawn: r.getBoundingClientRect().width, expected: columns * cell});
        }
        start = end + 1;
    }
    return rows;
}"""


def misaligned(rows, tolerance=0.01):
    """The rows whose drawn width is off the width of their columns by more than ``tolerance``."""
    return [r for r in rows if r["drawn"] and abs(r["drawn"] - r["expected"]) > tolerance * r["expected"]]


@pytest.mark.parametrize("fonts", ["browser", "browser_without_cjk"])
def test_a_chinese_table_in_an_output_keeps_its_columns(site, request, fonts):
    """A wide character is two columns of code wide, with or without a system Chinese font: the
    columns of zh tables stand under their headers (they drifted 0.2 em left per character)."""
    visit = Visit(request.getfixturevalue(fonts), viewport=DESKTOP)
    rows, bad = 0, []
    for lesson in ("04_keras_fit", "09_will_it_scale", "11_plan_to_target"):
        visit.go((site / "zh" / "lessons" / f"{lesson}.html").as_uri())
        visit.page.evaluate("document.fonts.ready")
        for output in visit.page.locator("article .cell_output pre").all():
            found = output.evaluate(WIDE_TABLE_LINES)
            rows += len(found)
            bad += [f"{lesson}: {r['line']!r}: {r['drawn']:.1f} px for {r['expected']:.1f}"
                    for r in misaligned(found, tolerance=0.02)]
    visit.close()
    assert rows >= 20, rows
    assert not bad, "\n".join(bad[:10])


# Phrases a Chinese reader types without spaces, and a page each must find.
CHINESE_PHRASES = {
    "环形全归约": "lessons/02_allreduce_step_by_step.html",
    "手写环形全归约": "exercises/02_ring_allreduce.html",
    "参数服务器策略": "lessons/07_parameter_servers.html",
    "缩放学习率": "lessons/08_scaling.html",
}


def search(visit, site: Path, lang: str, query: str) -> list[str]:
    visit.go((site / lang / "search.html").as_uri() + "?q=" + query)
    # Finished when the summary states a count (before that it says "Searching", with no digit).
    visit.page.wait_for_function("() => typeof Search !== 'undefined' && Search._index && /[0-9]/.test("
                                 "(document.querySelector('#search-results .search-summary') || {}).innerText || '')",
                                 timeout=30000)
    visit.page.wait_for_timeout(500)   # the hits are listed a few milliseconds apart
    hits = visit.page.locator("#search-results ul.search li a").evaluate_all("as => as.map(a => a.href)")
    return [unquote(urlsplit(h).path) for h in hits]


@pytest.mark.parametrize("phrase", CHINESE_PHRASES)
def test_chinese_search_finds_a_phrase_typed_without_spaces(site, browser, phrase):
    import jieba

    from tools.website.search import jieba_dictionary

    visit = Visit(browser)
    hits = search(visit, site, "zh", phrase)
    assert any(h.endswith("/zh/" + CHINESE_PHRASES[phrase]) for h in hits), (phrase, hits[:8])
    # The query is cut into words the index holds, as jieba cut the pages at build time.
    words = visit.page.evaluate("q => courseSplitChinese(q)", phrase)
    in_index = visit.page.evaluate("ws => ws.every(w => w in Search._index.terms || w in Search._index.titleterms)", words)
    jieba.load_userdict(str(jieba_dictionary()))
    assert in_index and set(words) <= set(jieba.cut_for_search(phrase)), (words, list(jieba.cut_for_search(phrase)))
    summary = visit.page.locator("#search-results .search-summary").inner_text()
    assert "Search finished" not in summary and "搜索完成" in summary and str(len(hits)) in summary, summary
    visit.close()


def test_portuguese_search_summary_is_portuguese(site, browser):
    visit = Visit(browser)
    hits = search(visit, site, "pt", "servidor de parâmetros")
    summary = visit.page.locator("#search-results .search-summary").inner_text()
    assert hits and summary.startswith("Pesquisa concluída") and str(len(hits)) in summary, summary
    visit.close()


# Labels the theme writes in English (Furo's templates, its icons) and Sphinx's heading links.
ENGLISH_LABELS = ("Toggle site navigation sidebar", "Toggle table of contents sidebar",
                  "Toggle Light / Dark / Auto color theme", "Link to this heading", "Skip to content",
                  "Light mode", "Dark mode", "Auto light/dark", "Toggle navigation of", "Copy to clipboard",
                  "Contents", "Expand")


@pytest.mark.parametrize("lang", ["zh", "pt"])
def test_the_theme_speaks_the_page_language(site, browser, lang):
    visit = Visit(browser, (site / lang / "lessons" / "06_multi_worker.html").as_uri())
    labels = visit.page.evaluate("""() => [
        ...[...document.querySelectorAll('[aria-label], [title], [data-tooltip]')].flatMap(
            e => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('data-tooltip')]),
        ...[...document.querySelectorAll('svg title, .visually-hidden, .skip-to-content')].map(e => e.textContent),
    ].filter(Boolean).map(s => s.trim())""")
    english = sorted({s for s in labels for e in ENGLISH_LABELS if s == e or (e.endswith(" of") and s.startswith(e))})
    assert not english, english
    visit.close()


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_code_blocks_have_a_copy_button_in_the_page_language(site, browser, lang):
    """sphinx-copybutton on every code cell, the run box and the solutions; not on outputs."""
    tooltip = {"en": "Copy", "zh": "复制", "pt": "Copiar"}[lang]
    for page in ("lessons/02_allreduce_step_by_step.html", "exercises/11_choose_plan.html"):
        visit = Visit(browser, (site / lang / page).as_uri())
        counts = visit.page.evaluate("""() => ({
            inputs: document.querySelectorAll('div.cell_input div.highlight pre').length,
            run: document.querySelectorAll('div.course-run div.highlight pre').length,
            buttons: document.querySelectorAll('button.copybtn').length,
            outputs: document.querySelectorAll('div.cell_output button.copybtn').length,
            tooltips: [...new Set([...document.querySelectorAll('button.copybtn')].map(b => b.dataset.tooltip))]})""")
        assert counts["run"] == 1 and counts["inputs"] > 3, counts
        assert counts["buttons"] == counts["inputs"] + counts["run"] and counts["outputs"] == 0, counts
        assert counts["tooltips"] == [tooltip], counts
        visit.close()


def png_dpi(path: Path) -> float:
    """The pixels per inch a PNG says it was drawn at (matplotlib writes its pHYs chunk)."""
    data = path.read_bytes()
    at = data.find(b"pHYs")
    x_per_metre, _, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert at > 0 and unit == 1, path
    return x_per_metre * 0.0254


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_figure_enlarges_to_a_legible_size_on_a_click_or_tap(site, browser, size):
    """Lesson 09's figures: on the page a phone shows them at a third of their size (a 7-pt legend
    about 3 px tall); tapped, each opens at a size where one point of the figure is at least one
    CSS pixel, with at least 1.5 image pixels per CSS pixel, so it stays sharp."""
    viewport = PHONE if size == "phone" else DESKTOP
    visit = Visit(browser, viewport=viewport)
    visit.context.close()
    visit.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                        has_touch=size == "phone", is_mobile=size == "phone")
    visit.page = visit.context.new_page()
    page_path = site / "zh" / "lessons" / "09_will_it_scale.html"
    visit.page.goto(page_path.as_uri())
    figures = visit.page.locator("article .cell_output img")
    assert figures.count() >= 4
    problems = []
    for i in range(figures.count()):
        figure = figures.nth(i)
        figure.scroll_into_view_if_needed()
        src = figure.get_attribute("src")
        dpi = png_dpi(page_path.parent / unquote(src))
        natural = figure.evaluate("img => img.naturalWidth")
        figure.tap() if size == "phone" else figure.click()
        big = visit.page.locator(".course-zoom img")
        big.wait_for(state="visible", timeout=5000)
        shown = big.evaluate("img => img.getBoundingClientRect().width")
        css_px_per_point = shown / (natural / dpi * 72)
        image_px_per_css_px = natural / shown
        if css_px_per_point < 1.0 or image_px_per_css_px < 1.5:
            problems.append(f"{src}: {css_px_per_point:.2f} CSS px per point, {image_px_per_css_px:.2f} "
                            "image px per CSS px")
        visit.page.keyboard.press("Escape")
        assert visit.page.locator(".course-zoom").count() == 0
    visit.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lesson", ["07_parameter_servers", "10_real_tensorflow", "11_plan_to_target"])
def test_no_figure_is_shown_twice(site, browser, lesson):
    for lang in ("en", "zh", "pt"):
        visit = Visit(browser, (site / lang / "lessons" / f"{lesson}.html").as_uri())
        srcs = visit.page.locator("article img").evaluate_all("is => is.map(i => i.src)")
        assert srcs and len(srcs) == len(set(srcs)), (lang, [s for s in srcs if srcs.count(s) > 1])
        visit.close()


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_the_home_tables_fit_a_phone(site, browser, lang):
    visit = Visit(browser, (site / lang / "index.html").as_uri(), viewport=PHONE)
    tables = visit.page.evaluate("""() => [...document.querySelectorAll('article table')].map(t => {
        const box = t.closest('.table-wrapper') || t;
        return {right: t.getBoundingClientRect().right, width: innerWidth,
                overflow: box.scrollWidth - box.clientWidth, wide: t.scrollWidth - t.clientWidth}; })""")
    assert len(tables) >= 2
    assert all(t["right"] <= t["width"] and t["overflow"] <= 1 and t["wide"] <= 1 for t in tables), tables
    visit.close()


# Words of table cells drawn over two lines: a break inside a word, not at a space, hyphen,
# underscore, "·" or an API name's <wbr>. Chinese breaks between characters; code may break anywhere.
BROKEN_WORDS = r"""() => { const out = [];
  for (const cell of document.querySelectorAll('article table th, article table td')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      if (node.parentElement.closest('code')) continue;
      const re = /[^\s\u00a0\u00b7_\-]+/gu; let m;
      while ((m = re.exec(node.data))) {
        if (/[\u3000-\u9fff]/u.test(m[0])) continue;
        const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter(x => x.width > 0);
        if (!rects.length) continue;
        const tops = rects.map(x => x.top), h = Math.max(...rects.map(x => x.height));
        if (Math.max(...tops) - Math.min(...tops) > h / 2) out.push(m[0]);
      }
    }
  }
  return out; }"""


@pytest.mark.parametrize("page", ["index.html", "teaching.html"])
@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_no_word_of_a_table_breaks_inside_itself_on_a_phone(site, browser, lang, page):
    """"Lição", not "Liç/ão"; a table wider than the phone scrolls in its own box, not the page."""
    visit = Visit(browser, (site / lang / page).as_uri(), viewport=PHONE)
    visit.page.evaluate("document.fonts.ready")
    assert visit.page.evaluate(BROKEN_WORDS) == []
    assert visit.page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    visit.close()


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_the_sidebar_lists_exercises_in_the_course_order(site, browser, lang):
    visit = Visit(browser, (site / lang / "index.html").as_uri())
    side = visit.page.locator(".sidebar-tree a.reference").evaluate_all("as => as.map(a => a.href)")
    home = visit.page.locator("article table").first.locator("a").evaluate_all("as => as.map(a => a.href)")
    exercises = lambda links: [h.rsplit("/", 1)[1] for h in links if "/exercises/" in h]
    assert exercises(side) == exercises(home) and exercises(side).index("02_ring_allreduce.html") \
        < exercises(side).index("02_choose_algorithm.html"), exercises(side)
    visit.close()


def test_every_page_names_its_icon_and_the_server_finds_it(site, browser):
    """No 404 for /favicon.ico over HTTP: each page links an icon that exists."""
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        visit = Visit(browser, local=base)
        missing = []
        visit.page.on("response", lambda r: r.status >= 400 and missing.append(r.url))
        for page in ("index.html", "zh/index.html", "pt/lessons/06_multi_worker.html", "en/search.html"):
            visit.go(base + page)
            visit.page.wait_for_timeout(300)
            icon = visit.page.locator("link[rel~=icon]").first.evaluate("l => l.href")
            assert icon.startswith(base) and not icon.endswith("/favicon.ico"), icon
            assert not visit.errors, (page, visit.errors)
        assert not missing, missing
        visit.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize("page", ["pt/lessons/11_plan_to_target.html", "en/lessons/06_multi_worker.html",
                                  "zh/lessons/06_multi_worker.html"])
def test_a_title_fits_a_phone(site, browser, page):
    """The h1 takes at most a quarter of a phone's screen, and a long API name breaks only where
    its words join (MultiWorker|Mirrored|Strategy), never inside a word."""
    visit = Visit(browser, (site / page).as_uri(), viewport=PHONE)
    h1 = visit.page.locator("article h1").first
    box = h1.evaluate("""h => { const r = h.getBoundingClientRect(); return {height: r.height,
        overflow: h.scrollWidth - h.clientWidth, size: parseFloat(getComputedStyle(h).fontSize)}; }""")
    assert box["height"] <= PHONE[1] / 4 and box["overflow"] <= 1 and box["size"] <= 28, box
    # Each line of the title ends at a space, a break opportunity or a CJK character.
    broken = h1.evaluate("""h => {
        const texts = []; const walk = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) texts.push(walk.currentNode);
        const bad = [];
        for (const node of texts) {
            const s = node.textContent;
            for (let i = 1; i < s.length; i++) {
                if (!/[A-Za-z0-9]/.test(s[i - 1]) || !/[A-Za-z0-9]/.test(s[i])) continue;
                const r = document.createRange();
                r.setStart(node, i - 1); r.setEnd(node, i);
                const a = r.getBoundingClientRect();
                r.setStart(node, i); r.setEnd(node, i + 1);
                const b = r.getBoundingClientRect();
                if (b.top > a.top + a.height / 2) bad.push(s.slice(Math.max(0, i - 8), i) + "|" + s.slice(i, i + 8));
            }
        }
        return bad; }""")
    assert not broken, broken
    visit.close()


def test_the_root_page_is_a_styled_chooser(site, browser):
    visit = Visit(browser, (site / "index.html").as_uri(), viewport=PHONE)
    page = visit.page
    assert page.locator("html").get_attribute("lang") == "mul"
    assert page.locator("h1").count() == 1 and cjk_count(page.locator("h1").inner_text()) >= 4
    styles = page.locator("main a").evaluate_all("""as => as.map(a => { const s = getComputedStyle(a);
        return {display: s.display, border: s.borderTopWidth, font: getComputedStyle(document.body).fontFamily}; })""")
    assert len(styles) == 3 and all(s["display"] == "block" and s["border"] != "0px" and COURSE_FONT in s["font"]
                                    for s in styles), styles
    visit.close()


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_an_exercise_page_sends_the_learner_to_the_exercise_first(site, browser, lang):
    visit = Visit(browser, (site / lang / "exercises" / "11_choose_plan.html").as_uri())
    box = visit.page.locator("div.course-run").inner_text()
    student, solution = f"exercises/{lang}/11_choose_plan.ipynb", f"exercises/{lang}/solutions/11_choose_plan.ipynb"
    assert student in box and solution in box and box.index(student) < box.index(solution), box
    assert {"en": "Run this exercise", "zh": "运行这个练习", "pt": "Execute este exercício"}[lang] in box, box
    visit.close()
