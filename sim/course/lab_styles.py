"""A Jupyter server extension of the course: JupyterLab loads the course's styles and font.

JupyterLab links ``/custom/custom.css`` when custom CSS is on, and Jupyter serves that folder from
the user's ``~/.jupyter/custom`` only (not a setting). ``python -m tools.lab_settings`` (run by
``make lab``) copies jupyterlab/custom.css and the course's CJK font into this environment and
turns this extension on; the extension puts that folder first on the path ``/custom/`` is served
from, so Chinese reads in JupyterLab on a machine with no Chinese font, and the learner installs
nothing. The user's own ``~/.jupyter/custom`` files stay reachable after it.
"""
from __future__ import annotations

import sys
from pathlib import Path


def custom_dir(prefix: str = sys.prefix) -> Path:
    return Path(prefix) / "share" / "jupyter" / "tfdist-sim" / "custom"


def _jupyter_server_extension_points():
    return [{"module": __name__}]


def _link_jupyter_server_extension(serverapp) -> None:
    # Before the web application is made: its /custom/ handler reads this list.
    serverapp.static_custom_path = [str(custom_dir()), *serverapp.static_custom_path]


def _load_jupyter_server_extension(serverapp) -> None:
    serverapp.log.info("tfdist-sim: JupyterLab styles and font from %s", custom_dir())
