"""Which mechanisms shaped a simulated step, for the CLI's table and the trace: when the gradients
were reduced (``sim.scaleout.reduction``), what carried them (the collective and its choice, the
variables' PCIe path), which transport (RDMA or TCP, ``sim.hardware.networks``), and how much of
the communication the backward pass hid.

``mechanisms_of(step, comm)`` gives ``(key, fields)`` pairs; ``describe(mechanisms)`` writes them in
the course language (``scale.mech_<key>`` in the catalogue).
"""
from __future__ import annotations

from sim.i18n import t

from . import reduction as R


def mechanisms_of(step, comm) -> tuple:
    out = []
    policy = step.reduction
    if policy.when == R.HOROVOD:
        from .horovod import negotiation_seconds
        out.append(("horovod", {"cycle": policy.cycle_ms, "fusion": policy.bucket_mb,
                                "negotiate": negotiation_seconds(comm.machine, comm.ranks,
                                                                 policy.negotiation) * 1e6}))
    elif policy.when == R.PER_PACK:
        whole = sum(b for b, *_ in step.buckets) / 2**20
        mb = whole if policy.bucket_mb is None else policy.bucket_mb
        out.append(("per_pack", {"mb": mb}) if mb > 0 else ("per_tensor", {}))
    else:
        out.append(("after_backward", {"packs": len(step.buckets)}))
    if comm.strategy in ("central-storage", "parameter-server"):
        out.append(("cpu_variables", {"tasks": comm.ps if comm.strategy == "parameter-server" else 1}))
    elif comm.choices:
        algorithm, protocol, channels = comm.choices[max(comm.choices)]
        out.append(("collective", {"algorithm": algorithm + (f"/{protocol}" if protocol else ""),
                                   "channels": channels}))
    net = getattr(comm.machine, "network", None)
    hosts = len({r.host for r in comm.ranks})
    if net is not None and hosts > 1:
        out.append(("transport", {"network": net.name, "transport": net.transport.upper(),
                                  "gbps": net.bandwidth * 8 / 1e9, "us": net.latency * 1e6}))
        if getattr(net, "cpu_bound", False):
            out.append(("socket_path", {"threads": net.socket_threads}))
        fabric = getattr(comm.machine, "fabric", None)
        if fabric is not None:
            out.append(("leaf_spine", {"leaves": len(comm.machine.spine_links), "spines": fabric.spines,
                                       "routing": comm.machine.rule, "placement": fabric.placement,
                                       "over": fabric.oversubscription}))
            rails = len(comm.machine.port_leaf[0])
            if fabric.wiring == "rail" and rails > 1:
                out.append(("rails", {"rails": rails}))
    else:
        out.append(("one_node", {}))
    if step.slowed > 0:
        out.append(("contention", {"ms": step.slowed * 1e3}))
    if getattr(step, "straggling", 1.0) > 1.0:
        out.append(("stragglers", {"factor": step.straggling, "workers": len(comm.ranks)}))
    if step.communication > 0:
        hidden = (step.compute_alone + step.communication - step.step_time) / step.communication
        out.append(("hidden", {"fraction": max(0.0, min(1.0, hidden))}))
    return tuple(out)


def describe(mechanisms) -> str:
    """One line, in the course language: the mechanisms separated by semicolons (zh: ；)."""
    return t("scale.mech_separator").join(t(f"scale.mech_{key}", **fields) for key, fields in mechanisms)
