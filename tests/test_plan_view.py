"""The classroom demo: the widget speaks the course language, and a slider move redraws."""
import matplotlib

matplotlib.use("Agg")
import pytest  # noqa: E402

import sim  # noqa: E402
from sim import i18n  # noqa: E402


@pytest.fixture
def course_language():
    before = i18n.get_language()
    yield lambda lang: sim.setup(lang)
    i18n.set_language(before)


def test_widget_labels_and_redraw(course_language):
    pytest.importorskip("ipywidgets")
    from sim.course.plots.plan_view import plan_widget
    course_language("zh")
    box = plan_widget()
    sliders = box.children[0].children
    assert [s.description for s in sliders] == ["预算", "期限（小时）", "配方"]
    for slider, value in zip(sliders, (300, 24, "mlperf-lars")):
        slider.value = value          # traitlets calls the redraw here: an error in it raises


def test_draw_view_sizes_for_a_projector():
    from sim.course.plots.plan_view import draw_view, plan_view
    fig = draw_view(plan_view())
    assert tuple(fig.get_size_inches()) == (12, 5)
    fig.canvas.draw()
    sizes = [t.get_fontsize() for ax in fig.axes for t in ax.texts + [ax.title, ax.xaxis.label]]
    assert min(sizes) >= 12
