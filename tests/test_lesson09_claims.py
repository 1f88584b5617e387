"""Lesson 09 states facts about the simulator in prose; each one is checked here, so a change to
the model that makes a sentence of the lesson wrong fails a test instead of misleading a learner."""
import pytest

from sim.scaleout import scale, simulate_step
from sim.scaleout.ranks import ring_ranks
from sim.scaleout.sweep import cluster_of

pytestmark = pytest.mark.lesson09


def eff(model, machine, nodes, network=None, **options):
    return scale(model, machine, nodes=[nodes], network=network, **options)[0]["efficiency"]


def test_vgg16_scales_worse_than_inception_v3_because_its_communication_outlasts_backward():
    m = cluster_of("big-basin", 2, "25gbe")
    vgg = simulate_step("vgg16", m, ring_ranks(m), bucket_mb=64, overlap=False)
    inception = simulate_step("inception_v3", m, ring_ranks(m), bucket_mb=64, overlap=False)
    assert vgg.communication > vgg.backward and inception.communication < 0.3 * inception.backward
    for nodes in (2, 8, 32):
        assert eff("vgg16", "big-basin", nodes, "25gbe") < eff("inception_v3", "big-basin", nodes, "25gbe") - 0.1


def test_buckets_of_a_few_mb_beat_both_extremes_on_a_latency_bound_network():
    m = cluster_of("big-basin", 64, "10gbe")
    ranks = ring_ranks(m)
    step = {mb: simulate_step("resnet50", m, ranks, bucket_mb=mb).step_time for mb in (0, 4, 64, 256)}
    assert step[0] - step[4] > 0.03                   # "saves about 40 ms a step"
    assert step[4] < step[64] < step[256]            # then the lost overlap
    whole = simulate_step("resnet50", m, ranks, bucket_mb=256)
    assert whole.step_time == pytest.approx(whole.compute + whole.communication)


def test_resnet50_on_25gbe_drops_once_when_leaving_the_server_then_stays_flat():
    rows = scale("resnet50", "big-basin", nodes=[1, 2, 64], network="25gbe")
    one, two, many = (r["efficiency"] for r in rows)
    assert one - two > 0.04 and abs(two - many) < 0.01


def test_a_fixed_set_of_parameter_servers_collapses_where_all_reduce_holds():
    def at(nodes, **options):
        return eff("resnet50", "pascal-pcie-4gpu", nodes, "25gbe-roce", **options)
    assert at(16) > 0.9
    assert at(16, strategy="parameter-server", ps=1) < 0.1
    assert at(16, strategy="parameter-server", ps=4) < at(16, strategy="parameter-server", ps=16) < at(16)


def test_published_all_reduce_results_lie_below_the_perfect_overlap_bound():
    # Horovod's 512-GPU benchmark (90% Inception V3 and ResNet-101, 68% VGG-16): between the bounds
    for model, published in [("inception_v3", 0.90), ("resnet101", 0.90), ("vgg16", 0.68)]:
        off, on = (eff(model, "pascal-pcie-4gpu", 128, "25gbe-roce", strategy="horovod", overlap=o)
                   for o in (False, True))
        assert off < published < on
    # TensorFlow's DGX-1 page, VGG16 with NCCL on 8 GPUs: 1081 / (8 x 154) images/s
    assert 1081 / (8 * 154) < eff("vgg16", "dgx1-p100", 1, gpus=[8])
