"""The website in headless Chromium, for each language: every page loads with no console error and
no request leaving the machine, every figure has loaded, Chinese renders in the course font (not
tofu), the language switcher reaches the same page, and search finds a glossary term."""
from __future__ import annotations

from pathlib import Path

import pytest

LANGS = {"en": "en", "zh": "zh-CN", "pt": "pt-BR"}
# A glossary term per language, as a reader would type it (the glossary has every one of them).
SEARCH_TERMS = {"en": "staleness", "zh": "全归约", "pt": "réplica"}
SCREENSHOT_LESSON = "lessons/02_allreduce_step_by_step.html"
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


def pages_of(site: Path, lang: str) -> list[Path]:
    return sorted((site / lang).rglob("*.html"))


class Visit:
    """A browser tab that records what it asked for outside file:// (and blocks it) and what it
    logged as an error; ``go`` loads a page and clears the record."""

    def __init__(self, browser, url: str | None = None, viewport=(1280, 900), local: str = "file:"):
        self.local = ("file:", "data:", "blob:", "about:", local)
        self.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.failed: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))
        self.context.route("**/*", self._route)
        if url:
            self.go(url)

    def go(self, url: str) -> None:
        self.errors.clear(), self.outside.clear(), self.failed.clear()
        self.page.goto(url, wait_until="load")

    def _route(self, route):
        url = route.request.url
        if url.startswith(self.local):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def close(self):
        self.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_loads_offline_with_its_figures(site, browser, lang):
    problems = []
    visit = Visit(browser)
    page = visit.page
    for path in pages_of(site, lang):
        visit.go(path.as_uri())
        shown = path.relative_to(site)
        assert page.locator("html").get_attribute("lang") == LANGS[lang], shown
        # Images load lazily at most; make each eager, then ask whether it decoded.
        broken = page.evaluate("""async () => {
            const imgs = [...document.images];
            for (const img of imgs) img.loading = "eager";
            await Promise.all(imgs.map(img => img.decode().catch(() => null)));
            return imgs.filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.src);
        }""")
        if page.locator("span.math.notranslate").count() or page.evaluate("!!window.MathJax"):   # a page or a deck
            page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.Hub.queue.running === 0"
                                   " && MathJax.Hub.queue.pending === 0"
                                   " && document.querySelectorAll('.MathJax').length > 0", timeout=20000)
            typeset = page.locator(".MathJax").count()
            if typeset < page.locator("span.math.notranslate").count():
                problems.append(f"{shown}: {typeset} of {page.locator('span.math.notranslate').count()} formulas typeset")
        for what, found in (("console errors", visit.errors), ("requests leaving the machine", visit.outside),
                            ("failed requests", visit.failed), ("figures that did not load", broken)):
            if found:
                problems.append(f"{shown}: {what}: {found}")
    visit.close()
    assert not problems, "\n".join(problems)


def test_the_root_page_offers_the_three_languages(site, browser):
    visit = Visit(browser, (site / "index.html").as_uri())
    hrefs = visit.page.locator("a").evaluate_all("as => as.map(a => a.href)")
    assert hrefs == [(site / lang / "index.html").as_uri() for lang in LANGS]
    assert not visit.errors and not visit.outside and not visit.failed
    visit.close()


def test_a_static_server_serves_it_too(site, browser):
    """Served over HTTP from loopback (any static server), a lesson, its figures and search work."""
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
        visit = Visit(browser, base + "zh/" + SCREENSHOT_LESSON, local=base)
        loaded = visit.page.evaluate("""async () => { await Promise.all([...document.images].map(
            i => { i.loading = "eager"; return i.decode().catch(() => null); }));
            return [...document.images].every(i => i.naturalWidth > 0) && document.images.length > 0; }""")
        assert loaded and not visit.errors and not visit.outside and not visit.failed
        visit.go(base + "zh/search.html?q=" + SEARCH_TERMS["zh"])
        visit.page.wait_for_selector("#search-results ul.search li a[href*='glossary']", timeout=20000)
        assert not visit.errors and not visit.outside
        visit.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def platform_fonts(page, selector: str) -> dict[str, int]:
    """The fonts Chromium really drew an element's text with, and how many glyphs each drew."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return {f["familyName"]: f["glyphCount"] for f in fonts}


def cjk_count(text: str) -> int:
    return sum(1 for ch in text if ord(ch) >= 0x2E80)


def test_chinese_renders_in_the_course_font_not_tofu(site, browser):
    visit = Visit(browser, (site / "zh" / SCREENSHOT_LESSON).as_uri())
    page = visit.page
    page.evaluate("document.fonts.ready")
    title = page.locator("article h1").first.inner_text()
    assert cjk_count(title) >= 4, title
    fonts = platform_fonts(page, "article h1")
    assert fonts.get("Noto Sans SC Course", 0) >= cjk_count(title), fonts
    # Pixels against a known-bad rendering: characters the course font lacks (private use)
    # draw as identical tofu boxes, so two different tofu strings give the same image; two
    # different Chinese strings in the course font must not, and neither may look like tofu.
    page.evaluate("""() => {
        for (const [id, text] of [["a", "全归约参数"], ["b", "分布式训练"],
                                  ["t1", "\\ue000\\ue001\\ue002\\ue003\\ue004"],
                                  ["t2", "\\ue010\\ue011\\ue012\\ue013\\ue014"]]) {
            const s = document.createElement("span");
            s.id = "probe-" + id; s.textContent = text;
            s.style.cssText = 'font: 40px "Noto Sans SC Course"; display: inline-block; padding: 4px; background: #fff; color: #000';
            document.body.prepend(s);
        }
    }""")
    page.evaluate("document.fonts.ready")
    shot = {k: page.locator(f"#probe-{k}").screenshot() for k in ("a", "b", "t1", "t2")}
    assert shot["t1"] == shot["t2"], "the known-bad rendering should be identical boxes"
    assert shot["a"] != shot["b"] and shot["a"] != shot["t1"] and shot["b"] != shot["t1"]
    visit.close()
    # English and Portuguese pages name 简体中文 in their switcher, drawn with the same font.
    for lang in ("en", "pt"):
        visit = Visit(browser, (site / lang / SCREENSHOT_LESSON).as_uri())
        visit.page.evaluate("document.fonts.ready")
        fonts = platform_fonts(visit.page, 'nav.course-languages a[hreflang="zh-CN"]')
        assert fonts.get("Noto Sans SC Course", 0) == 4, (lang, fonts)
        visit.close()


@pytest.mark.parametrize("lang", LANGS)
def test_switcher_reaches_the_same_page_in_the_other_languages(site, browser, lang):
    """Every page's switcher points at the same page in the other languages (as the browser
    resolves its links); on a lesson and an exercise, clicking it gets there."""
    visit = Visit(browser)
    clicked = {"lessons": False, "exercises": False}
    for path in pages_of(site, lang):
        rel = path.relative_to(site / lang)
        if rel.parts[0] not in ("lessons", "exercises") and rel.name not in ("index.html", "glossary.html", "teaching.html"):
            continue
        visit.go(path.as_uri())
        links = visit.page.locator("nav.course-languages a")
        targets = links.evaluate_all("as => as.map(a => [a.getAttribute('hreflang'), a.href])")
        expected = {LANGS[o]: (site / o / rel).as_uri() for o in LANGS if o != lang}
        assert dict(targets) == expected, rel
        assert all((site / o / rel).is_file() for o in LANGS)
        if rel.parts[0] in clicked and not clicked[rel.parts[0]]:
            clicked[rel.parts[0]] = True
            for i in range(links.count()):
                other = links.nth(i).get_attribute("hreflang")
                links.nth(i).click()
                visit.page.wait_for_load_state("load")
                assert visit.page.url == expected[other], (rel, other)
                assert visit.page.locator("html").get_attribute("lang") == other
                assert not visit.errors and not visit.outside
                visit.page.go_back()
                visit.page.wait_for_load_state("load")
    assert all(clicked.values())
    visit.close()


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_a_glossary_term(site, browser, lang):
    visit = Visit(browser, (site / lang / "search.html").as_uri())
    page = visit.page
    page.locator("input[name=q]").first.fill(SEARCH_TERMS[lang])
    page.locator("input[name=q]").first.press("Enter")
    page.wait_for_selector("#search-results ul.search li", timeout=20000)
    page.wait_for_function("() => document.querySelector('#search-results .search-summary')"
                           " && !document.querySelector('#search-results').classList.contains('searching')"
                           " && Search._pulse_status === -1", timeout=30000)
    hits = page.locator("#search-results ul.search li a").evaluate_all("as => as.map(a => a.href)")
    assert any(h.split("?")[0].endswith(f"/{lang}/glossary.html") for h in hits), hits
    assert not visit.errors and not visit.outside
    visit.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_screenshots(site, browser, lang, size):
    """build/site/screenshots/<lang>-<size>[-figure].png: one lesson per language, phone and
    desktop, at its top and at its first figure; no page may scroll sideways."""
    out = site.parent / "screenshots" / f"{lang}-{size}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    visit = Visit(browser, (site / lang / SCREENSHOT_LESSON).as_uri(), viewport=SIZES[size])
    visit.page.evaluate("document.fonts.ready")
    visit.page.screenshot(path=str(out))
    figure = visit.page.locator("article img").first       # and the lesson's first figure
    visit.page.evaluate("img => window.scrollTo(0, img.getBoundingClientRect().top + scrollY - 120)",
                        figure.element_handle())
    visit.page.evaluate("document.fonts.ready")
    visit.page.screenshot(path=str(out.with_name(f"{lang}-{size}-figure.png")))
    width = visit.page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0], f"the page scrolls sideways at {size} width ({width} px)"
    assert not visit.errors and not visit.outside
    visit.close()
