"""What lesson 11's text says beyond its own printed numbers (those are its markdown claims,
tests/test_claims.py), recomputed with the library: the plan's order and the demo's best plan, so
a change to the step model (sim.scaleout) or to a recipe that breaks a sentence fails here."""
import pytest

from sim.course.plots.plan_view import plan_view
from sim.plan import RECIPES, grid, make_plan


@pytest.fixture(scope="module")
def section2():
    return make_plan("resnet50", RECIPES["goyal-sgd"], grid(("dgx1-p100",), (1, 2, 4, 8, 16, 32), ("10gbe", "edr-ib"),
                     strategies=("mirrored-nccl", "ps-sync", "ps-async"), batch_per_device=(32, 64)), price=2.0)


def test_no_parameter_server_sync_in_tf2(section2):
    names = {r.candidate.tf_name for r in section2.rows}
    assert "SyncReplicasOptimizer (TF1)" in names and "ParameterServerStrategy" in names
    assert all(not r.candidate.synchronous for r in section2.rows if r.candidate.tf_name == "ParameterServerStrategy")


def test_the_top_row_is_synchronous_and_within_the_recipe(section2):
    top = section2.rows[0]
    assert top.candidate.synchronous and top.status == "published" and top.candidate.update_batch <= 8192
    assert all(r.status == "not reached" for r in section2.rows if r.candidate.update_batch > 8192)


def test_demo_best_at_500_and_6_hours():
    view = plan_view(500, 6, "goyal-sgd")
    assert view["best"].candidate.devices == 128 and view["best"].candidate.network == "edr-ib"
    assert plan_view(250, 6, "goyal-sgd")["best"] is None
