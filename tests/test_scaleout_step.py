"""The simulated data-parallel step: the issue's "Done when" physics, against sim.collectives."""
import pytest

from sim.collectives.compare import time_one
from sim.hardware import cluster, preset
from sim.scaleout import Communicator, buckets, scale, simulate_step
from sim.scaleout.comm import call_latency
from sim.scaleout.ranks import ring_ranks
from sim.workloads import workload
from sim.workloads.base import Layer, Workload

MB = 2**20


@pytest.fixture(scope="module")
def two_dgx1():
    m = cluster("dgx1-p100", 2, "25gbe")
    return m, ring_ranks(m)


def test_buckets_cover_every_gradient_once_in_backward_order():
    w = workload("resnet50")
    got = buckets(w, 4 * MB)
    names = [n for b in got for n in b.layers]
    assert names == [l.name for l in w.backward_order() if l.params]
    assert sum(b.nbytes for b in got) == w.gradient_bytes
    assert all(b.nbytes >= 4 * MB for b in got[:-1])
    assert len(buckets(w, 0)) == sum(1 for l in w.layers if l.params)
    assert len(buckets(w, 10 * w.gradient_bytes)) == 1


@pytest.mark.parametrize("strategy", ["ring", "nccl", "hierarchical"])
def test_overlap_off_is_compute_plus_the_bucket_allreduces_of_sim_collectives(two_dgx1, strategy):
    m, ranks = two_dgx1
    step = simulate_step("resnet50", m, ranks, strategy, bucket_mb=16, overlap=False)
    comm = Communicator(m, ranks, strategy)
    packs = buckets(workload("resnet50"), 16 * MB)
    allreduces = sum(time_one(strategy, m, b.nbytes, devices=ranks)["time_us"] * 1e-6 for b in packs)
    calls = sum(call_latency(*_choice(comm, b.nbytes)[:2]) for b in packs)   # NCCL's base latency
    assert calls > 0
    assert step.step_time == pytest.approx(step.compute + allreduces + calls, rel=1e-9)
    assert allreduces > 0.01 * step.compute            # the network costs something here


@pytest.mark.parametrize("model", ["resnet50", "vgg16", "bert_base"])
@pytest.mark.parametrize("bucket_mb", [0, 4, 64, 1024])
def test_overlap_never_slower_and_never_below_the_larger_part(two_dgx1, model, bucket_mb):
    m, ranks = two_dgx1
    comm = Communicator(m, ranks, "nccl")
    on = simulate_step(model, m, ranks, bucket_mb=bucket_mb, communicator=comm)
    off = simulate_step(model, m, ranks, bucket_mb=bucket_mb, overlap=False, communicator=comm)
    assert on.step_time <= off.step_time + 1e-12
    assert on.step_time >= max(on.compute, on.communication) - 1e-12
    assert off.communication == pytest.approx(on.communication)


def test_efficiency_falls_with_slower_networks():
    eff = [scale("resnet50", "dgx1-p100", nodes=[4], network=net, bucket_mb=16)[0]["efficiency"]
           for net in ("edr-ib", "25gbe", "10gbe")]
    assert 1.0 >= eff[0] > eff[1] > eff[2]


def _synthetic(params_per_layer: int, layers: int = 20, flops: float = 2e9) -> Workload:
    return Workload("synthetic", "resnet",
                    tuple(Layer(f"l{i}", params_per_layer, flops, 2 * flops) for i in range(layers)),
                    "synthetic", "test")


def test_efficiency_falls_with_more_parameters_per_flop():
    eff = [scale(_synthetic(p, flops=2e8), "dgx1-p100", nodes=[4], network="10gbe", bucket_mb=4)[0]["efficiency"]
           for p in (10**5, 10**6, 10**7)]
    assert eff[0] > eff[1] > eff[2]
    assert eff[2] < 0.9


@pytest.mark.parametrize("strategy", ["ring", "nccl", "horovod", "parameter-server", "central-storage"])
def test_a_model_without_parameters_scales_perfectly(strategy):
    rows = scale(_synthetic(0), "dgx1-p100", nodes=[1, 4], network="10gbe", strategy=strategy)
    for row in rows:
        assert row["efficiency"] == 1.0 and row["communication_ms"] == 0.0


def test_larger_buckets_help_on_a_latency_bound_network():
    # Many tiny gradients on TCP (25 µs a message): fusing them saves the per-message latencies.
    m = cluster("dgx1-p100", 4, "10gbe")
    ranks = ring_ranks(m)
    tiny = _synthetic(2_000, layers=200, flops=1e6)
    comm = Communicator(m, ranks, "ring")
    per_layer = simulate_step(tiny, m, ranks, bucket_mb=0, overlap=False, communicator=comm)
    fused = simulate_step(tiny, m, ranks, bucket_mb=1, overlap=False, communicator=comm)
    assert fused.communication < 0.5 * per_layer.communication


def test_a_bucket_as_large_as_the_model_loses_the_overlap(two_dgx1):
    m, ranks = two_dgx1
    comm = Communicator(m, ranks, "nccl")
    w = workload("vgg16")
    small = simulate_step(w, m, ranks, bucket_mb=25, communicator=comm)
    whole = simulate_step(w, m, ranks, bucket_mb=w.gradient_bytes / MB, communicator=comm)
    assert len(whole.buckets) == 1
    assert whole.step_time == pytest.approx(whole.compute + whole.communication)
    assert whole.step_time > small.step_time


def test_parameter_servers_async_is_faster_but_stale():
    m = cluster("pascal-pcie-4gpu", 2, "10gbe")
    ranks = ring_ranks(m)
    sync = simulate_step("resnet50", m, ranks, "parameter-server", ps=2, bucket_mb=16)
    asyn = simulate_step("resnet50", m, ranks, "parameter-server", ps=2, bucket_mb=16, sync=False)
    assert asyn.step_time <= sync.step_time and asyn.staleness == len(ranks) - 1
    more = simulate_step("resnet50", m, ranks, "parameter-server", ps=4, bucket_mb=16)
    assert sync.staleness == 0 and more.communication <= sync.communication * 1.001


def test_unknown_strategy_is_named():
    m = preset("dgx1-p100")
    with pytest.raises(ValueError, match="parameter-server"):
        Communicator(m, m.gpus, "allgather")


def test_ring_order_follows_the_cube_mesh_nvlinks():
    m = preset("dgx1-p100")
    order = ring_ranks(m)
    kinds = {(l.a, l.b): l.kind for l in m.links} | {(l.b, l.a): l.kind for l in m.links}
    assert all(kinds.get((a.name, b.name)) == "nvlink" for a, b in zip(order, order[1:] + order[:1]))


def test_timeline_events_of_one_step(two_dgx1):
    m, ranks = two_dgx1
    step = simulate_step("resnet50", m, ranks, bucket_mb=16)
    kinds = {e.kind for e in step.events}
    assert kinds == {"compute", "transfer"}
    assert max(e.end for e in step.events) == pytest.approx(step.step_time)
    import matplotlib
    matplotlib.use("Agg")
    from sim.course.plots.timeline import draw
    assert draw(step.events) is not None


def test_the_demo_view_sweeps_powers_of_two_and_keeps_the_largest_step():
    import matplotlib
    matplotlib.use("Agg")
    from sim.course.plots.scaleout_view import draw_view, scaling_view
    view = scaling_view("resnet50", "big-basin", "10gbe", nodes=3, bucket_mb=16)
    assert [r["nodes"] for r in view["rows"]] == [1, 2, 3]
    assert view["step"].devices == 24 and "step" not in view["rows"][-1]
    assert view["step"].step_time * 1e3 == view["rows"][-1]["step_time_ms"]
    assert len(draw_view(view).axes) == 2


@pytest.mark.parametrize("kwargs,needle", [
    ({"gpus": [16]}, "--gpus 16"), ({"gpus": [0]}, "--gpus 0"), ({"batch_per_device": 0}, "batch"),
    ({"bucket_mb": -1}, "bucket"), ({"ps": 0}, "--ps"), ({"nodes": [0]}, "nodes")])
def test_scale_names_a_bad_argument_before_simulating(kwargs, needle):
    args = {"nodes": [1]} | kwargs
    with pytest.raises(ValueError, match=needle):
        scale("resnet50", "dgx1-p100", **args)


def _choice(comm, nbytes):
    comm.seconds(nbytes)                       # the collective NCCL (or the strategy) chose
    return comm.choices[nbytes]
