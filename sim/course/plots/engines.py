"""Lesson 10's classroom demo: sim.tf's and TensorFlow's curves of one run on one figure.

``series(one_sim, one_tf, seed_sim, seed_tf)`` gathers the lesson's runs (live or recorded) as
``{name: (sim values, TensorFlow values)}``; ``draw`` puts one of them on two panels side by
side: both engines' curves per epoch on top of each other, and their relative difference on a
log scale next to float32's rounding step, which is what "the same numbers" means here.
``widget`` is a thin ipywidgets layer choosing the series. Labels come from the ``lesson10``
catalogue, numbers from ``sim.i18n``.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

FIGSIZE = (12, 4)              # with the menu above it, one 1280x720 screen
FLOAT32_EPS = float(np.finfo(np.float32).eps)
SERIES = ("one_loss", "seed_loss", "seed_accuracy")


def series(one_sim, one_tf, seed_sim, seed_tf):
    """The three curves the lesson compares, as ``{name: (sim values, TensorFlow values)}``."""
    return {"one_loss": (one_sim["loss"], one_tf["loss"]),
            "seed_loss": (seed_sim["loss"], seed_tf["loss"]),
            "seed_accuracy": (seed_sim["accuracy"], seed_tf["accuracy"])}


def relative_difference(sim_values, tf_values):
    """``|sim - tf| / |tf|`` per epoch (the absolute difference where TensorFlow's value is 0)."""
    sim_values, tf_values = np.asarray(sim_values, float), np.asarray(tf_values, float)
    scale = np.where(tf_values == 0, 1.0, np.abs(tf_values))
    return np.abs(sim_values - tf_values) / scale


def draw(fig, runs, name):
    """Series ``name`` of ``runs``: the two engines' curves (left) and their difference (right)."""
    sim_values, tf_values = runs[name]
    epochs = np.arange(1, len(sim_values) + 1)
    fig.clear()
    curves, gap = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.2, 1]})
    curves.plot(epochs, tf_values, "-", color="tab:orange", linewidth=6, alpha=0.45,
                label=t("lesson10.plot_tf"))
    curves.plot(epochs, sim_values, "o--", color="tab:blue", linewidth=1.5,
                label=t("lesson10.plot_sim"))
    curves.set_xticks(epochs)
    curves.set_xlabel(t("lesson10.plot_epoch"))
    curves.set_ylabel(t(f"lesson10.plot_{name.split('_')[1]}"))
    curves.set_title(t(f"lesson10.plot_title_{name}"))
    curves.legend(loc="best")
    curves.grid(alpha=0.3)

    diff = relative_difference(sim_values, tf_values)
    floor = FLOAT32_EPS / 100            # a zero difference is drawn on the floor, and said so
    gap.semilogy(epochs, np.maximum(diff, floor), "o-", color="tab:green",
                 label=t("lesson10.plot_difference"))
    gap.axhline(FLOAT32_EPS, color="grey", linestyle=":",
                label=t("lesson10.plot_float32", eps=FLOAT32_EPS))
    if not diff.any():
        gap.annotate(t("lesson10.plot_identical"), (0.5, 0.12), xycoords="axes fraction",
                     ha="center", color="tab:green")
    gap.set_ylim(floor / 3, max(1e-4, diff.max() * 10))
    gap.set_xticks(epochs)
    gap.set_xlabel(t("lesson10.plot_epoch"))
    gap.set_ylabel(t("lesson10.plot_difference_axis"))
    gap.set_title(t("lesson10.plot_difference_title"))
    gap.legend(loc="upper left")
    gap.grid(alpha=0.3)
    return fig


def widget(runs):
    """A menu of the three series that redraws ``draw`` (needs ipywidgets and a live kernel)."""
    import ipywidgets as W
    import matplotlib.pyplot as plt
    choice = W.ToggleButtons(options=[(t(f"lesson10.plot_title_{n}"), n) for n in SERIES],
                             value=SERIES[0], description=t("lesson10.widget_series"),
                             style={"description_width": "initial", "button_width": "auto"})
    out = W.Output()

    def redraw(*_):
        with out:
            out.clear_output(wait=True)
            draw(plt.figure(figsize=FIGSIZE, layout="constrained"), runs, choice.value)
            plt.show()

    choice.observe(redraw, names="value")
    redraw()
    return W.VBox([choice, out])
