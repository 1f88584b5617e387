"""``all_reduce``: what strategies call. One schedule: summed on the arrays, timed on the machine."""
from __future__ import annotations

from typing import Sequence

from sim.i18n import t

from .algorithms import build
from .executor import execute, stack_inputs


def all_reduce(arrays: Sequence, algorithm: str = "nccl", machine=None, devices=None, *,
               gamma: float = 0.0, simulator=None, **options):
    """Sum ``arrays`` (one per device) with ``algorithm``; return ``(results, seconds)``.

    ``machine`` (a Machine or preset name; default: ``sim.runtime.current_machine()`` when it
    exists, else the course's default preset) and ``devices`` (names or Devices, one per array;
    default: the machine's first GPUs) place the ranks. ``seconds`` is the simulated time.
    """
    if isinstance(arrays, (str, bytes)):
        raise TypeError(t("misuse.allreduce_arrays_text", got=repr(arrays)[:40]))
    buf, shape, dtype = stack_inputs(arrays)
    p, length = buf.shape
    if machine is None:
        try:
            from sim.runtime import current_machine
            machine = current_machine()
        except ImportError:
            machine = "workstation-4gpu"
    from sim.hardware import as_machine
    machine = as_machine(machine)
    from .replay import replay, resolve_ranks

    _check_placement(machine, devices, p)
    ranks = resolve_ranks(machine, devices, p)
    schedule = build(algorithm, p, length, machine=machine, ranks=ranks, itemsize=dtype.itemsize, **options)
    results = execute(schedule, arrays)
    seconds = replay(schedule, machine, length * dtype.itemsize, ranks, gamma=gamma, simulator=simulator)
    return results, seconds


def _check_placement(machine, devices, p):
    """One array per device, each device once: a clear error before any schedule is built."""
    if devices is None:
        from .replay import default_ranks
        available = len(default_ranks(machine))
        if p > available:
            raise ValueError(t("misuse.allreduce_too_many_arrays", arrays=p, devices=available,
                               machine=machine.name))
        return
    devices = [devices] if isinstance(devices, str) else list(devices)
    names = [getattr(machine.device(d), "name", d) for d in devices]
    seen = set()
    for given, name in zip(devices, names):
        if name in seen:
            raise ValueError(t("misuse.allreduce_duplicate_device", device=given,
                               devices=", ".join(map(str, devices))))
        seen.add(name)
    if len(devices) != p:
        raise ValueError(t("misuse.allreduce_arrays_vs_devices", arrays=p, devices=len(devices)))
