"""Wall time of a custom training loop under MultiWorkerMirroredStrategy, 2 workers x 2 GPUs
(two OS processes started by the launcher, their gradients all-reduced through the fabric),
against the same loop in one process with MirroredStrategy on 4 GPUs (bench/_mwms_loop_task.py).

Only the loop is timed, inside each process (the launcher's start-up is bench/launch_startup.py);
the cluster's time is its slower worker's. The two run interleaved, REPEATS rounds after an
untimed warm-up of each, and the ratio is of the medians, so load from other processes on a
shared machine falls on both sides alike. The cluster has two processes on the 2-core course
machine, each computing half the replicas, but pays a round trip through the fabric per
collective (the gradients and the loss, every step).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.launch import launch  # noqa: E402

TASK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_mwms_loop_task.py")
REPEATS = 3
TARGET = 2.0


def _loop_seconds(lines):
    return [float(ln.split()[1]) for ln in lines.splitlines() if ln.startswith("LOOP ")]


def cluster_round():
    result = launch(TASK, workers=2, gpus_per_worker=2, echo=False, timeout=300)
    if result.returncode:
        raise SystemExit(result.output)
    return max(s for r in result.tasks for s in _loop_seconds(r.output))


def single_round():
    proc = subprocess.run([sys.executable, TASK, "mirrored"], capture_output=True, text=True,
                          timeout=300, check=True)
    return _loop_seconds(proc.stdout)[0]


def main():
    cluster_round(), single_round()                    # warm-up (file caches), untimed
    cluster, single = [], []
    for _ in range(REPEATS):
        cluster.append(cluster_round())
        single.append(single_round())
        print(f"round: cluster {cluster[-1]:.3f} s, one process {single[-1]:.3f} s")
    ratio = statistics.median(cluster) / statistics.median(single)
    verdict = "ok" if ratio <= TARGET else "MISS"
    print(f"BENCH mwms custom loop 2x2 vs 4 replicas in one process: {ratio:.2f}x "
          f"(target <= {TARGET:g}x) {verdict}")


if __name__ == "__main__":
    main()
