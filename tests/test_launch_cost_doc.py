"""docs/published_comparison.md's launch-cost arithmetic follows from its inputs: ResNet-50's layer
count in sim.workloads, at most 12 kernels per layer and step, XLA's 1 µs (and 5 µs) per kernel,
and the published P100 rates at batch 32 and 64 in the doc's own table."""
import re
from pathlib import Path

import pytest

from sim.workloads import workload

DOC = (Path(__file__).resolve().parents[1] / "docs" / "published_comparison.md").read_text("utf-8")
PER_LAYER = 12          # forward 4, backward 5, one update per variable (3)


def _published_rate(batch: int) -> float:
    row = re.search(rf"^\| ResNet-50 \| P100 SXM2 \| float32[^|]*\| {batch} \| (\d+) \|", DOC, re.M)
    assert row, f"no published P100 ResNet-50 row at batch {batch}"
    return float(row.group(1))


def _number(pattern: str) -> float:
    found = re.search(pattern, DOC.replace("\n  ", " "))
    assert found, f"the doc no longer says {pattern!r}"
    return float(found.group(1))


def test_the_kernel_count_and_its_share_of_the_step():
    layers = len(workload("resnet50").layers)
    assert _number(r"ResNet-50's (\d+) layers launch at most 12 kernels") == layers
    kernels = PER_LAYER * layers
    assert _number(r"and the filter's; an update per variable, three per layer\), (\d+) kernels") == kernels
    step32 = 32 / _published_rate(32)
    assert _number(r"(\d+\.\d+) ms at 1 µs") == pytest.approx(kernels * 1e-3, abs=0.005)
    assert _number(r"at 1 µs \((\d+\.\d+) % of the batch-32 step\)") == pytest.approx(
        100 * kernels * 1e-6 / step32, abs=0.05)
    assert _number(r"or (\d+\.\d+) ms at 5 µs") == pytest.approx(kernels * 5e-3, abs=0.05)
    assert _number(r"at 5 µs \((\d+\.\d+) %\)") == pytest.approx(100 * kernels * 5e-6 / step32, abs=0.05)


def test_the_fixed_cost_per_step_and_what_it_would_take_per_kernel():
    """t(b) = b x per-sample + fixed, through the published steps at batch 32 and 64."""
    step32, step64 = 32 / _published_rate(32), 64 / _published_rate(64)
    fixed = step32 - 32 * (step64 - step32) / 32
    assert _number(r"about (\d+) ms per\s+step") == pytest.approx(fixed * 1e3, abs=0.5)
    kernels = PER_LAYER * len(workload("resnet50").layers)
    assert _number(r"The 36 ms would need (\d+) µs per kernel") == pytest.approx(fixed / kernels * 1e6, abs=0.6)
