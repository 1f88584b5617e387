"""The website's pages: exercise pages with collapsed solutions, widget fallbacks, the switcher,
the README's course map and the Chinese search dictionary (tools/website; no Sphinx needed)."""
import re

import nbformat
import pytest

from tools.course_maps import MAP_END, MAP_START
from tools.website import LANGS, ROOT
from tools.website.execute import FALLBACK_TAG, WIDGET_STATE, replace_widgets
from tools.website.pages import breakable, exercise_page, language_nav, lesson_page, readme_map
from tools.website.search import glossary_terms


def read(path):
    return nbformat.read(ROOT / path, as_version=4)


@pytest.mark.parametrize("lang", LANGS)
def test_exercise_page_shows_the_gap_then_the_solution_collapsed(lang):
    student = read(f"exercises/{lang}/01_transfer_time.ipynb")
    solution = read(f"exercises/{lang}/solutions/01_transfer_time.ipynb")
    page = exercise_page(lang, student, solution, "01_transfer_time")
    hidden = [i for i, c in enumerate(page.cells) if "hide-cell" in c.metadata.get("tags", [])]
    assert len(hidden) == 1
    answer, gap = page.cells[hidden[0]], page.cells[hidden[0] - 1]
    assert "raise NotImplementedError()" in gap.source and not gap.outputs
    assert "machine.route(src, dst)" in answer.source and "BEGIN SOLUTION" not in answer.source
    assert answer.metadata["mystnb"]["code_prompt_show"] != "Show code cell {type}"
    # The switcher first, then the title, then the run box naming both notebooks.
    assert page.cells[0].source.startswith('<nav class="course-languages"')
    assert page.cells[1].source.lstrip().startswith("# ")
    assert f"exercises/{lang}/01_transfer_time.ipynb" in page.cells[2].source
    assert "make lab" in page.cells[2].source and "make test" in page.cells[2].source
    assert not any("make notebooks" in c.source for c in page.cells)   # the banner is gone


def test_exercise_page_refuses_notebooks_that_do_not_match():
    student = read("exercises/en/01_transfer_time.ipynb")
    solution = read("exercises/en/solutions/01_transfer_time.ipynb")
    solution.cells.pop()
    with pytest.raises(ValueError, match="rebuild them"):
        exercise_page("en", student, solution, "01_transfer_time")


def widget_notebook():
    nb = nbformat.v4.new_notebook()
    view = {"model_id": "box", "version_major": 2, "version_minor": 0}
    cell = nbformat.v4.new_code_cell("demo_widget()")
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        "text/plain": "VBox(...)", "application/vnd.jupyter.widget-view+json": view})]
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), cell]
    png = {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}
    nb.metadata["widgets"] = {WIDGET_STATE: {"state": {
        "box": {"model_name": "VBoxModel", "state": {"_model_name": "VBoxModel",
                                                     "children": ["IPY_MODEL_slider", "IPY_MODEL_out"]}},
        "slider": {"model_name": "IntSliderModel", "state": {"_model_name": "IntSliderModel"}},
        "out": {"model_name": "OutputModel", "state": {"_model_name": "OutputModel", "outputs": [
            {"output_type": "display_data", "data": png, "metadata": {}}]}},
    }}}
    return nb


def test_a_widget_becomes_the_figure_it_drew_first():
    nb = widget_notebook()
    replace_widgets(nb)
    (output,) = nb.cells[1].outputs
    assert output["data"]["image/png"] == "iVBORw0KGgo=" and output["metadata"][FALLBACK_TAG]
    assert "widgets" not in nb.metadata    # no widget JavaScript for a static page


def test_a_widget_fallback_is_announced_on_its_page(tmp_path):
    nb = widget_notebook()
    replace_widgets(nb)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell("*banner*"))
    path = tmp_path / "02_x.ipynb"
    nbformat.write(nb, path)
    page = lesson_page("pt", path)
    notes = [c for c in page.cells if "course-widget-note" in c.source]
    assert len(notes) == 1 and "JupyterLab" in notes[0].source
    assert page.cells.index(notes[0]) == [i for i, c in enumerate(page.cells) if c.cell_type == "code"][0] + 1


def test_the_switcher_points_at_the_same_page_in_the_other_languages():
    nav = language_nav("zh", "lessons/02_allreduce_step_by_step")
    hrefs = re.findall(r'href="([^"]+)"', nav)
    assert hrefs == ["../../en/lessons/02_allreduce_step_by_step.html",
                     "../../pt/lessons/02_allreduce_step_by_step.html"]
    assert "<strong lang=\"zh-CN\">简体中文</strong>" in nav
    assert re.findall(r'href="([^"]+)"', language_nav("en", "index")) == ["../zh/index.html", "../pt/index.html"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_readme_course_map_links_every_lesson_of_every_language(lang):
    table = readme_map(lang)
    readme = {"en": "README.md", "zh": "README.zh.md", "pt": "README.pt.md"}[lang]
    course_map = (ROOT / readme).read_text(encoding="utf-8").split(MAP_START)[1].split(MAP_END)[0]
    links = re.findall(r"\]\((?:notebooks|exercises)/\w+/[\w.]+\.ipynb\)", course_map)
    hrefs = re.findall(r'href="\.\./(\w+)/(lessons|exercises)/(\w+)\.html"', table)
    assert len(hrefs) == len(links) > 30
    lessons = {p.stem for p in (ROOT / "notebooks" / "en").glob("[0-9][0-9]_*.ipynb")}
    exercises = {p.stem for p in (ROOT / "exercises" / "en").glob("[0-9][0-9]_*.ipynb")}
    for other, kind, stem in hrefs:
        assert other in LANGS and stem in (lessons if kind == "lessons" else exercises)


def test_a_long_api_name_may_break_between_its_parts_on_a_phone_but_not_in_code():
    text = "TF_CONFIG and MultiWorkerMirroredStrategy, `MultiWorkerMirroredStrategy()`, MirroredStrategy"
    assert breakable(text) == ("TF_CONFIG and Multi<wbr>Worker<wbr>Mirrored<wbr>Strategy, "
                               "`MultiWorkerMirroredStrategy()`, MirroredStrategy")


@pytest.mark.parametrize("lang", LANGS)
def test_the_course_map_keeps_each_separator_with_the_link_before_it(lang):
    table = readme_map(lang)
    assert "</a>\u00a0· <a" in table and "</a> · <a" not in table
    assert "Multi<wbr>Worker<wbr>Mirrored<wbr>Strategy" in table


def test_the_chinese_search_dictionary_holds_the_glossary_terms():
    terms = glossary_terms()
    assert {"全归约", "参数服务器", "分布策略", "副本"} <= set(terms)
    assert "简体中文" not in terms                      # the table's header is no term
    assert all(" " not in t and not t.isascii() for t in terms)


def test_a_picture_shown_twice_is_shown_once_and_keeps_its_widget_note(tmp_path):
    """A lesson's widget draws first what its static figure then draws again: one copy per page."""
    nb = widget_notebook()
    replace_widgets(nb)
    static = nbformat.v4.new_code_cell("draw()")
    static.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}),
                      nbformat.v4.new_output("display_data", data={"image/png": "OTHER", "text/plain": "<Figure>"})]
    nb.cells += [static]
    nb.cells.insert(0, nbformat.v4.new_markdown_cell("*banner*"))
    path = tmp_path / "02_x.ipynb"
    nbformat.write(nb, path)
    page = lesson_page("en", path)
    images = [o["data"]["image/png"] for c in page.cells if c.cell_type == "code" for o in c.outputs]
    assert images == ["iVBORw0KGgo=", "OTHER"]
    assert sum("course-widget-note" in c.source for c in page.cells) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_an_exercise_page_names_the_exercise_before_its_solution(lang):
    student = read(f"exercises/{lang}/11_choose_plan.ipynb")
    solution = read(f"exercises/{lang}/solutions/11_choose_plan.ipynb")
    page = exercise_page(lang, student, solution, "11_choose_plan")
    box = next(c.source for c in page.cells if "course-run" in c.source)
    assert box.index(f"exercises/{lang}/11_choose_plan.ipynb") < box.index(f"exercises/{lang}/solutions/11_choose_plan.ipynb")


@pytest.mark.parametrize("lang", LANGS)
def test_exercises_come_in_the_home_tables_order(lang):
    from tools.website.pages import exercise_order

    order = exercise_order(read(f"notebooks/{lang}/index.ipynb"), lang)
    assert order.index("02_ring_allreduce") < order.index("02_choose_algorithm")
    assert order.index("07_predict_shards") < order.index("07_stable_learning_rate")


def site_pages(lang):
    """The page names write_language gives a language (lessons, exercises, the glossary)."""
    return ({"glossary"} | {f"lessons/{p.stem}" for p in (ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb")}
            | {f"exercises/{p.stem}" for p in (ROOT / "exercises" / lang).glob("[0-9][0-9]_*.ipynb")})


@pytest.mark.parametrize("lang", LANGS)
def test_the_guide_page_links_the_sites_pages_not_the_repositorys_files(lang):
    from tools.assignments import POINTS
    from tools.website.guide import PAGE, guide_page

    pages = site_pages(lang)
    nav = language_nav(lang, PAGE)
    text = guide_page(lang, nav, pages)
    assert text.startswith(nav + "\n") and text.count("course-languages") == 1   # the switcher, once
    targets = re.findall(r"\]\(([^)]+)\)", text) + re.findall(r'href="([^"]+)"', text)
    assert not [t for t in targets if t.startswith("../") and not t.endswith(f"/{PAGE}.html")
                or t.endswith(".md") and t != "glossary.md"], targets
    assert "`docs/site.md`" in text     # the guide's link to docs/site.md: a path, the site has no page
    assert "glossary.md" in targets and "notebooks/GLOSSARY.md" not in text
    for lesson in sorted(p for p in pages if p.startswith("lessons/")):
        stem = lesson.split("/")[1]
        assert f"{lesson}.ipynb" in targets and f"slides/{stem}.html" in targets, lesson
    assert {t for t in targets if t.startswith("exercises/")} == {f"exercises/{s}.ipynb" for s in POINTS}


@pytest.mark.parametrize("lang", LANGS)
def test_the_guides_anchors_are_myst_heading_slugs(lang):
    """Its own anchors are MyST's heading slugs (myst_heading_anchors), which are GitHub's.
    MyST comes with the site's extras (`make site`), so `make unit` alone skips this."""
    slugs = pytest.importorskip("myst_parser.slugs")
    from tools.website.guide import PAGE, guide_page

    text = guide_page(lang, language_nav(lang, PAGE), site_pages(lang))
    targets = re.findall(r"\]\(([^)]+)\)", text) + re.findall(r'href="([^"]+)"', text)
    github_slugify = slugs.github_slugify
    headings = {github_slugify(h) for h in re.findall(r"^#{1,3} (.+)$", text, flags=re.M)}
    assert {t[1:] for t in targets if t.startswith("#")} <= headings


@pytest.mark.parametrize("target, expected", [
    ("../notebooks/GLOSSARY.md", "glossary.md"),
    ("../notebooks/en/02_allreduce_step_by_step.ipynb", "lessons/02_allreduce_step_by_step.ipynb"),
    ("../exercises/en/solutions/01_transfer_time.ipynb#x", "exercises/01_transfer_time.ipynb#x"),
    ("#points-per-exercise", "#points-per-exercise"),
    ("https://nbgrader.readthedocs.io/", "https://nbgrader.readthedocs.io/"),
    ("../notebooks/zh/02_allreduce_step_by_step.ipynb", "../zh/lessons/02_allreduce_step_by_step.html"),
    ("teaching.pt.md#pontos-por-exercício", "../pt/teaching.html#pontos-por-exercício"),
    ("site.md", "repository:docs/site.md"),          # no page on the site: named by its path
    ("../README.zh.md", "repository:README.zh.md"),
])
def test_a_guide_link_becomes_its_page_on_the_site(target, expected):
    from tools.website.guide import site_target

    assert site_target(target, "en", site_pages("en")) == expected


def test_a_link_to_a_repository_file_is_its_path_on_the_site():
    from tools.website.guide import LINK, rewrite_link

    line = "see [site.md](site.md) and [the glossary](../notebooks/GLOSSARY.md)"
    assert LINK.sub(lambda m: rewrite_link(m, "pt", site_pages("pt")), line) == \
        "see `docs/site.md` and [the glossary](glossary.md)"


@pytest.mark.parametrize("target", ["no_such_doc.md", "../notebooks/en/99_no_such_lesson.ipynb"])
def test_a_guide_link_to_nothing_stops_the_build(target):
    from tools.website.guide import site_target

    with pytest.raises(ValueError, match=re.escape(f"docs/teaching.md: its link {target} names neither")):
        site_target(target, "en", site_pages("en"))
