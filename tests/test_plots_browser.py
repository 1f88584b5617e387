"""What a learner sees in lesson 02's pictures: subplot titles that do not run into each other, an
animation that plays from the saved notebook (an animated GIF, no JavaScript, no CDN), a widget
labelled in the course language, every algorithm in its own style, and tick labels in the
course language's number format."""
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import sim  # noqa: E402
from sim import i18n  # noqa: E402
from sim.collectives.algorithms import ALGORITHMS  # noqa: E402
from sim.course.plots import collectives as pc  # noqa: E402


@pytest.fixture
def course_language():
    before = i18n.get_language()
    yield lambda lang: sim.setup(lang)
    i18n.set_language(before)


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_ring_step_titles_do_not_run_into_each_other(lang, course_language):
    course_language(lang)
    fig = pc.draw_ring_steps(4)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [ax.title.get_window_extent(renderer) for ax in fig.axes if ax.get_title()]
    assert len(boxes) == 7
    for i, a in enumerate(boxes):
        assert a.x0 >= 0 and a.x1 <= fig.bbox.width, (lang, i)
        for b in boxes[i + 1:]:
            assert not _overlaps(a, b), (lang, i)
    plt.close(fig)


def test_ring_animation_is_a_looping_gif_with_one_frame_per_state(course_language):
    from PIL import Image

    course_language("pt")
    data = pc.ring_animation_gif_bytes(4, interval_ms=500)
    assert data[:6] == b"GIF89a"
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == 2 * (4 - 1) + 1
    assert gif.info.get("loop") == 0
    shown = pc.ring_animation_gif(4)
    assert shown._repr_mimebundle_()[0].keys() >= {"image/gif"}


def test_every_algorithm_has_its_own_distinguishable_style():
    styles = pc.algorithm_styles()
    assert set(styles) == set(ALGORITHMS) and len(ALGORITHMS) >= 12   # nccl_tree joined the eleven
    colours = {tuple(round(c, 3) for c in s["color"]) for s in styles.values()}
    markers = {s["marker"] for s in styles.values()}
    assert len(colours) == len(markers) == len(ALGORITHMS)
    assert styles["reduce_to_one"]["color"] != styles["nccl"]["color"]


def test_widget_controls_speak_the_course_language(course_language):
    pytest.importorskip("ipywidgets")
    course_language("pt")
    box = pc.comparison_widget()
    controls = [w for row in box.children[:2] for w in row.children]
    descriptions = {w.description for w in controls}
    assert descriptions == {"máquina", "algoritmo", "dispositivos", "tamanho da mensagem"}
    size = next(w for w in controls if w.description == "tamanho da mensagem")
    assert size.style.description_width == "initial"
    assert dict(size.options)["1 MiB"] == 2**20
    plt.close("all")


def test_size_labels_are_short_and_localized():
    assert pc.size_label(8) == "8 B"
    assert i18n.number(1.5, "g", lang="pt") == "1,5"
    before = i18n.get_language()
    try:
        i18n.set_language("pt")
        assert pc.size_label(3 * 2**29) == "1,5 GiB"
        assert pc.size_label(2**20) == "1 MiB"
        i18n.set_language("en")
        assert pc.size_label(3 * 2**29) == "1.5 GiB"
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize("lang, half", [("pt", "0,5"), ("en", "0.5"), ("zh", "0.5")])
def test_tick_labels_follow_the_course_language(lang, half, course_language):
    course_language(lang)
    fig, ax = plt.subplots()
    ax.plot([0.0, 0.5, 1.0], [0.0, 0.25, 1.0])
    ax.set_xticks([0.0, 0.5, 1.0])
    ax.set_yticks([0, 1], labels=["a.b", "c,d"])          # labels set by hand stay text
    fig.canvas.draw()
    assert half in [t.get_text() for t in ax.get_xticklabels()]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a.b", "c,d"]
    plt.close(fig)
