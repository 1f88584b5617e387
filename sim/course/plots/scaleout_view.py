"""The classroom demo's logic: a scaling curve and the timeline of one step, for a model, a
network, a largest cluster and a bucket size. ``scaling_view`` is the plain function tests and the
static figure call; ``scaling_widget`` is a thin ipywidgets layer over it."""
from __future__ import annotations

from sim.i18n import t

MODELS = ("resnet50", "inception_v3", "vgg16", "bert_base", "alexnet")
NETWORKS = ("10gbe", "25gbe", "50gbe", "edr-ib", "hdr-ib")


def scaling_view(model: str = "resnet50", machine: str = "big-basin", network: str = "25gbe",
                 nodes: int = 8, bucket_mb: float = 64, strategy: str = "nccl") -> dict:
    """Rows for 1, 2, 4, ... ``nodes`` nodes and the step of the largest (for its timeline)."""
    from sim.scaleout.sweep import scale
    sizes = [1]
    while sizes[-1] * 2 <= nodes:
        sizes.append(sizes[-1] * 2)
    if sizes[-1] != nodes:
        sizes.append(nodes)
    rows = scale(model, machine, nodes=sizes, network=network, strategy=strategy,
                 bucket_mb=bucket_mb, keep_steps=True)
    step = rows[-1].pop("step")
    for r in rows:
        r.pop("step", None)
    title = t("scale.plot_title", model=model, machine=machine, network=network)
    return {"rows": rows, "step": step, "title": title}


def draw_view(view: dict):
    """The two pictures side by side: the curve and the largest cluster's step."""
    import matplotlib.pyplot as plt
    from sim.course.plots.scaleout import draw_scaling, draw_step
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2), layout="constrained")
    draw_scaling(view["rows"], ax=left, title=view["title"])
    draw_step(view["step"], ax=right, title=t("scale.step_title", devices=view["step"].devices))
    return fig


def scaling_widget():
    """ipywidgets controls (model, network, nodes, bucket size) that redraw both pictures."""
    import ipywidgets as W
    import matplotlib.pyplot as plt
    whole = {"description_width": "initial"}      # labels in the course language, never cut off
    model = W.Dropdown(options=MODELS, value="resnet50", description=t("scale.widget_model"),
                       style=whole)
    network = W.Dropdown(options=NETWORKS, value="25gbe", description=t("scale.widget_network"),
                         style=whole)
    nodes = W.SelectionSlider(options=[1, 2, 4, 8, 16, 32], value=8,
                              description=t("scale.widget_nodes"), style=whole)
    bucket = W.SelectionSlider(options=[0, 1, 4, 16, 64, 256, 1024], value=64,
                               description=t("scale.widget_bucket"), style=whole)
    out = W.Output()

    def redraw(*_):
        with out:
            out.clear_output(wait=True)
            draw_view(scaling_view(model.value, "big-basin", network.value, nodes.value, bucket.value))
            plt.show()

    for w in (model, network, nodes, bucket):
        w.observe(redraw, names="value")
    redraw()
    return W.VBox([W.HBox([model, network]), W.HBox([nodes, bucket]), out])
