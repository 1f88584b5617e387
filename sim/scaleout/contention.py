"""Compute slowed by the collectives that overlap it: NCCL's kernels occupy streaming
multiprocessors (SMs) that backprop's kernels then cannot use.

NCCL launches one CUDA block per channel (``NVIDIA/nccl`` ``src/enqueue.cc``: ``dim3 grid =
{(unsigned)nChannels, 1, 1}``), and a block stays resident on its SM for the whole collective,
so while a collective of ``c`` channels runs, backprop has ``SMs - c`` of the GPU's SMs: its
compute-bound kernels run at ``1 - c / SMs`` of their speed.

NCCL's kernels also read and write the GPU's memory. Counted from the ring all-reduce of
``NVIDIA/nccl`` ``src/device/all_reduce.h`` (``runRing``: one ``directSend``, ``p - 2``
``directRecvReduceDirectSend``, one ``directRecvReduceCopyDirectSend``, ``p - 2``
``directRecvCopyDirectSend``, a final ``directRecv``, each on a chunk of ``S / p``), a rank reads
its whole input once (``S``), writes its whole output once (``S``), and reads ``2 (p - 1)`` chunks
from its receive buffer that its neighbour (or the NIC) wrote there: ``hbm_bytes = (2 + 4 (p - 1)
/ p) S``. Over the collective's ``T`` seconds that is ``hbm_bytes / (T x bandwidth)`` of the GPU's
memory bandwidth, which backprop's memory-bound kernels (batch norm, activations: the roofline's
``memory_bound`` share ``m``) lose. The slowdown of compute overlapping a collective is
``(1 - m) x c / SMs + m x hbm share``. Copies to and from the CPU (central storage, parameter
servers) run on the GPU's copy engines (``cudaMemcpyAsync``): no SM, and their PCIe rate is far
below the memory's, so no slowdown is counted there.

SMs per GPU, from NVIDIA's architecture whitepapers: P100 (GP100) 56, V100 (GV100) 80, A100
108, H100 SXM5 132. The channels ``c`` are those of the simulated schedule
(``sim.collectives``: one per NIC across nodes, one on a node).

``stretch(forward, backward_end, rows, shares)`` gives the new end of backward: with every
communication interval kept where the unslowed schedule put it (stated approximation: the later
ready times it would shift are not moved), backward lasts longer by ``share x`` the time each
interval overlaps it, found by fixed-point iteration (a contraction, since every share is < 1).
A single interval inside backward gives exactly ``backward_end + share x (end - start)``.
"""
from __future__ import annotations

SMS = {"P100": 56, "V100": 80, "A100": 108, "H100": 132}


def sms_of(device) -> int | None:
    model = str(getattr(device, "model", ""))
    return next((n for name, n in SMS.items() if name in model), None)


def sm_share(comm, nbytes: int) -> float:
    """The fraction of a GPU's SMs the collective for ``nbytes`` takes (0 for CPU copies)."""
    if comm.strategy in ("central-storage", "parameter-server") or nbytes not in comm.choices:
        return 0.0
    sms = sms_of(comm.ranks[0])
    return min(0.5, comm.choices[nbytes][2] / sms) if sms else 0.0


def hbm_bytes(nbytes: float, p: int) -> float:
    """Bytes a ring all-reduce of ``nbytes`` over ``p`` ranks moves through each rank's memory."""
    return (2 + 4 * (p - 1) / p) * nbytes if p > 1 else 0.0


def hbm_share(comm, nbytes: int, seconds: float) -> float:
    """The fraction of a GPU's memory bandwidth the collective for ``nbytes`` takes over ``seconds``."""
    if comm.strategy in ("central-storage", "parameter-server") or seconds <= 0:
        return 0.0
    gpu = comm.ranks[0]
    return min(0.5, hbm_bytes(nbytes, len(comm.ranks)) / (seconds * gpu.memory_bandwidth))


def slowdown(comm, nbytes: int, seconds: float, memory_bound: float) -> float:
    """Compute lost per second of overlap: SMs for its compute-bound part, memory for the rest."""
    return (1 - memory_bound) * sm_share(comm, nbytes) + memory_bound * hbm_share(comm, nbytes, seconds)


def _overlap(a: float, b: float, lo: float, hi: float) -> float:
    return max(0.0, min(b, hi) - max(a, lo))


def stretch(forward: float, backward_end: float, rows: list, shares: list, rounds: int = 50) -> float:
    """The end of backward when it is slowed by ``shares[k]`` during each ``rows[k]`` interval."""
    end = backward_end
    for _ in range(rounds):
        new = backward_end + sum(s * _overlap(start, stop, forward, end)
                                 for (_, _, start, stop), s in zip(rows, shares))
        if abs(new - end) <= 1e-15 * max(1.0, new):
            return new
        end = new
    return end
