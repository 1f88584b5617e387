"""What a learner of lessons 06-10 reads is in the course language: numbers with the language's
decimal symbol (printed output, figure titles, legends, ticks, widget readouts), widget labels
translated in zh and pt, and a widget or animation in every lesson for the classroom."""
import json
import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import sim  # noqa: E402
from sim import i18n  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ("06", "07", "08", "09", "10")

# An English decimal: a point between digits that is not pt's thousands group (1.024, 2.099.200).
EN_DECIMAL = re.compile(r"(?<![\d.])\d+\.(?!\d{3}(?!\d))\d+")
# A decimal comma: a comma between digits that is not en/zh's thousands group (2,099,200).
DECIMAL_COMMA = re.compile(r"(?<![\d,])\d+,(?!\d{3}(?!\d))\d+")
# Lines that are code or Python values, where a number is written as Python writes it: printed
# scripts, reprs (lists, dicts, tensors, arrays), versions, TensorFlow's own English messages.
CODE_LINE = re.compile(r"tf\.Tensor|array\(|dtype=|[\[{(]\s*-?\d|[=@]|^\s*\w+Error:|"
                       r"TensorFlow \d|Python \d|Keras \d|NumPy \d|\d+\.\d+\.\d+")


def wrong_numbers(text: str, lang: str) -> list[str]:
    """The lines of ``text`` (not code) whose numbers use another language's decimal symbol."""
    pattern = EN_DECIMAL if lang == "pt" else DECIMAL_COMMA
    return [line for line in text.splitlines() if pattern.search(line) and not CODE_LINE.search(line)]


def test_the_number_check_can_fail():
    assert wrong_numbers("cálculo 19.69 ms", "pt") == ["cálculo 19.69 ms"]
    assert wrong_numbers("1.024 B, 2.099.200 parâmetros, 0,5 ms", "pt") == []
    assert wrong_numbers("compute 19,69 ms", "en") == ["compute 19,69 ms"]
    assert wrong_numbers("2,099,200 parameters, 0.5 ms", "en") == []
    assert wrong_numbers("valores: [0.0, 1.0]", "pt") == []


def _notebooks(lang):
    lessons = [p for n in LESSONS for p in (ROOT / "notebooks" / lang).glob(f"{n}_*.ipynb")]
    exercises = [p for n in LESSONS for p in (ROOT / "exercises" / lang / "solutions").glob(f"{n}_*.ipynb")]
    return sorted(lessons) + sorted(exercises)


def _printed(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            yield "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
            if out.get("output_type") == "error":
                yield out.get("evalue", "")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_printed_numbers_use_the_languages_decimal_symbol(lang):
    paths = _notebooks(lang)
    assert len(paths) >= 10
    bad = {p.name: wrong_numbers(text, lang) for p in paths for text in _printed(p)}
    assert not {k: v for k, v in bad.items() if v}


# -- figures and widgets, drawn as the lessons draw them -------------------------------------
@pytest.fixture
def course(request):
    yield lambda lang: sim.setup(lang)
    sim.setup("en")
    plt.close("all")


def _figure_texts(fig):
    fig.canvas.draw()                      # tick labels exist (and are localized) once drawn
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]


def _lesson_figures():
    from sim.course import two_engines
    from sim.course.plots import cluster_step, engines, ps
    from sim.course.plots import scaling as scaling_plots
    from sim.course.plots.scaleout_view import draw_view, scaling_view
    from sim.scaling.rule_demo import rule_curves

    def lesson06():
        step = cluster_step.cluster_step(2, 4, "dgx-a100", "NCCL")
        return cluster_step.draw(step, title=cluster_step.summary(step, 2, 4, "dgx-a100", "NCCL"))

    def lesson07():
        fig = plt.figure(figsize=ps.DEMO_FIGSIZE, layout="constrained")
        ps.draw_demo(ps.demo_view(workers=4, spread=1.0, lr=0.3, until=60.0), fig)
        return fig

    def lesson08():
        fig, ax = plt.subplots()
        scaling_plots.rule_demo(ax, rule_curves(64, "sqrt"))
        return fig

    def lesson09():
        return draw_view(scaling_view("resnet50", nodes=2))

    def lesson10():
        record = two_engines.load_record()
        runs = engines.series(record["one_import"]["sim"], record["one_import"]["tensorflow"],
                              record["seed_mwms"]["sim"], record["seed_mwms"]["tensorflow"])
        return engines.draw(plt.figure(figsize=engines.FIGSIZE), runs, "one_loss")

    return {"06": lesson06, "07": lesson07, "08": lesson08, "09": lesson09, "10": lesson10}


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_figure_text_uses_the_languages_decimal_symbol(course, lesson, lang):
    course(lang)
    texts = _figure_texts(_lesson_figures()[lesson]())
    assert any(re.search(r"\d", text) for text in texts)
    assert not [text for text in texts if wrong_numbers(text, lang)]


def _widget_factories():
    from sim.course import two_engines
    from sim.course.plots import cluster_step, engines, ps
    from sim.course.plots import scaling as scaling_plots
    from sim.course.plots.scaleout_view import scaling_widget

    def lesson10():
        record = two_engines.load_record()
        return engines.widget(engines.series(record["one_import"]["sim"], record["one_import"]["tensorflow"],
                                             record["seed_mwms"]["sim"], record["seed_mwms"]["tensorflow"]))

    return {"06": cluster_step.widget, "07": ps.demo_widget, "08": scaling_plots.rule_demo_widget,
            "09": scaling_widget, "10": lesson10}


def _controls(widget):
    """Every control under ``widget`` (interactive, VBox, HBox...)."""
    children = getattr(widget, "children", ())
    if not children:
        return [widget]
    return [leaf for child in children for leaf in _controls(child)]


# Labels the glossary keeps in English in pt (worker, bucket), and names that are no words.
SAME_IN_PT = {"workers", "bucket (MB)", "all-reduce"}
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("lang", ["zh", "pt"])
def test_widget_labels_and_readouts_are_in_the_course_language(course, lesson, lang):
    pytest.importorskip("ipywidgets")
    course("en")
    english = [c.description for c in _controls(_widget_factories()[lesson]()) if getattr(c, "description", "")]
    course(lang)
    controls = _controls(_widget_factories()[lesson]())
    labels = [c.description for c in controls if getattr(c, "description", "")]
    assert labels and len(labels) == len(english)
    for label, en in zip(labels, english):
        if lang == "zh":
            assert CJK.search(label), f"lesson {lesson}: {label!r} is not Chinese"
        else:
            assert label != en or label in SAME_IN_PT, f"lesson {lesson}: {label!r} is English"
    readouts = [label for c in controls for label in getattr(c, "_options_labels", ())]
    assert not [r for r in readouts if wrong_numbers(r, lang)]


def _code_cells(source: Path):
    return [cell for cell in source.read_text(encoding="utf-8").split("# %%")
            if not cell.startswith(" [markdown]")]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_has_a_classroom_widget_or_animation(lesson):
    source = next((ROOT / "notebooks" / "src").glob(f"{lesson}_*.py"))
    demo = re.compile(r"\b\w*widget\(|FuncAnimation|interactive\(")
    assert any(demo.search(cell) for cell in _code_cells(source)), \
        f"lesson {lesson} has no widget or animation for the classroom"
