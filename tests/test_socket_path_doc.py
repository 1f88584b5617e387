"""docs/published_comparison.md's socket-path arithmetic is what the simulator computes: VGG-16's
RDMA / TCP ratio at 512 GPUs for one row of its table (one TCP connection's rate, the latency)."""
import re
from dataclasses import replace
from pathlib import Path

import pytest

from sim.hardware.networks import network
from sim.scaleout.published import HOROVOD_512, simulated

DOC = (Path(__file__).resolve().parents[1] / "docs" / "published_comparison.md").read_text("utf-8")


@pytest.mark.parametrize("gbps, us", [(18, 6), (10, 25)])
def test_the_docs_vgg16_ratio_for_a_capped_connection(gbps, us):
    row = re.search(rf"^  \| {gbps} Gb/s \| {us} µs \| ([0-9.]+) \|", DOC, re.M)
    assert row, f"no row for {gbps} Gb/s, {us} µs in the doc's socket-path table"
    net = replace(network("25gbe").with_socket_path(gbps), latency=us * 1e-6)
    ratio = simulated("vgg16", HOROVOD_512)["samples_per_s"] / \
        simulated("vgg16", HOROVOD_512, network=net)["samples_per_s"]
    assert ratio == pytest.approx(float(row.group(1)), abs=0.006)
