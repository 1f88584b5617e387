"""The teacher's guide on the website and the slideshows it points at, in headless Chromium, for
each language: the home page and the sidebar reach the guide; its links reach a lesson, its
slideshow and its own sections; it fits a phone (screenshots in build/site/screenshots/guide-*);
and lesson 10's deck typesets its formulas with the site's own MathJax."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_browser import LANGS, SIZES, Visit

ROOT = Path(__file__).resolve().parents[2]
GUIDES = {"en": "docs/teaching.md", "zh": "docs/teaching.zh.md", "pt": "docs/teaching.pt.md"}
MATH_DECK = "slides/10_real_tensorflow.html"   # its summary states a relative error of $10^{-7}$


def guide_title(lang: str) -> str:
    first = (ROOT / GUIDES[lang]).read_text(encoding="utf-8").splitlines()[0]
    return first.removeprefix("# ").strip()


def clean(visit: Visit) -> list[str]:
    return visit.errors + visit.outside + visit.failed


@pytest.mark.parametrize("lang", LANGS)
def test_home_and_sidebar_reach_the_guide(site, browser, lang):
    visit = Visit(browser, (site / lang / "index.html").as_uri())
    guide = (site / lang / "teaching.html").as_uri()
    side = visit.page.locator(".sidebar-tree a.reference").evaluate_all("as => as.map(a => a.href)")
    assert guide in side, side
    visit.page.locator("article a[href='teaching.html']").first.click()
    visit.page.wait_for_load_state("load")
    assert visit.page.url == guide
    assert visit.page.locator("html").get_attribute("lang") == LANGS[lang]
    assert visit.page.locator("article h1").first.inner_text().strip().rstrip("#¶ ").strip() == guide_title(lang)
    assert not clean(visit)
    visit.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_guides_links_reach_a_lesson_its_slideshow_and_its_sections(site, browser, lang):
    guide = (site / lang / "teaching.html").as_uri()
    visit = Visit(browser, guide)
    page = visit.page
    lesson = page.locator("article a[href^='lessons/']").first
    slides = page.locator("article a[href^='slides/']").first
    stem = lesson.get_attribute("href").split("/")[1].split(".")[0]
    assert slides.get_attribute("href") == f"slides/{stem}.html"
    for link, target in ((lesson, f"lessons/{stem}.html"), (slides, f"slides/{stem}.html")):
        link.click()
        page.wait_for_load_state("load")
        assert page.url.split("#")[0] == (site / lang / target).as_uri()   # a deck adds its slide, #/
        assert page.locator("html").get_attribute("lang") == LANGS[lang]
        assert not visit.errors and not visit.outside, (target, visit.errors, visit.outside)
        visit.go(guide)
    # the points table's section, reached by the guide's own link (MyST's heading anchor)
    anchor = page.locator("article p a.reference.internal[href^='#']").first
    section = anchor.get_attribute("href")[1:]
    anchor.click()
    page.wait_for_function(f"document.getElementById({section!r}).getBoundingClientRect().top < 200",
                           timeout=10000)      # the theme scrolls smoothly
    assert page.locator(f"[id={section!r}] a[href^='exercises/']").count() >= 10
    visit.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_the_guide_fits_the_screen(site, browser, lang, size):
    """build/site/screenshots/guide-<lang>-<size>[-points].png; no sideways scroll of the page."""
    out = site.parent / "screenshots" / f"guide-{lang}-{size}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    visit = Visit(browser, (site / lang / "teaching.html").as_uri(), viewport=SIZES[size])
    visit.page.evaluate("document.fonts.ready")
    visit.page.screenshot(path=str(out))
    visit.page.locator("article table").nth(1).scroll_into_view_if_needed()
    visit.page.screenshot(path=str(out.with_name(f"guide-{lang}-{size}-points.png")))
    width = visit.page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0], f"the guide scrolls sideways at {size} width ({width} px)"
    # the points table's lesson and points columns keep "05" and "10" whole (a long exercise
    # name in code beside them once squeezed them to a digit a line)
    split = visit.page.locator("article table").nth(1).evaluate("""t => [...t.querySelectorAll("tbody tr")]
        .map(tr => [...tr.querySelectorAll("td")]).filter(cells => [cells[1], cells[cells.length - 1]].some(cell => {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), lines = new Set();
            while (walker.nextNode()) {
                const range = document.createRange();
                range.selectNodeContents(walker.currentNode);
                [...range.getClientRects()].filter(r => r.width > 0).forEach(r => lines.add(Math.round(r.top)));
            }
            return lines.size > 1;
        })).map(cells => cells[0].textContent.trim())""")
    assert not split, f"at {size} width, the points table breaks a number in the rows {split}"
    assert not clean(visit)
    visit.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_decks_formulas_are_typeset_offline(site, browser, lang):
    visit = Visit(browser, (site / lang / MATH_DECK).as_uri(), viewport=(1280, 720))
    page = visit.page
    page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.Hub.queue.running === 0"
                           " && MathJax.Hub.queue.pending === 0"
                           " && document.querySelectorAll('.MathJax').length > 0", timeout=30000)
    text = page.evaluate("document.querySelector('.reveal .slides').textContent")
    assert not re.search(r"\$10\^\{-\d\}\$", text), "TeX left as written"
    assert page.locator(".MathJax").count() >= 2
    # drawn with the STIX web fonts the site ships, not a fallback
    page.keyboard.press("End")
    page.evaluate("document.querySelector('.MathJax').scrollIntoView({block: 'center'})")
    page.screenshot(path=str(site.parent / "screenshots" / f"deck-{lang}-10-math.png"))
    fonts = page.evaluate("[...document.querySelectorAll('.MathJax span')].map(s => getComputedStyle(s).fontFamily)"
                          ".filter(f => /STIX/.test(f)).length")
    assert fonts > 0
    assert not clean(visit), clean(visit)
    visit.close()
