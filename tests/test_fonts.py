"""Chinese plot text renders with the font the project ships: no glyph goes missing."""
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim import i18n  # noqa: E402
from sim.course import plots  # noqa: E402


def _draw(text):
    plots.setup_fonts()
    fig, ax = plt.subplots()
    ax.set_title(text)
    ax.set_xlabel("−1.5 µs")
    fig.canvas.draw()
    plt.close(fig)


def test_chinese_title_has_every_glyph():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _draw("全归约的吞吐量：每个副本的批次大小与学习率")


def test_every_chinese_catalogue_string_renders():
    text = "".join(i18n.catalogs()["zh"].values())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _draw(text[:4000])


def test_a_character_outside_the_font_is_caught():
    """The check above can fail: a traditional-only character is not in the subset."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            _draw("時")
        except UserWarning as warning:
            assert "missing" in str(warning)
        else:
            raise AssertionError("expected a missing-glyph warning for a character outside the subset")
