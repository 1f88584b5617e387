"""The classroom demo's pure function: one MWMS step on a simulated cluster (compute + all-reduce)."""
import matplotlib
import pytest

matplotlib.use("Agg")

from sim import i18n  # noqa: E402
from sim.hardware import network  # noqa: E402
from sim.course.plots.cluster_step import (RESNET50_FLOPS, RESNET50_PARAMS, cluster_step, draw,  # noqa: E402
                                    summary, widget)


def test_compute_is_the_examples_flops_at_the_device_peak():
    from sim.hardware import devices as D
    step = cluster_step(2, 4, "dgx-a100", "NCCL")
    assert step.compute_seconds == pytest.approx(RESNET50_FLOPS * 32 / D.A100_SXM4.peak_flops["float32"])
    assert step.replicas == 8 and step.device_type == "GPU"


def test_one_10gbe_link_bounds_the_workstation_ring():
    """Closed form: a ring over p ranks moves 2(p-1)/p of the buffer across each host boundary,
    at TCP's goodput of the 10 GbE port (sim.hardware.networks)."""
    step = cluster_step(2, 4, "workstation-4gpu", "RING")
    p, nbytes = 8, 4 * RESNET50_PARAMS
    ten_gbe = network("10gbe")
    bound = 2 * (p - 1) / p * nbytes / (ten_gbe.line_rate * ten_gbe.fraction)
    assert bound <= step.allreduce_seconds <= bound * 1.02


def test_nccl_channels_beat_the_single_ring_only_where_there_are_many_nics():
    ring, nccl = (cluster_step(2, 4, "dgx-a100", impl) for impl in ("RING", "NCCL"))
    assert nccl.allreduce_seconds < ring.allreduce_seconds / 3
    assert nccl.compute_seconds == ring.compute_seconds
    ws_ring, ws_nccl = (cluster_step(2, 4, "workstation-4gpu", impl) for impl in ("RING", "NCCL"))
    assert ws_ring.allreduce_seconds == pytest.approx(ws_nccl.allreduce_seconds)


def test_cpus_fall_back_to_ring_and_one_device_has_nothing_to_reduce():
    cpu = [cluster_step(2, 4, "cpu-cluster", impl) for impl in ("RING", "NCCL")]
    assert cpu[0].device_type == "CPU" and cpu[0].allreduce_seconds == cpu[1].allreduce_seconds
    alone = cluster_step(1, 1, "dgx-a100", "NCCL")
    assert alone.allreduce_seconds == 0.0 and [e.kind for e in alone.trace] == ["compute"]


def test_trace_has_one_row_per_worker_and_the_all_reduce_after_compute():
    step = cluster_step(3, 2, "dgx-h100", "NCCL")
    rows = sorted({e.where for e in step.trace})
    assert len(rows) == 3 and all("GPU:0" in r for r in rows)
    for e in step.trace:
        if e.name == "CollectiveAllReduce":
            assert e.start == pytest.approx(step.compute_seconds)
            assert e.end == pytest.approx(step.step_seconds)


def test_summary_and_errors_speak_the_course_language():
    step = cluster_step(2, 4, "dgx-a100", "NCCL")
    assert summary(step, 2, 4, "dgx-a100", "NCCL").startswith("2 workers × 4 GPUs, dgx-a100, NCCL")
    i18n.set_language("zh")
    try:
        assert "全归约" in summary(step, 2, 4, "dgx-a100", "NCCL")
        with pytest.raises(ValueError, match="网络只能是"):
            cluster_step(2, 4, "infiniband", "NCCL")
    finally:
        i18n.set_language("en")


def test_draw_and_widget_build():
    import matplotlib.pyplot as plt
    fig = draw(cluster_step(2, 2, "dgx-a100", "RING"))
    assert len(fig.axes[0].get_yticklabels()) == 2
    plt.close("all")
    ui = widget()
    names = [c.description for c in ui.children[:4]]
    assert names == ["workers", "GPUs per worker", "machine", "all-reduce"]
    plt.close("all")
