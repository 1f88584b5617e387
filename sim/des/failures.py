"""Failures: a device or a whole host goes down at a simulated time.

What was running on it fails: its queued and running compute tasks, and the transfers whose
route touches it (a dead host takes its switches and NICs with it). Their SimPy events fail
with ``DeviceFailure``; a process that waits on one can catch it, like a TensorFlow program
catching ``tf.errors.UnavailableError`` when a worker is lost. Work submitted later to a dead
device fails at once.
"""
from __future__ import annotations

from dataclasses import dataclass

from sim.i18n import t


class DeviceFailure(RuntimeError):
    """The device (or host) that this work ran on went down."""


@dataclass(frozen=True)
class Failure:
    """``device`` (a name) or ``host`` (a task index) goes down at time ``at`` (seconds)."""

    at: float
    device: object = None
    host: int | None = None

    def __post_init__(self):
        if (self.device is None) == (self.host is None):
            raise ValueError(t("des.failure_target"))
        if not (isinstance(self.at, (int, float)) and self.at >= 0):
            raise ValueError(t("des.failure_time", value=self.at))


def failed_nodes(machine, failure: Failure) -> tuple[list, set]:
    """The devices and graph nodes that ``failure`` takes down."""
    if failure.device is not None:
        dev = machine.device(failure.device)
        return [dev], {dev.name}
    if failure.host not in machine.hosts:
        raise ValueError(t("des.unknown_host", host=failure.host, machine=machine.name,
                           known=", ".join(map(str, machine.hosts))))
    devs = [d for d in machine.devices if d.host == failure.host]
    nodes = {n.id for n in machine.nodes.values() if n.host == failure.host}
    return devs, nodes
