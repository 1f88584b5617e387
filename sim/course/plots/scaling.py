"""Lesson 08's pictures: steps and best learning rate against batch size, warmup's first steps,
time to target against replicas, and the rule demo. Text from the ``scaling`` catalogue.

Every function draws on a Matplotlib ``ax`` it is given and returns it, so a lesson can lay
them out as it likes and the widget can redraw one panel.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t


def steps_vs_batch(ax, sweep, target_index: int = 0):
    """Median steps to target (markers), perfect scaling from the smallest batch, and the fit."""
    b = sweep.batch_sizes.astype(float)
    steps = sweep.median_steps[target_index]
    fit = sweep.fit(target_index)
    fine = np.geomspace(b[0], b[-1], 200)
    ax.loglog(b, steps, "o", color="C0", label=t("scaling.plot_measured"))
    ax.loglog(fine, steps[0] * b[0] / fine, ":", color="gray", label=t("scaling.plot_perfect"))
    ax.loglog(fine, fit.steps(fine), "-", color="C1",
              label=t("scaling.plot_fit", s_min=fit.s_min, b_crit=fit.b_crit))
    ax.axvline(fit.b_crit, color="C1", lw=0.8, ls="--")
    ax.set_ylim(max(0.5, steps.min() / 2), steps.max() * 2)
    ax.set_xlabel(t("scaling.plot_batch"))
    ax.set_ylabel(t("scaling.plot_steps", pct=100 * sweep.targets[target_index]))
    ax.legend(fontsize=8, loc="lower left")     # the points run from top left to bottom right
    return ax


def best_lr_vs_batch(ax, sweep, lambda_max: float = 1.0, guide=None, guide_measured=None):
    """Best rate per batch for each target, the linear and sqrt rules from the smallest batch,
    the 2 / lambda_max ceiling; optionally the guide's table and what a sweep at its sizes found."""
    b = sweep.batch_sizes.astype(float)
    best = sweep.median_best_lr
    for k, target in enumerate(sweep.targets):
        ax.loglog(b, best[k], "o-", color=f"C{k}", label=t("scaling.plot_best_lr", pct=100 * target))
    anchor = best[0][0]
    ax.loglog(b, anchor * b / b[0], ":", color="gray", label=t("scaling.plot_rule_linear"))
    ax.loglog(b, anchor * np.sqrt(b / b[0]), "--", color="gray", label=t("scaling.plot_rule_sqrt"))
    ax.axhline(2 / lambda_max, color="C3", lw=0.8, label=t("scaling.plot_ceiling"))
    if guide:
        ax.loglog(list(guide), list(guide.values()), "s", color="C4", label=t("scaling.plot_guide"))
    if guide_measured:
        ax.loglog(list(guide_measured), list(guide_measured.values()), "x", color="C4", ms=9,
                  label=t("scaling.plot_guide_measured"))
    ax.set_ylim(best.min() / 2, 8 / lambda_max)
    ax.set_xlabel(t("scaling.plot_batch"))
    ax.set_ylabel(t("scaling.plot_lr"))
    ax.legend(fontsize=7)
    return ax


def warmup_first_steps(ax, runs: dict, steps: int = 50):
    """Training loss of the first ``steps`` steps (mean over seeds): E3's runs keyed (batch, warmup)."""
    for i, ((batch, warm), run) in enumerate(sorted(runs.items())):
        curve = run.train_loss[:, :steps].mean(axis=0)
        key = "plot_with_warmup" if warm else "plot_without_warmup"
        ax.plot(np.arange(len(curve)), curve, "-" if warm else "--", color=f"C{i}",
                label=t(f"scaling.{key}", batch=batch))
    ax.set_yscale("log")
    ax.set_xlabel(t("scaling.plot_step"))
    ax.set_ylabel(t("scaling.plot_train_loss"))
    ax.legend(fontsize=8)
    return ax


def time_vs_replicas(ax, result, label: str | None = None):
    """Simulated time to target against replicas (log-log), with the ideal 1/N line."""
    n = result.replicas.astype(float)
    ms = result.seconds * 1e3
    ax.loglog(n, ms, "o-", color="C0", label=label or t("scaling.plot_time"))
    ax.loglog(n, ms[0] / n, ":", color="gray", label=t("scaling.plot_time_ideal"))
    ax.set_xticks(n)
    ax.set_xticklabels([str(int(r)) for r in n])
    ax.set_xlabel(t("scaling.plot_replicas"))
    ax.set_ylabel(t("scaling.plot_time_ms"))
    ax.legend(fontsize=8)
    return ax


def rule_demo(ax, curves):
    """The widget's panel: the base run and the chosen batch under the chosen rule."""
    ax.clear()
    from sim.scaling.rule_demo import DEMO_BASE_BATCH, DEMO_BASE_LR
    ax.semilogy(curves.base, color="gray", label=t("scaling.demo_base", batch=DEMO_BASE_BATCH,
                                                     lr=DEMO_BASE_LR))
    shown = np.where(np.isfinite(curves.scaled), curves.scaled, np.nan)
    ax.semilogy(shown, color="C1", label=t("scaling.demo_scaled", batch=curves.batch,
                                            rule=t(f"scaling.rule_{curves.rule}"),
                                            lr=curves.learning_rate))
    if curves.diverged_at is not None:
        ax.axvline(curves.diverged_at, color="C3", ls="--", label=t("scaling.demo_diverged",
                                                                    step=curves.diverged_at))
    ax.set_ylim(1e-3, 1e2)
    ax.set_xlabel(t("scaling.plot_step"))
    ax.set_ylabel(t("scaling.plot_excess_loss"))
    # Below the panel: in a grid of panels the labels are wider than one panel's free corner.
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    return ax


def rule_demo_widget():
    """ipywidgets: a batch-size slider and a rule menu that redraw ``rule_demo``."""
    import ipywidgets as W
    import matplotlib.pyplot as plt
    from sim.scaling.rule_demo import DEMO_BATCHES, DEMO_RULES, rule_curves

    whole = {"description_width": "initial"}      # labels never cut off with "…"
    batch = W.SelectionSlider(options=list(DEMO_BATCHES), value=64,
                              description=t("scaling.widget_batch"), style=whole)
    rule = W.Dropdown(options=[(t(f"scaling.rule_{r}"), r) for r in DEMO_RULES], value="linear",
                      description=t("scaling.widget_rule"), style=whole)
    out = W.Output()

    def redraw(*_):
        with out:
            out.clear_output(wait=True)
            fig, ax = plt.subplots(figsize=(8, 4.5))
            rule_demo(ax, rule_curves(batch.value, rule.value))
            plt.show()

    for w in (batch, rule):
        w.observe(redraw, names="value")
    redraw()
    return W.VBox([W.HBox([batch, rule]), out])
