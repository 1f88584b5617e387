"""Read and compare what a tutorial printed on the two engines (tutorial_cells.py's output).

A run's stdout becomes ``{cell: Cell(lines, error)}``. Lines are compared after dropping what is
each engine's own chatter rather than the tutorial's: Keras's progress bars (their last values
are compared separately, as ``fit_logs``), TensorFlow's and sim's notes (``WARNING:``, the
MNIST-subset notes, sim's soft-placement note). A line's text with its numbers masked must be
equal; its numbers are compared within a tolerance.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
PROGRESS = re.compile(r"\d+/\d+ \S*\s*[━=.>\[\]]|\[=*>?\.*\]|━")
LOG_PAIR = re.compile(r"(\w+): ([-+]?\d+\.\d+(?:e[-+]?\d+)?|nan|inf)")
CHATTER = ("WARNING", "INFO:", "E0000", "Cause: ", "To silence this warning", "Using the MNIST subset", "SIM_SAME_START_SAMPLES",
           "is not on the simulated machine", "W0000", "I0000")
KERAS_EPOCH = re.compile(r"^Epoch \d+/\d+$")   # Keras's own header line


class Cell(NamedTuple):
    lines: list
    error: str | None       # "Type: first line" or None
    fit_logs: list          # one {metric: value} per finished Keras progress bar


def terminal(line):
    """What a terminal shows of a line: after its last carriage return, without backspaces and
    colour codes (Keras 3's progress bar writes its step count in bold)."""
    line = re.sub(r"\x1b\[[0-9;]*m", "", line.replace("\x08", ""))
    return ([p for p in line.split("\r") if p.strip()] or [""])[-1]


def parse(stdout):
    cells, current = {}, None
    for line in stdout.splitlines():
        if line.startswith("TUTORIAL-CELL "):
            current = int(line.split()[1])
            cells[current] = Cell([], None, [])
            continue
        if current is None:
            continue
        cell = cells[current]
        if line.startswith("TUTORIAL-ERROR "):
            cells[current] = cell._replace(error=line.split(" ", 2)[2])
            continue
        # a terminal shows what follows a line's last carriage return (a progress bar's updates)
        for part in [terminal(line)]:
            part = part.rstrip()
            if PROGRESS.search(part) or " - loss:" in part:
                pairs = dict((k, float(v)) for k, v in LOG_PAIR.findall(part))
                done = re.match(r"\s*(\d+)/(\d+)", part)
                if pairs and (done is None or done.group(1) == done.group(2)):
                    # Keras 3 may print a finished bar twice, at its last step and again at the
                    # epoch's end with what callbacks added (learning_rate); whether it does
                    # depends on its print interval, i.e. on timing: keep the fuller line
                    last = cell.fit_logs[-1] if cell.fit_logs else None
                    if last is not None and _same_step(last, pairs):
                        cell.fit_logs[-1] = pairs if len(pairs) >= len(last) else last
                    else:
                        cell.fit_logs.append(pairs)
            elif part.strip() and not part.startswith(CHATTER) and not KERAS_EPOCH.match(part.strip()):
                cell.lines.append(part.strip())
    return cells


def _same_step(a, b):
    """Two finished-bar lines of one epoch: the same values, one maybe with more keys."""
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return all(k in large and large[k] == v for k, v in small.items())


def masked(line):
    """The line's text with numbers masked and spacing normalised (NumPy pads an array's columns
    to its widest number, so the same array prints ``4.3793    `` on one engine, ``4.3792996``
    on the other)."""
    text = " ".join(NUMBER.sub("#", line).split())
    return re.sub(r"([\[(]) | ([\]),])", lambda m: m.group(1) or m.group(2), text)


def numbers(line):
    return [float(x) for x in NUMBER.findall(line)]


def close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= atol + rtol * abs(b)


def differences(sim_cells, tf_cells, rtol, atol, ignore_lines=(), text_only=()):
    """Human-readable differences between two parsed runs (empty when they agree); the cells in
    ``text_only`` are compared with their numbers masked."""
    out = []
    if sorted(sim_cells) != sorted(tf_cells):
        out.append(f"cells run: sim {sorted(sim_cells)} tensorflow {sorted(tf_cells)}")
    for n in sorted(set(sim_cells) & set(tf_cells)):
        a, b = sim_cells[n], tf_cells[n]
        ea, eb = (x.error.split(":")[0] if x.error else None for x in (a, b))
        if ea != eb:
            out.append(f"cell {n}: error sim {a.error!r} tensorflow {b.error!r}")
            continue
        la = [x for x in a.lines if not any(re.search(p, x) for p in ignore_lines)]
        lb = [x for x in b.lines if not any(re.search(p, x) for p in ignore_lines)]
        if [masked(x) for x in la] != [masked(x) for x in lb]:
            if masked(" ".join(la)) != masked(" ".join(lb)):
                out.append(f"cell {n}: printed\n  sim: {la[:6]}\n  tf:  {lb[:6]}")
                continue
            la, lb = [" ".join(la)], [" ".join(lb)]   # NumPy wrapped one engine's array
        if n in text_only:
            continue
        for x, y in zip(la, lb):
            if not all(close(p, q, rtol, atol) for p, q in zip(numbers(x), numbers(y))):
                out.append(f"cell {n}: numbers differ\n  sim: {x}\n  tf:  {y}")
        if [sorted(d) for d in a.fit_logs] != [sorted(d) for d in b.fit_logs]:
            out.append(f"cell {n}: Keras logs sim {a.fit_logs} tensorflow {b.fit_logs}")
            continue
        for i, (x, y) in enumerate(zip(a.fit_logs, b.fit_logs)):
            for key in x:
                if not close(x[key], y[key], rtol, max(atol, 1e-4)):   # progress bars: 4 decimals
                    out.append(f"cell {n}: Keras log {i} {key}: sim {x[key]} tensorflow {y[key]}")
    return out


def worst_relative(sim_cells, tf_cells):
    """The largest relative difference of any compared number (for the record)."""
    worst = 0.0
    for n in set(sim_cells) & set(tf_cells):
        for x, y in zip(sim_cells[n].lines, tf_cells[n].lines):
            if masked(x) == masked(y):
                for p, q in zip(numbers(x), numbers(y)):
                    if q:
                        worst = max(worst, abs(p - q) / abs(q))
    return worst
