"""Pictures of all-reduce: the ring step by step, an animation of it, and the comparison of
algorithms across message sizes. Text comes from the ``collectives`` catalogue (the widget's
control labels from ``plots``).

The animation is an animated GIF: it plays from the committed notebook (no JavaScript, so no
"trust" needed), offline, with no stylesheet from a CDN.

The ring pictures are computed, not drawn by hand: every device starts with the bit mask
``1 << r`` in every segment and the ring schedule is executed round by round with the NumPy
executor, so a cell's value says exactly which devices' contributions it already holds.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import number, t

COMPARE_MACHINES = ("workstation-4gpu", "dgx1-v100", "dgx-a100", "dgx-h100", "dgx-a100-cluster", "tpu-v4")


def ring_states(p: int = 4) -> tuple[list, list]:
    """``(states, rounds)``: the ``(p, p)`` contribution masks before and after every ring step."""
    from sim.collectives import build
    from sim.collectives.executor import apply_round

    sched = build("ring", p, p)
    buf = np.tile((1 << np.arange(p, dtype=np.int64))[:, None], (1, p))
    states = [buf.copy()]
    for rnd in sched.rounds:
        apply_round(buf, rnd)
        states.append(buf.copy())
    return states, sched.rounds


def _popcount(x: np.ndarray) -> np.ndarray:
    return np.vectorize(lambda v: bin(int(v)).count("1"))(x)


def _title(p: int, step: int) -> str:
    if step == 0:
        return t("collectives.ring_initial", p=p)
    if step == 2 * (p - 1):
        return t("collectives.ring_final", p=p)
    phase = t("collectives.reduce_scatter") if step <= p - 1 else t("collectives.all_gather")
    return t("collectives.ring_title", p=p, phase=phase,
             step=t("collectives.round", k=step, n=2 * (p - 1)))


def fit_title(ax, text: str, fontsize: float = 9, width: float | None = None) -> None:
    """Set ``text`` as the axes' title, broken into lines that fit the axes' width, so the
    titles of neighbouring panels never run into each other (CJK text breaks between characters)."""
    import re

    from matplotlib.text import Text

    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    if width is None:        # pixels; 0.9 leaves room for tight_layout's shrinking of the axes
        width = 0.9 * ax.get_position().width * fig.get_figwidth() * fig.dpi
    probe = Text(0, 0, "", fontsize=fontsize, figure=fig)

    def measure(s: str) -> float:
        probe.set_text(s)
        return probe.get_window_extent(renderer).width

    tokens = re.findall(r"[\u3000-\u9fff\uff00-\uffef][，。：；、）]?|[^\s\u3000-\u9fff\uff00-\uffef]+\s*|\s+",
                        text)
    lines, line = [], ""
    for token in tokens:
        if line and measure(line + token.rstrip()) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    lines.append(line.rstrip())
    ax.set_title("\n".join(lines), fontsize=fontsize)


def draw_ring_state(ax, states, rounds, step: int) -> None:
    """One panel: devices as rows, segments as columns; colour = contributions summed; arrows =
    the transfers of the step that produced this state."""
    p = states[0].shape[0]
    counts = _popcount(states[step])
    ax.clear()
    ax.imshow(counts, cmap="Blues", vmin=0, vmax=p + 1, aspect="auto")
    for r in range(p):
        for s in range(p):
            who = "".join(str(d) for d in range(p) if states[step][r, s] >> d & 1)
            ax.text(s, r, who if len(who) <= 4 else f"{len(who)}", ha="center", va="center", fontsize=9,
                    color="white" if counts[r, s] == p else "black")
    if step > 0:
        rnd = rounds[step - 1]
        for src, dst, a in zip(rnd.src.tolist(), rnd.dst.tolist(), rnd.start.tolist()):
            ax.annotate("", xy=(a + 0.3, dst - 0.3), xytext=(a + 0.3, src + 0.3),
                        arrowprops=dict(arrowstyle="->", color="tab:red", lw=1.2,
                                        connectionstyle="arc3,rad=0.3"))
    ax.set_xticks(range(p))
    ax.set_xticklabels([f"{t('collectives.segment')} {s}" for s in range(p)], fontsize=8)
    ax.set_yticks(range(p))
    ax.set_yticklabels([t("collectives.device", r=r) for r in range(p)], fontsize=8)
    fit_title(ax, _title(p, step), fontsize=9)


def draw_ring_steps(p: int = 4):
    """Every state of a ring all-reduce on ``p`` devices in one figure."""
    import matplotlib.pyplot as plt

    states, rounds = ring_states(p)
    n = len(states)
    cols = 4
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows))
    for i, ax in enumerate(np.ravel(axes)):
        if i < n:
            draw_ring_state(ax, states, rounds, i)
        else:
            ax.axis("off")
    fig.tight_layout()
    return fig


def ring_animation_frames(p: int = 4, dpi: int = 80) -> list:
    """One RGB image (PIL) per ring state, drawn on one figure whose margins fit every frame's
    labels (``tight_layout`` per frame would make the picture jump)."""
    import io

    import matplotlib.pyplot as plt
    from PIL import Image

    states, rounds = ring_states(p)
    fig, ax = plt.subplots(figsize=(6, 4.4), dpi=dpi)
    frames = []
    try:
        for i in range(len(states)):
            draw_ring_state(ax, states, rounds, i)
            fit_title(ax, _title(p, i), fontsize=10, width=0.95 * fig.get_figwidth() * dpi)
            fig.subplots_adjust(left=0.2, right=0.97, bottom=0.09, top=0.86)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=dpi)
            frames.append(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    finally:
        plt.close(fig)
    return frames


def ring_animation_gif_bytes(p: int = 4, interval_ms: int = 1200) -> bytes:
    """The ring steps as an animated GIF that loops forever (a longer pause on the last frame)."""
    import io

    frames = [f.quantize(colors=64, method=2, dither=0) for f in ring_animation_frames(p)]
    durations = [interval_ms] * (len(frames) - 1) + [3 * interval_ms]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, optimize=False)
    return buf.getvalue()


def ring_animation_gif(p: int = 4, interval_ms: int = 1200):
    """The animation for a notebook: an ``IPython.display.Image`` (image/gif) that JupyterLab plays
    from the saved notebook, offline and untrusted."""
    from IPython.display import Image

    return Image(data=ring_animation_gif_bytes(p, interval_ms), format="gif")


def comparison_rows(machine: str = "dgx-a100", devices: int | None = None, sizes=None,
                    algorithms=None, nodes: int | None = None) -> list:
    """Rows of simulated time for every applicable algorithm over ``sizes`` (bytes)."""
    from sim.collectives.compare import compare, machine_of, sizes_between

    m = machine_of(machine, nodes)
    sizes = sizes if sizes is not None else sizes_between(1024, 2**30, 4)
    from sim.collectives.algorithms import ALGORITHMS
    rows, _ = compare(m, sizes, algorithms or ALGORITHMS, p=devices)
    return rows


def algorithm_styles() -> dict:
    """``{algorithm: dict(color, ls, marker)}``: one colour (the ten of tab10, then black and
    grey) and one marker per algorithm, so no two lines look alike, even in grey print."""
    from matplotlib import colormaps

    from sim.collectives.algorithms import ALGORITHMS

    colours = [colormaps["tab10"](i) for i in range(10)] + [(0.0, 0.0, 0.0, 1.0), (0.55, 0.55, 0.55, 1.0)]
    markers = ["o", "s", "^", "v", "D", "P", "X", "*", "<", ">", "h", "d"]
    lines = ["-", "--", "-.", ":"]
    if len(ALGORITHMS) > len(colours):
        raise ValueError(f"{len(ALGORITHMS)} algorithms but only {len(colours)} styles: add more")
    return {name: {"color": colours[i], "marker": markers[i], "ls": lines[i % len(lines)]}
            for i, name in enumerate(ALGORITHMS)}


def size_label(nbytes: int) -> str:
    """A message size for a person: 8 B, 64 KiB, 1 MiB, 1 GiB (numbers in the course language)."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            value = nbytes / scale
            return f"{number(value, 'g')} {unit}"
    return f"{number(int(nbytes), 'd')} B"


def draw_comparison(rows: list, ax=None, highlight: str | None = None, title: str = "",
                    size_bytes: int | None = None):
    """Time against message size (log-log), one line per algorithm."""
    import matplotlib.pyplot as plt
    from sim.course.plots import label

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4.5))
    names = list(dict.fromkeys(r["algorithm"] for r in rows))
    styles = algorithm_styles()
    for name in names:
        pts = sorted((r["size_bytes"], r["time_us"]) for r in rows if r["algorithm"] == name)
        xs, ys = zip(*pts)
        ax.plot(xs, ys, ms=4, lw=3 if name == highlight else 1.2,
                alpha=1.0 if (highlight is None or name == highlight) else 0.6, label=name,
                **styles.get(name, {"marker": "o"}))
    if size_bytes:
        ax.axvline(size_bytes, color="grey", ls=":")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(label("message_size"))
    ax.set_ylabel(label("time_us"))
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    return ax


def widget_view(machine: str = "dgx-a100", devices: int = 8, size_bytes: int = 2**20,
                algorithm: str = "ring") -> dict:
    """The widget's logic, a plain function tests call: the comparison on ``devices`` devices of
    ``machine``, the chosen algorithm's row at ``size_bytes``, and the fastest one there."""
    from sim.collectives.compare import fastest, machine_of, sizes_between
    from sim.collectives.replay import default_ranks

    nodes = max(1, -(-devices // 8)) if machine.endswith("-cluster") else None
    m = machine_of(machine, nodes)
    available = len(default_ranks(m))
    devices = max(1, min(int(devices), available))
    sizes = sorted(set(sizes_between(1024, 2**30, 4)) | {int(size_bytes) // 4 * 4 or 4})
    rows = comparison_rows(m, devices, sizes)
    size = int(size_bytes) // 4 * 4 or 4
    chosen = next((r for r in rows if r["algorithm"] == algorithm and r["size_bytes"] == size), None)
    best = fastest(rows, size)
    title = t("collectives.compare_title", machine=m.name, p=devices)
    return {"rows": rows, "chosen": chosen, "fastest": best, "title": title, "devices": devices,
            "size_bytes": size}


def draw_widget_view(view: dict, ax=None):
    ax = draw_comparison(view["rows"], ax, highlight=(view["chosen"] or {}).get("algorithm"),
                         title=view["title"], size_bytes=view["size_bytes"])
    best = view["fastest"]
    if best:
        ax.text(0.01, 0.02, t("collectives.fastest", size=size_label(view["size_bytes"]),
                              algorithm=best["algorithm"], us=best["time_us"]),
                transform=ax.transAxes, fontsize=9)
    return ax


def comparison_widget():
    """ipywidgets controls (devices, message size, machine, algorithm) that redraw the plot; the
    labels are in the course language and sized to show their whole text."""
    import ipywidgets as W
    import matplotlib.pyplot as plt
    from sim.collectives.algorithms import ALGORITHMS
    from sim.course.plots import label

    style = {"description_width": "initial"}
    wide = W.Layout(width="360px")
    machine = W.Dropdown(options=COMPARE_MACHINES, value="dgx-a100", description=label("widget_machine"),
                         style=style, layout=wide)
    devices = W.IntSlider(value=8, min=2, max=64, description=label("widget_devices"), style=style,
                          layout=wide)
    size = W.SelectionSlider(options=[(size_label(2**k), 2**k) for k in range(3, 31)], value=2**20,
                             description=label("widget_size"), style=style, layout=wide)
    algorithm = W.Dropdown(options=ALGORITHMS, value="ring", description=label("widget_algorithm"),
                           style=style, layout=wide)
    out = W.Output()

    def redraw(*_):
        with out:
            out.clear_output(wait=True)
            fig, ax = plt.subplots(figsize=(8, 4.5))
            draw_widget_view(widget_view(machine.value, devices.value, size.value, algorithm.value), ax)
            plt.show()

    for w in (machine, devices, size, algorithm):
        w.observe(redraw, names="value")
    redraw()
    return W.VBox([W.HBox([machine, algorithm]), W.HBox([devices, size]), out])
