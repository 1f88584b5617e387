"""docs/published_comparison.md's switch-congestion row is what the simulator computes: Horovod's
512 GPUs on 48-port leaves (8 x 100 GbE up), servers scattered, ECMP, over five placement seeds."""
from pathlib import Path

from sim.hardware import LeafSpine
from sim.scaleout.published import HOROVOD_512, simulated

DOC = (Path(__file__).resolve().parents[1] / "docs" / "published_comparison.md").read_text("utf-8")


def test_the_docs_scattered_ecmp_row():
    fabrics = [LeafSpine(48, 8, 1.5, placement="scattered", seed=s) for s in range(5)]
    vgg = [100 * simulated("vgg16", HOROVOD_512, fabric=f)["efficiency"] for f in fabrics]
    inception = 100 * simulated("inception_v3", HOROVOD_512, fabric=fabrics[0])["efficiency"]
    row = next(line.strip() for line in DOC.splitlines() if line.strip().startswith("| the same, servers scattered"))
    assert f"| {inception:.1f} |" in row and row.endswith(f"| {min(vgg):.1f}-{max(vgg):.1f} |")
    assert max(vgg) < 0.8 * 100 * simulated("vgg16", HOROVOD_512)["efficiency"]
