"""The layers of sim (docs/architecture.md): no package imports from a layer above its own, every
package of sim/ has a layer, and docs/layers.md is the picture today's imports give."""
from tools import import_graph as g


def test_no_package_imports_from_a_layer_above_its_own():
    assert g.violations(g.layers(), g.edges()) == []


def test_every_package_of_sim_has_a_layer():
    placed = {name for layer in g.layers() for name in layer}
    assert set(g.packages()) - placed == set()


def test_the_check_catches_an_upward_import():
    """The same check on a made-up import of the course by the engine."""
    order = g.layers()
    rank = {name: i + 1 for i, layer in enumerate(order) for name in layer}
    found = dict(g.edges())
    found[("engine", "course")] = {"sim.engine.tensor"}
    assert g.violations(order, found) == [
        f"sim.engine.tensor (layer {rank['engine']}, engine) imports sim.course (layer {rank['course']})"]


def test_a_lazy_import_inside_a_function_counts(tmp_path):
    module = tmp_path / "sim" / "engine" / "tensor.py"
    module.parent.mkdir(parents=True)
    module.write_text("def f():\n    from sim.course.plots import timeline\n")
    assert ("engine", "course") in g.edges(tmp_path)


def test_the_picture_of_the_layers_is_current():
    assert g.PICTURE.read_text("utf-8") == g.picture(g.layers(), g.edges()), \
        "docs/layers.md is stale: run python -m tools.import_graph"
