"""Who reads which examples under each auto-shard policy: the streams and their picture.

``who_reads(dataset, num_workers)`` runs the auto-shard rewrite once per worker (what
MultiWorkerMirroredStrategy does on each machine) and returns each worker's examples, in the
order it reads them. ``draw(panels)`` shows one grid per policy: workers as rows, examples as
columns, a filled cell where that worker reads that example. Text from ``lesson06``.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t


def who_reads(dataset, num_workers):
    """``[[examples of worker 0], [examples of worker 1], ...]`` (scalar integer elements)."""
    from sim.distribute.auto_shard import auto_shard, fresh_copy
    return [[int(v) for v in auto_shard(fresh_copy(dataset), num_workers, w).as_numpy_iterator()]
            for w in range(num_workers)]


def read_matrix(streams, num_examples):
    """``(workers, examples)`` counts: how many times each worker reads each example."""
    out = np.zeros((len(streams), num_examples), dtype=int)
    for w, stream in enumerate(streams):
        for v in stream:
            out[w, v] += 1
    return out


def draw(panels, num_examples, axes=None):
    """One grid per ``(title, streams)`` of ``panels``; returns the axes."""
    import matplotlib.pyplot as plt
    if axes is None:
        _, axes = plt.subplots(len(panels), 1, figsize=(8, 1.1 * sum(len(s) for _, s in panels) + 0.8),
                               squeeze=False)
        axes = axes[:, 0]
    colors = plt.get_cmap("tab10")
    for ax, (title, streams) in zip(axes, panels):
        matrix = read_matrix(streams, num_examples)
        rgb = np.ones(matrix.shape + (3,))
        for w in range(matrix.shape[0]):
            rgb[w, matrix[w] > 0] = colors(w)[:3]
        ax.imshow(rgb, aspect="auto", interpolation="nearest")
        ax.set_title(title, fontsize=10, loc="left")
        ax.set_yticks(range(matrix.shape[0]))
        ax.set_yticklabels([t("lesson06.plot_worker", w=w) for w in range(matrix.shape[0])])
        ax.set_xticks(range(num_examples))
        ax.set_xticks(np.arange(-0.5, num_examples), minor=True)
        ax.set_yticks(np.arange(-0.5, matrix.shape[0]), minor=True)
        ax.grid(which="minor", color="white", linewidth=1.5)
        ax.tick_params(which="minor", length=0)
    axes[-1].set_xlabel(t("lesson06.plot_example"))
    return axes
