"""A stand-in for the ``portpicker`` package the parameter-server tutorial pip-installs (not in
this project's venvs), shared by both engines: ``pick_unused_port()`` gives a free loopback port,
as portpicker does, drawn from below the ephemeral range so that no outgoing connection of
another test takes it before the tutorial's server listens on it."""
from __future__ import annotations

from sim.launch.free_ports import free_ports


def pick_unused_port():
    return free_ports(1)[0]
