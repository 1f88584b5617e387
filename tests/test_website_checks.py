"""The website's build checks fail on what they are for: a broken internal link, a missing figure,
a page in the wrong language, a Chinese character no font of the site can draw, a language without
the teacher's guide or a guide that lost its links."""
import nbformat
import pytest

from tools.website import check, font

GOOD_EN = ("This lesson shows how the ring all-reduce splits the buffer into chunks, and why the "
           "time it takes is the same for any number of devices that are on the ring.")
GOOD_PT = ("Esta lição mostra como o all-reduce em anel divide o buffer em pedaços e por que o tempo "
           "que ele leva é quase o mesmo para qualquer número de dispositivos no anel.")
GOOD_ZH = "这节课展示环形全归约如何把缓冲区切成若干块，以及为什么它所需的时间几乎与环上的设备数量无关。"
HTML_LANG = {"en": "en", "pt": "pt-BR", "zh": "zh-CN"}


def page(lang, body, extra=""):
    return (f'<!DOCTYPE html><html lang="{HTML_LANG[lang]}"><head>{extra}</head><body>'
            f'<article><h1 id="top">T</h1><p>{body}</p></article></body></html>')


@pytest.fixture
def site(tmp_path):
    root = tmp_path / "html"
    for lang, text in (("en", GOOD_EN), ("pt", GOOD_PT), ("zh", GOOD_ZH)):
        (root / lang / "lessons").mkdir(parents=True)
        (root / lang / "_images").mkdir()
        (root / lang / "_images" / "fig.png").write_bytes(b"\x89PNG....")
        (root / lang / "index.html").write_text(
            page(lang, text + ' <a href="lessons/01_x.html#top">1</a> <a href="https://example.org">x</a>'
                 ' <a href="teaching.html">guide</a>'),
            encoding="utf-8")
        (root / lang / "teaching.html").write_text(
            page(lang, text + ' <a href="lessons/01_x.html">1</a> <a href="slides/01_x.html">slides</a>'
                 ' <a href="glossary.html">glossary</a>'),
            encoding="utf-8")
        (root / lang / "glossary.html").write_text(page(lang, text), encoding="utf-8")
        (root / lang / "slides").mkdir()
        (root / lang / "slides" / "01_x.html").write_text("<html><body>deck</body></html>", encoding="utf-8")
        (root / lang / "lessons" / "01_x.html").write_text(
            page(lang, text + ' <img src="../_images/fig.png"> <a href="../index.html">home</a>'),
            encoding="utf-8")
    return root


def test_a_good_site_passes(site):
    assert check.broken_links(site) == []
    assert check.missing_figures(site) == []
    assert check.wrong_languages(site) == []
    assert check.missing_guides(site) == []


def test_a_broken_link_or_a_missing_id_is_reported(site):
    index = site / "en" / "index.html"
    index.write_text(index.read_text().replace("01_x.html#top", "02_y.html") + '<a href="lessons/01_x.html#nope">', encoding="utf-8")
    problems = check.broken_links(site)
    assert any("broken link lessons/02_y.html" in p for p in problems)
    assert any("#nope names an id its page lacks" in p for p in problems)


def test_a_missing_figure_file_is_reported(site):
    (site / "pt" / "_images" / "fig.png").unlink()
    assert check.missing_figures(site) == ["pt/lessons/01_x.html: figure ../_images/fig.png is missing"]


def test_a_page_with_fewer_figures_than_its_notebook_is_reported(site, tmp_path, monkeypatch):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("plot()")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": png}) for png in ("AAAA", "BBBB")]
    nb.cells = [cell]
    (tmp_path / "executed" / "zh" / "lessons").mkdir(parents=True)
    nbformat.write(nb, tmp_path / "executed" / "zh" / "lessons" / "01_x.ipynb")
    monkeypatch.setattr(check, "EXECUTED", tmp_path / "executed")
    assert check.missing_figures(site) == ["zh/lessons/01_x.html: shows 1 figures, its notebook has 2"]


def test_a_page_showing_a_picture_twice_is_reported(site):
    page = site / "pt" / "lessons" / "01_x.html"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("</article>", '<img src="../_images/fig.png"></article>'), encoding="utf-8")
    assert check.repeated_figures(site) == ["pt/lessons/01_x.html: shows ../_images/fig.png more than once"]


@pytest.mark.parametrize("path, text, lang_attr", [
    ("pt/lessons/01_x.html", GOOD_EN, "pt-BR"),    # an English page under pt/
    ("en/index.html", GOOD_PT, "en"),              # a Portuguese page under en/
    ("en/lessons/01_x.html", GOOD_ZH, "en"),
    ("zh/index.html", GOOD_ZH, "en"),              # right text, wrong <html lang>
])
def test_a_page_in_another_language_than_its_path_is_reported(site, path, text, lang_attr):
    (site / path).write_text(page("en", text).replace('lang="en"', f'lang="{lang_attr}"'), encoding="utf-8")
    problems = check.wrong_languages(site)
    assert len(problems) == 1 and problems[0].startswith(path)


def test_code_and_tables_do_not_count_as_prose_and_prose_after_them_does():
    code = ('<div class="cell_output docutils"><div class="highlight"><div><pre>' + GOOD_EN * 5
            + "</pre></div></div></div>")
    html = page("pt", GOOD_PT + "</p>" + code + "<table><tr><td>" + GOOD_EN * 5 + "</td></tr></table><p>" + GOOD_ZH)
    parsed = check.Page()
    parsed.feed(html)
    prose = " ".join(parsed.prose)
    assert GOOD_PT in prose and GOOD_ZH in prose and "ring all-reduce" not in prose


def test_a_chinese_character_outside_the_fonts_is_reported(site, monkeypatch):
    monkeypatch.setattr(font, "EXTRA_FONT", site / "no-extra.otf")
    assert font.missing_glyphs(site) == []            # the course font covers the lesson text
    rare = "\u9f98"                                    # 龘: not in GB 2312 nor in the course text
    assert rare not in font.covered(font.course_font())
    (site / "zh" / "search.js").write_text('var s = "\\u9f98";', encoding="utf-8")   # escaped, as Sphinx writes
    assert font.missing_glyphs(site) == [rare]


def test_a_language_without_the_teachers_guide_is_reported(site):
    (site / "pt" / "teaching.html").unlink()
    assert check.missing_guides(site) == ["pt/teaching.html: the teacher's guide is missing"]
    assert "pt/index.html: broken link teaching.html" in check.broken_links(site)


def test_a_home_page_that_does_not_link_the_guide_is_reported(site):
    home = site / "zh" / "index.html"
    home.write_text(home.read_text(encoding="utf-8").replace('href="teaching.html"', 'href="glossary.html"'),
                    encoding="utf-8")
    assert check.missing_guides(site) == ["zh/index.html: does not link the teacher's guide teaching.html"]


def test_a_guide_that_lost_a_lessons_slideshow_link_is_reported(site):
    guide = site / "en" / "teaching.html"
    guide.write_text(guide.read_text(encoding="utf-8").replace("slides/01_x.html", "glossary.html"), encoding="utf-8")
    assert check.missing_guides(site) == ["en/teaching.html: does not link slides/01_x.html"]


def test_a_broken_link_of_the_guide_is_reported(site):
    (site / "zh" / "slides" / "01_x.html").unlink()
    guide = site / "zh" / "teaching.html"
    guide.write_text(guide.read_text(encoding="utf-8").replace("glossary.html", "glossary.html#nope"), encoding="utf-8")
    assert sorted(check.broken_links(site)) == ["zh/teaching.html: broken link slides/01_x.html",
                                                "zh/teaching.html: link glossary.html#nope names an id its page lacks"]
