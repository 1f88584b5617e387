"""One synchronous training step of MultiWorkerMirroredStrategy on a simulated cluster: the
pure function behind lesson 06's RING/NCCL comparison and its classroom widget.

``cluster_step(workers, gpus_per_worker, network, implementation, params)`` builds the cluster
the launcher simulates (``sim.fabric.launch_machine``: one host of the preset per worker),
gives every replica the compute of one step on ``batch_per_replica`` examples of
``flops_per_example`` FLOPs each (forward and backward; the default is a ResNet-50: 25.6 M
parameters, about 4 GFLOP forward, so 12 GFLOP with the backward pass) at the device's float32
peak, then all-reduces the ``4 * params`` gradient bytes with sim.collectives' schedule replayed on
that machine. RING is TensorFlow's own ring: one ring, whose traffic between hosts leaves each
host through one network interface (``channels=1``); NCCL runs one ring per NIC of a node
(NCCL's channels). On CPUs NCCL falls back to RING, as in TensorFlow.
The widget (``widget()``) only redraws what this function returns.
"""
from __future__ import annotations

from dataclasses import dataclass

NETWORKS = ("dgx-a100", "dgx-h100", "workstation-4gpu", "cpu-cluster")
IMPLEMENTATIONS = {"RING": ("ring", {"channels": 1}), "NCCL": ("nccl", {})}


@dataclass(frozen=True)
class ClusterStep:
    """A step's timeline (one row per worker: its first device) and its parts, in seconds."""
    trace: list
    compute_seconds: float
    allreduce_seconds: float
    replicas: int
    device_type: str

    @property
    def step_seconds(self):
        return self.compute_seconds + self.allreduce_seconds


RESNET50_PARAMS = 25_600_000
RESNET50_FLOPS = 12e9


def cluster_step(workers=2, gpus_per_worker=4, network="dgx-a100", implementation="NCCL",
                 params=RESNET50_PARAMS, batch_per_replica=32, flops_per_example=RESNET50_FLOPS):
    """Simulate one step; see the module docstring."""
    from sim.collectives import build
    from sim.collectives.replay import replay
    from sim.des.trace import TraceEvent
    from sim.fabric.launch_machine import cluster_machine, local_devices

    if network not in NETWORKS:
        from sim.i18n import join_list, t
        raise ValueError(t("lesson06.unknown_network", network=network, choices=join_list(NETWORKS)))
    gpus = None if network == "cpu-cluster" else int(gpus_per_worker)
    machine = cluster_machine(network, int(workers), gpus)
    per_host = [local_devices(machine, host, gpus) for host in range(int(workers))]
    devices = [d for host in per_host for d in host]
    first = machine.device(devices[0])
    compute = flops_per_example * batch_per_replica / first.peak_flops["float32"]
    name = str(getattr(implementation, "name", implementation)).upper()
    if name not in IMPLEMENTATIONS:
        name = "RING"
    if first.device_type != "GPU":
        name = "RING"
    algorithm, options = IMPLEMENTATIONS[name]
    if len(devices) > 1:
        length = int(params)
        schedule = build(algorithm, len(devices), length, machine=machine, ranks=devices,
                         itemsize=4, **options)
        allreduce = float(replay(schedule, machine, 4 * length, devices))
    else:
        allreduce = 0.0
    trace = []
    for host in per_host:
        where = host[0]
        trace.append(TraceEvent("compute", "compute", where, 0.0, compute))
        if allreduce > 0:
            trace.append(TraceEvent("transfer", "CollectiveAllReduce", where, compute,
                                    compute + allreduce, nbytes=4.0 * params))
    return ClusterStep(trace, compute, allreduce, len(devices), first.device_type)


def summary(step, workers, gpus_per_worker, network, implementation):
    """One line in the course language: the set-up and the step's parts in milliseconds."""
    from sim.i18n import t
    return t("lesson06.step_summary", workers=workers,
             gpus=gpus_per_worker if step.device_type == "GPU" else 1,
             device=step.device_type, network=network, implementation=implementation,
             compute=step.compute_seconds * 1e3, allreduce=step.allreduce_seconds * 1e3,
             step=step.step_seconds * 1e3)


def short_title(network, implementation):
    """A panel title short enough for a grid of panels: the numbers go to ``summary``'s line."""
    return f"{network} · {implementation}"


def draw(step, ax=None, title=None):
    """The step's timeline (sim.course.plots.timeline)."""
    from sim.i18n import t
    from sim.course.plots.timeline import draw as draw_timeline
    fig = draw_timeline(step.trace, ax=ax, title=title)
    # One row per worker: its GPUs compute and all-reduce together (not "device / link" rows).
    ax = ax or fig.axes[0]
    ax.set_ylabel(t("lesson06.timeline_rows"))
    ax.set_yticks(ax.get_yticks(), [label.get_text().split("/")[0].replace(":", " ")
                                     for label in ax.get_yticklabels()])
    legend = ax.get_legend()                  # the step's transfers are its all-reduce
    if legend is not None:
        for text in legend.get_texts():
            if text.get_text() == t("timeline.transfer"):
                text.set_text(t("lesson06.timeline_allreduce"))
    return fig


def widget(params=RESNET50_PARAMS):
    """Sliders for workers and GPUs per worker, menus for the network and the implementation;
    each change redraws the timeline (needs ipywidgets and a live kernel)."""
    import ipywidgets as w
    import matplotlib.pyplot as plt

    from sim.i18n import t

    def show(workers, gpus_per_worker, network, implementation):
        step = cluster_step(workers, gpus_per_worker, network, implementation, params)
        # At most 8 rows: the figure (under the controls) stays inside a 1280x720 screen.
        fig, ax = plt.subplots(figsize=(10, 0.26 * max(3, workers) + 1.5), layout="constrained")
        draw(step, ax=ax, title=summary(step, workers, gpus_per_worker, network, implementation))
        plt.show()

    whole = {"description_width": "initial"}      # labels never cut off with "…"
    return w.interactive(
        show,
        workers=w.IntSlider(value=2, min=1, max=8, description=t("lesson06.w_workers"), style=whole),
        gpus_per_worker=w.IntSlider(value=4, min=1, max=8, description=t("lesson06.w_gpus"),
                                    style=whole),
        network=w.Dropdown(options=list(NETWORKS), value="dgx-a100",
                           description=t("lesson06.w_network"), style=whole),
        implementation=w.ToggleButtons(options=list(IMPLEMENTATIONS), value="NCCL",
                                       description=t("lesson06.w_implementation"), style=whole))
