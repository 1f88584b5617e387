"""``python -m sim plan`` over 210 candidate configurations (the issue's target: a plan over 200
under 5 s on 2 cores): ResNet-50 on 1-16 DGX-1 nodes (8-128 GPUs), four networks, all six
strategies (hierarchical copy and central storage on one node only, as in TensorFlow), three
batches per device, next to a bare ``python -c "import sim"`` start-up, each a fresh process,
same run. Best of 3 wall-clock runs each; the figure is the whole command (interpreter start,
building every cluster, simulating each candidate's step with sim.scaleout, ranking, printing).
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 3
TARGET = 5.0  # seconds
COMMAND = ["-m", "sim", "plan", "--model", "resnet50", "--machines", "dgx1-p100",
           "--nodes", "1,2,4,8,16", "--networks", "10gbe,25gbe,edr-ib,hdr-ib",
           "--strategies", "mirrored-nccl,mirrored-ring,mirrored-hierarchical,central-storage,ps-sync,ps-async",
           "--batch-per-device", "32,64,128", "--json"]


def best_seconds(args: list) -> tuple[float, str]:
    best, out = float("inf"), ""
    for _ in range(RUNS):
        start = time.perf_counter()
        run = subprocess.run([sys.executable, *args], capture_output=True, check=True, cwd=ROOT,
                             timeout=120, text=True)
        best, out = min(best, time.perf_counter() - start), run.stdout
    return best, out


def main() -> None:
    baseline, _ = best_seconds(["-c", "import sim"])
    seconds, out = best_seconds(COMMAND)
    candidates = len(json.loads(out))
    ok = "ok" if seconds < TARGET and candidates >= 200 else "MISS"
    print(f"BENCH python -m sim plan, ResNet-50 over {candidates} candidate configurations: "
          f"{seconds:.2f} s ({seconds / baseline:.0f}x a bare 'import sim' start-up of {baseline:.2f} s; "
          f"target < {TARGET:.0f} s) {ok}")


if __name__ == "__main__":
    main()
