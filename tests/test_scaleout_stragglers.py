"""Stragglers in `sim scale`: a synchronous step computes as long as the slowest GPU, E[max of N]
of each GPU's draw, 1 + m H_N for a compute of 1 + Exp(m) (scaling_and_staleness.md §1.2); one
GPU's rate, the efficiency's baseline, is its mean, 1 + m; an asynchronous worker waits for nobody."""
import pytest

from sim.cli.scale import main
from sim.des import ComputeTime
from sim.scaleout import scale, simulate_step
from sim.scaleout.ranks import ring_ranks
from sim.scaleout.sweep import cluster_of


def harmonic(n):
    return sum(1 / k for k in range(1, n + 1))


def test_a_synchronous_step_computes_as_long_as_the_slowest_of_its_gpus():
    m, spread = cluster_of("pascal-pcie-4gpu", 8, "25gbe-roce"), 0.05
    ranks = ring_ranks(m)
    same = simulate_step("resnet50", m, ranks, overlap=False)
    slow = simulate_step("resnet50", m, ranks, overlap=False, stragglers=ComputeTime(fixed=1, exponential=spread))
    n = len(ranks)
    assert slow.forward + slow.backward == pytest.approx((same.forward + same.backward) * (1 + spread * harmonic(n)), rel=1e-3)
    assert slow.compute_alone == pytest.approx(same.compute_alone * (1 + spread), rel=1e-9)
    assert slow.straggling == pytest.approx((1 + spread * harmonic(n)) / (1 + spread), rel=1e-3)
    assert slow.communication == pytest.approx(same.communication)


def test_the_efficiency_falls_by_the_order_statistics_and_one_gpu_is_unchanged():
    spread = ComputeTime(fixed=1, exponential=0.02)
    one, many = scale("resnet50", "pascal-pcie-4gpu", nodes=[1, 64], network="25gbe-roce", gpus=[1, 4])[::3]
    one_s, many_s = scale("resnet50", "pascal-pcie-4gpu", nodes=[1, 64], network="25gbe-roce", gpus=[1, 4],
                          stragglers=spread)[::3]
    assert one_s["devices"] == 1 and one_s["efficiency"] == pytest.approx(one["efficiency"])
    n = many["devices"]
    # compute x E[max]/E[X], communication the same or better hidden behind the longer compute
    naive = many["efficiency"] * 1.02 / (1 + 0.02 * harmonic(n))
    assert naive * (1 - 1e-3) <= many_s["efficiency"] < many["efficiency"] - 0.05
    assert any(key == "stragglers" for key, _ in many_s["mechanisms"])


def test_an_asynchronous_worker_waits_for_nobody():
    m = cluster_of("pascal-pcie-4gpu", 4, "25gbe-roce")
    step = simulate_step("resnet50", m, ring_ranks(m), strategy="parameter-server", ps=4, sync=False,
                         stragglers=ComputeTime(fixed=1, exponential=0.1))
    assert step.straggling == 1.0


def test_the_flag_reaches_the_rows_and_bad_values_are_one_line(capsys):
    assert main(["--model", "resnet50", "--machine", "pascal-pcie-4gpu", "--network", "25gbe-roce",
                 "--nodes", "1,32", "--straggler-spread", "0.015"]) == 0
    out = capsys.readouterr().out
    assert "stragglers: compute x1." in out and "(the slowest of 128)" in out
    for bad in ("-0.1", "2", "nan"):
        assert main(["--straggler-spread", bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--straggler-spread" in err[0] and "1" in err[0], err
