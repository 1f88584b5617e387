"""Variables on the CPU (CentralStorageStrategy, parameter servers): the weights each GPU reads
in the forward pass, over its own PCIe path.

Where the variables live and how they move, from the frameworks' source:

* tf_cnn_benchmarks' ``parameter_server`` with ``--local_parameter_device=cpu``
  (``tensorflow/benchmarks`` ``scripts/tf_cnn_benchmarks/variable_mgr.py``
  ``VariableMgrLocalFetchFromPS``: "For each step, each tower gets a copy of the variables from the
  parameter server, and sends its gradients to the param server"; ``replica_device_setter`` puts
  every variable on the CPU) and TF2's CentralStorageStrategy (variables on the CPU, computation
  on the GPUs) read each variable where a layer uses it. A variable read has no input in the
  step's graph, so the executor issues every copy at the step's start; a layer's forward waits
  for its own weights. Here the copies go in forward order, one layer after another, every GPU at
  once over the machine's links (``sim.des``: GPUs under one PCIe switch share its uplink; on a
  DGX-1 GPUs 4-7 also cross QPI to socket 0's memory), so

      read_k = sum of the copy times of layers 0..k,   forward_end_k = max(forward_end_{k-1}, read_k) + f_k

* The gradients go back to the CPU and are summed there (``sim.scaleout.comm``: copies, then the
  CPU reads ``p`` copies and writes one at its memory bandwidth) per pack, when
  ``sim.scaleout.reduction`` says; the update's new weights are what the next step's reads get,
  so nothing is copied back at the end of a step.
"""
from __future__ import annotations

from sim.des.trace import TraceEvent


def uses_cpu_variables(comm) -> bool:
    return comm.strategy in ("central-storage", "parameter-server")


def forward_with_reads(model, comm, seconds: tuple, alone: bool = False):
    """The end of the forward pass when each layer waits for its weights, the forward pass's
    compute alone (the same sum, nothing to wait for), and the trace events.

    ``seconds``: each layer's forward time on one GPU (``sim.workloads.roofline``); ``alone``: one
    worker reads with nobody else on the links (asynchronous parameter servers)."""
    where = comm.ranks[0].short_name
    read = done = alone_end = 0.0
    events = []
    for k, layer in enumerate(model.layers):
        if layer.gradient_bytes:
            copy = comm.read_seconds(layer.gradient_bytes, alone)
            events.append(TraceEvent("transfer", f"read {layer.name}", "cpu→" + where, read,
                                     read + copy, nbytes=layer.gradient_bytes))
            read += copy
        begin = max(done, read)
        done = begin + seconds[k]
        alone_end += seconds[k]
        events.append(TraceEvent("compute", f"forward {layer.name}", where, begin, done))
    return done, alone_end, events
