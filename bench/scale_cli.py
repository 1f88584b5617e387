"""``python -m sim scale`` for 64 nodes x 8 GPUs of ResNet-50 (the issue's target: under 5 s on
2 cores), next to a bare ``python -c "import sim"`` start-up, each a fresh process, same run.

Best of 3 wall-clock runs each; the figure is the whole command (interpreter start, building the
512-GPU cluster, NCCL's choice and the replay of each bucket size's all-reduce).
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 3
TARGET = 5.0  # seconds
COMMAND = ["-m", "sim", "scale", "--model", "resnet50", "--machine", "dgx1-p100", "--nodes", "64",
           "--gpus", "8", "--network", "edr-ib", "--json"]


def best_seconds(args: list) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], capture_output=True, check=True, cwd=ROOT,
                       timeout=120)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    baseline = best_seconds(["-c", "import sim"])
    scale = best_seconds(COMMAND)
    ok = "ok" if scale < TARGET else "MISS"
    print(f"BENCH python -m sim scale, ResNet-50 on 64 nodes x 8 GPUs: {scale:.2f} s "
          f"({scale / baseline:.0f}x a bare 'import sim' start-up of {baseline:.2f} s; "
          f"target < {TARGET:.0f} s) {ok}")


if __name__ == "__main__":
    main()
