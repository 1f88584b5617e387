"""Timing two functions in alternation and printing their median ratio: the harness of the
step benches (mlp_step, conv_step), whose baseline is the same math in plain NumPy."""
from __future__ import annotations

import statistics
import time


def median_ratio(ours, baseline, repeats: int) -> tuple:
    """(ratio of medians, our median s, baseline median s); the two alternate, so load drift
    falls on both."""
    ours_t, base_t = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        ours()
        t1 = time.perf_counter()
        baseline()
        t2 = time.perf_counter()
        ours_t.append(t1 - t0)
        base_t.append(t2 - t1)
    ours_s, base_s = statistics.median(ours_t), statistics.median(base_t)
    return ours_s / base_s, ours_s, base_s


def report_step(what: str, ours, baseline, repeats: int, target: float = 2.0) -> None:
    """Time ``ours`` (sim.tf) against ``baseline`` (plain NumPy) and print the BENCH line."""
    ratio, ours_s, base_s = median_ratio(ours, baseline, repeats)
    print(f"sim.tf median {ours_s * 1e3:.2f} ms, NumPy median {base_s * 1e3:.2f} ms")
    print(f"BENCH {what}: {ratio:.2f}x plain NumPy (target <= {target:g}x) "
          f"{'ok' if ratio <= target else 'MISS'}")
