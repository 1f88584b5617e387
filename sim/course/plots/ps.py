"""Pictures of asynchronous parameter-server training, in the course language (``ps`` catalogue).

- ``draw_timeline``: one row per worker (each bar a step, from its read to its update, coloured
  by staleness; a step lost to a failure is hatched) and one row per parameter server (a tick
  for each update it applied); failures as red lines.
- ``draw_staleness_histogram``: how stale the applied updates were, against the N - 1 rule.
- ``draw_time_to_loss``: loss against simulated time for several regimes (sync, backups, async).

Each takes plain arrays (``timeline_data`` builds them from a ClusterCoordinator's cluster or
from a ``regimes.Run``), so the widgets and tests call the same pure functions.
"""
from __future__ import annotations

import textwrap

import numpy as np

from sim.i18n import t


def timeline_data(source, limit=None):
    """``dict(worker, start, end, staleness, aborted, ps, workers, num_ps, failures)``."""
    if hasattr(source, "records"):                  # a SimulatedCluster
        recs = [r for r in source.records if r.status in ("applied", "no_update", "aborted",
                                                          "unavailable")]
        recs = recs[:limit] if limit else recs
        return dict(worker=np.array([r.worker for r in recs], int),
                    start=np.array([r.start for r in recs]), end=np.array([r.end for r in recs]),
                    staleness=np.array([r.staleness for r in recs]),
                    aborted=np.array([r.status != "applied" and r.status != "no_update"
                                      for r in recs]),
                    ps=[r.ps_tasks if r.status in ("applied", "no_update") else () for r in recs],
                    workers=source.num_workers, num_ps=source.num_ps,
                    failures=list(source.failures))
    n = len(source.time) if limit is None else min(limit, len(source.time))
    return dict(worker=source.worker[:n], start=source.read_time[:n], end=source.time[:n],
                staleness=source.staleness[:n], aborted=np.zeros(n, bool), ps=[(0,)] * n,
                workers=source.workers, num_ps=1, failures=[])


def draw_timeline(ax, data, max_staleness=None, staleness_label=None):
    """Workers' steps and the ps tasks' updates on one time axis."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import Normalize
    from matplotlib.ticker import MaxNLocator
    workers, num_ps = data["workers"], data["num_ps"]
    top = max_staleness or max(1, int(np.max(data["staleness"], initial=1)))
    norm = Normalize(0, top)
    cmap = plt.get_cmap("viridis")
    ax.clear()
    for w, s, e, tau, bad in zip(data["worker"], data["start"], data["end"], data["staleness"],
                                 data["aborted"]):
        if bad:
            ax.barh(num_ps + w, e - s, left=s, height=0.7, color="white", edgecolor="tab:red",
                    hatch="///")
        else:
            ax.barh(num_ps + w, e - s, left=s, height=0.7, color=cmap(norm(tau)),
                    edgecolor="black", linewidth=0.3)
    for k in range(num_ps):
        ticks = [e for e, tasks, bad in zip(data["end"], data["ps"], data["aborted"])
                 if k in tasks and not bad]
        ax.plot(ticks, [k] * len(ticks), "|", color="tab:orange", markersize=12)
    for when, kind, index in data["failures"]:
        row = index if kind == "ps" else num_ps + index
        ax.axvline(when, color="tab:red", linewidth=1)
        ax.annotate(t("ps.failed", what=t(f"ps.{kind}_row", i=index)), (when, row + 0.45),
                    xytext=(4, 0), textcoords="offset points", color="tab:red", fontsize=8)
    ax.set_yticks(range(num_ps + workers))
    ax.set_yticklabels([t("ps.ps_row", i=k) for k in range(num_ps)]
                       + [t("ps.worker_row", i=i) for i in range(workers)])
    ax.invert_yaxis()
    ax.set_xlabel(t("ps.time_axis"))
    ax.set_title(t("ps.timeline_title", workers=workers, ps=num_ps))
    sm = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
    bar = ax.figure.colorbar(sm, ax=ax, label=staleness_label or t("ps.staleness_axis"))
    bar.ax.yaxis.set_major_locator(MaxNLocator(integer=True))     # staleness is a count


def staleness_counts(staleness):
    """``(values, counts)`` of a staleness sample (every value from 0 to the max)."""
    s = np.asarray(staleness, int)
    counts = np.bincount(s) if s.size else np.zeros(1, int)
    return np.arange(len(counts)), counts


def draw_staleness_histogram(ax, staleness, workers):
    """Share of updates with each staleness; the mean and the N - 1 rule as lines."""
    values, counts = staleness_counts(staleness)
    ax.clear()
    share = counts / max(1, counts.sum())
    ax.bar(values, share, color="tab:blue", width=0.9)
    mean = float(np.mean(staleness)) if len(staleness) else 0.0
    ax.axvline(mean, color="tab:orange", label=t("ps.mean_staleness", mean=mean))
    ax.axvline(workers - 1, color="black", linestyle="--", label=t("ps.n_minus_1", n=workers))
    ax.set_xlabel(t("ps.staleness_axis"))
    ax.set_ylabel(t("ps.share_axis"))
    ax.set_title(t("ps.histogram_title", workers=workers))
    ax.legend()


def draw_time_to_loss(ax, runs, target=None, legend_loc="best", with_rate=True):
    """Loss (relative to the start) against simulated time, one curve per run and row."""
    ax.clear()
    for run in runs:
        for r, lr in enumerate(run.lr):
            rel = run.loss[:, r] / run.start_loss[r]
            name = (t("ps.run_label", regime=regime_name(run), lr=lr) if with_rate
                    else regime_name(run))
            if run.diverged[r]:
                name += " " + t("ps.diverged")
            ax.plot(run.time, np.minimum(rel, 1e3), label=name)
    if target is not None:
        ax.axhline(target, color="grey", linestyle=":", label=t("ps.target", target=target))
    ax.set_yscale("log")
    ax.set_xlabel(t("ps.time_axis_units"))
    ax.set_ylabel(t("ps.loss_axis"))
    ax.set_title(t("ps.time_to_loss_title"))
    ax.legend(fontsize=8, loc=legend_loc)


def regime_name(run):
    """The regime of a ``regimes.Run`` in the course language."""
    return t(_regime_key(run.regime), backups=_backups(run))


def _regime_key(regime):
    if regime.startswith("sync +"):
        return "ps.regime_backups"
    return {"sync": "ps.regime_sync", "async": "ps.regime_async"}.get(regime, "ps.regime_aware")


def _backups(run):
    return int(run.regime.split("+")[1].split()[0]) if run.regime.startswith("sync +") else 0


# -- the classroom demo: a pure function, its drawing, and the widget over them ----------------
def demo_view(workers=4, spread=1.0, lr=0.3, seed=0, until=200.0):
    """The runs the classroom demo draws: async (plain and staleness-aware) and sync, on the
    E1 regression, each worker's step taking 1 + Exp(mean=spread) time units."""
    from sim.des import ComputeTime
    from sim.scaling.problems import staleness_regression
    from sim.scaling.staleness_regimes import run_async, run_sync
    problem = staleness_regression(seed=seed)
    compute = ComputeTime(fixed=1.0, exponential=float(spread))
    plain = run_async(problem, workers, compute, until=until, lr=lr, seed=seed)
    aware = run_async(problem, workers, compute, until=until, lr=lr, rule="1+tau", seed=seed)
    sync = run_sync(problem, workers, compute, until=until, lr=lr, seed=seed)
    return {"workers": workers, "plain": plain, "aware": aware, "sync": sync}


DEMO_FIGSIZE = (13, 3.9)    # three plots side by side: with the sliders, one 1280x720 screen
DEMO_LRS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0)
DEMO_SPREADS = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0)


def draw_demo(view, fig):
    """Timeline (first 40 updates), staleness histogram, and loss against time, side by side."""
    fig.clear()
    left, middle, right = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.5, 1, 1.2]})
    draw_timeline(left, timeline_data(view["plain"], limit=40), staleness_label=t("ps.staleness_short"))
    draw_staleness_histogram(middle, view["plain"].staleness, view["workers"])
    middle.set_xlabel(t("ps.staleness_short"))
    runs = [view["sync"], view["plain"], view["aware"]]
    draw_time_to_loss(right, runs, target=0.01, with_rate=False)
    right.set_title(t("ps.demo_loss_title", lr=float(view["plain"].lr[0])))
    for ax in (left, middle):      # three titles side by side: each on at most two short lines
        ax.set_title(textwrap.fill(ax.get_title(), 34))


def demo_widget():
    """Sliders for the number of workers, the straggler spread and the learning rate."""
    import ipywidgets as W
    import matplotlib.pyplot as plt
    from sim.i18n import number
    whole = {"description_width": "initial"}      # labels never cut off with "…"
    workers = W.IntSlider(value=4, min=1, max=32, description=t("ps.widget_workers"), style=whole)
    # Selection sliders: the readout is our own text, in the course language (0,3 in pt), and
    # the learning rate starts at exactly 0.3, the static figure's value.
    spread = W.SelectionSlider(options=[(number(v, ".2f"), v) for v in DEMO_SPREADS], value=1.0,
                               description=t("ps.widget_spread"), style=whole)
    lr = W.SelectionSlider(options=[(number(v, "g"), v) for v in DEMO_LRS], value=0.3,
                           description=t("ps.widget_lr"), style=whole)
    out = W.Output()

    def redraw(*_):
        with out:
            out.clear_output(wait=True)
            fig = plt.figure(figsize=DEMO_FIGSIZE, layout="constrained")
            draw_demo(demo_view(workers.value, spread.value, lr.value), fig)
            plt.show()

    for w in (workers, spread, lr):
        w.observe(redraw, names="value")
    redraw()
    return W.VBox([W.HBox([workers, spread, lr]), out])
