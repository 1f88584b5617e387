"""Tick labels in the course language's number format (pt 0,5 and 2.000; en/zh 0.5 and 2,000).

``sim.setup()`` registers ``localize_on_draw`` as a matplotlib figure hook, so every figure made
with pyplot (the lessons' own plots included) relabels its numeric ticks just before it is drawn:
each numeric tick formatter is wrapped in ``LocalizedFormatter``, which writes the inner
formatter's text with ``sim.i18n.number``'s symbols. Labels set by hand (``set_xticklabels``,
categories) and ``FuncFormatter`` labels are text and stay as they are.
"""
from __future__ import annotations

from matplotlib import ticker

from sim.i18n import NUMBER_SYMBOLS, get_language

HOOK = "sim.course.plots.number_format:localize_on_draw"
# Formatters that turn numbers into text. FuncFormatter is left out: it is the learner's own
# function, and matplotlib also uses it for labels set by hand (set_yticks(..., labels=...)).
NUMERIC = (ticker.ScalarFormatter, ticker.LogFormatter, ticker.StrMethodFormatter,
           ticker.FormatStrFormatter, ticker.PercentFormatter, ticker.EngFormatter)


def localize_text(text: str, lang: str | None = None) -> str:
    """A number formatted the English way, rewritten with the language's symbols."""
    decimal, group = NUMBER_SYMBOLS[lang or get_language()]
    if (decimal, group) == (".", ","):
        return text
    swapped = text.translate(str.maketrans({".": decimal, ",": group}))
    return swapped.replace(",", "{,}") if "$" in text else swapped   # mathtext spaces a bare comma


class LocalizedFormatter(ticker.Formatter):
    """Wraps a numeric formatter; its labels and offset follow the course language."""

    def __init__(self, inner: ticker.Formatter):
        self.inner = inner

    def set_axis(self, axis):
        super().set_axis(axis)
        self.inner.set_axis(axis)

    def set_locs(self, locs):
        self.inner.set_locs(locs)

    def __call__(self, x, pos=None):
        return localize_text(self.inner(x, pos))

    def format_ticks(self, values):
        return [localize_text(s) for s in self.inner.format_ticks(values)]

    def get_offset(self):
        return localize_text(self.inner.get_offset())

    def format_data_short(self, value):
        return localize_text(self.inner.format_data_short(value))


def localize_axes(fig) -> None:
    """Wrap every numeric major and minor tick formatter of ``fig``'s axes (idempotent)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for get, set_ in ((axis.get_major_formatter, axis.set_major_formatter),
                              (axis.get_minor_formatter, axis.set_minor_formatter)):
                fmt = get()
                if isinstance(fmt, NUMERIC) and not isinstance(fmt, LocalizedFormatter):
                    set_(LocalizedFormatter(fmt))


def localize_on_draw(fig) -> None:
    """Figure hook: localize the tick formatters each time ``fig`` is drawn (axes added after the
    figure was created included)."""
    draw = fig.draw

    def localized_draw(renderer):
        localize_axes(fig)
        return draw(renderer)

    fig.draw = localized_draw


def install() -> None:
    """Register the hook for figures made from now on (called by ``sim.setup``)."""
    import matplotlib

    hooks = list(matplotlib.rcParams["figure.hooks"])
    if HOOK not in hooks:
        matplotlib.rcParams["figure.hooks"] = hooks + [HOOK]
