"""Sphinx configuration of the course website, shared by the three languages.

tools/website builds each language as its own Sphinx project (source build/site/src/<lang>,
output build/site/html/<lang>) with COURSE_SITE_LANG set: Sphinx then speaks that language
(its interface strings, its search splitter and stemmer) and writes it in <html lang>.
"""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.website import HTML_LANG, SOURCES, SPHINX_LANGUAGE  # noqa: E402
from tools.website.font import EXTRA_FONT  # noqa: E402
from tools.website.search import jieba_dictionary  # noqa: E402
from tools.website.words import word  # noqa: E402

lang = os.environ["COURSE_SITE_LANG"]
project = word(lang, "site_title")
html_title = project
copyright = "the tfdist-sim authors"
language = SPHINX_LANGUAGE[lang]

extensions = ["myst_nb", "sphinx_copybutton"]
# A copy button on the code a reader runs: code cells, the "run this lesson" commands and the
# solutions (not on outputs); the ">>> " and "$ " prompts are left out of what is copied.
copybutton_selector = "div.cell_input div.highlight pre, div.course-run div.highlight pre"
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
nb_execution_mode = "off"            # tools/website/execute.py ran them (cached, in parallel)
nb_merge_streams = True
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
# An error a lesson shows on purpose is printed as the course formats it, not as a traceback.
suppress_warnings = ["misc.highlighting_failure"]

html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["course.css"] + (["course-extra.css"] if EXTRA_FONT.exists() else [])
# Figures enlarge on a click or tap (course.js); Chinese search splits a phrase typed without
# spaces into the words the index holds (course-search-zh.js).
html_js_files = ["course.js"] + (["course-search-zh.js"] if lang == "zh" else [])
html_favicon = "_static/favicon.svg"
html_scaled_image_link = False      # course.js enlarges a figure in place rather than opening the PNG
# Strings of the theme that Sphinx's catalogues lack (website/locales, copied beside the sources).
# An absolute path: Sphinx looks for a sphinx.js catalogue (the search page's strings) relative to
# the working directory, not to the sources.
locale_dirs = [str(SOURCES / lang / "locales")]
html_show_sphinx = False               # no English "Made with" line under a Chinese page
html_show_copyright = False
html_copy_source = False
html_show_sourcelink = False
html_show_search_summary = False    # summaries fetch() each hit's page, which file:// forbids
html_last_updated_fmt = None          # no build date: the same inputs give the same HTML
html_context = {"course_lang": lang, "course_html_lang": HTML_LANG[lang]}
templates_path = ["_templates"]

# MathJax 2 from the jupyter-server-mathjax package, copied once beside the three languages
# (a path relative to _static): no CDN. Its HTML-CSS output uses the STIX web fonts shipped with
# it; its probe font "MathJax_Blank" (src about:blank, which a file:// page refuses with a
# console error) is looked up locally instead. The page body is tex2jax_ignore (MyST-NB's
# choice): only the math Sphinx marks is typeset.
mathjax_path = "../../_shared/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {"messageStyle": "none", "showMathMenu": False,
                   "tex2jax": {"processClass": "math", "processEscapes": True,
                               "ignoreClass": "tex2jax_ignore|mathjax_ignore|document"},
                   "HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web",
                                "imageFont": None,
                                "styles": {"@font-face": {"font-family": "MathJax_Blank",
                                                          "src": "local('MathJax_Blank')"}}}}

if lang == "zh":
    # jieba splits Chinese text into words for the search index; the glossary's terms join its
    # dictionary so a reader searching for 全归约 finds it as one word.
    html_search_options = {"dict": str(jieba_dictionary())}
