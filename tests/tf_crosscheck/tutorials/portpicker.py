"""A stand-in for the ``portpicker`` package the parameter-server tutorial pip-installs (not in
this project's venvs), shared by both engines: ``pick_unused_port()`` asks the OS for a free
loopback port, as portpicker does."""
from __future__ import annotations

import socket


def pick_unused_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]
