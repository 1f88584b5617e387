"""Install the course's JupyterLab settings (jupyterlab/) into this environment.

    python -m tools.lab_settings          # make lab runs it

JupyterLab reads ``<sys.prefix>/share/jupyter/lab/settings/overrides.json`` as the defaults of
every user of the environment. The course turns off the news feed and the update check: both
would ask a website, which a classroom offline cannot reach (and the first-visit toast about
news would cover the lesson). Settings already in that file are kept; the course's win.

Chinese: the theme's font families name the course's own CJK font after their Latin faces
(overrides.json), and ``jupyterlab/custom.css`` declares that font, served beside it by Jupyter
from ``<sys.prefix>/share/jupyter/tfdist-sim/custom/`` (a server setting in
``<sys.prefix>/etc/jupyter/jupyter_server_config.d/``, which also turns custom CSS on). So a zh
lesson reads on a machine with no Chinese font, and the learner installs nothing.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

SETTINGS_DIR = Path(__file__).resolve().parents[1] / "jupyterlab"
COURSE_SETTINGS = SETTINGS_DIR / "overrides.json"
COURSE_CSS = SETTINGS_DIR / "custom.css"
SERVER_CONFIG_NAME = "tfdist-sim-course.json"


def course_font() -> Path:
    from sim.course.plots import FONT_FILE   # the one place that names the course font
    return Path(FONT_FILE)


def target(prefix: str = sys.prefix) -> Path:
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def custom_dir(prefix: str = sys.prefix) -> Path:
    return Path(prefix) / "share" / "jupyter" / "tfdist-sim" / "custom"


def server_config(prefix: str = sys.prefix) -> Path:
    return Path(prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / SERVER_CONFIG_NAME


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def install(prefix: str = sys.prefix) -> Path:
    """Merge the course's settings into the environment's overrides.json, install its CSS and
    font and the server setting that serves them; return the overrides.json path."""
    from jupyter_core.paths import jupyter_config_dir

    path = target(prefix)
    merged = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for plugin, values in json.loads(COURSE_SETTINGS.read_text(encoding="utf-8")).items():
        merged.setdefault(plugin, {}).update(values)
    write_atomic(path, (json.dumps(merged, indent=2, ensure_ascii=False) + "\n").encode())
    custom = custom_dir(prefix)
    write_atomic(custom / "custom.css", COURSE_CSS.read_bytes())
    font = course_font()
    if not (custom / font.name).exists() or (custom / font.name).read_bytes() != font.read_bytes():
        write_atomic(custom / font.name, font.read_bytes())
    # The course's folder first; the user's own ~/.jupyter/custom after it, as Jupyter's default.
    config = {"LabApp": {"custom_css": True},
              "ServerApp": {"static_custom_path": [str(custom), str(Path(jupyter_config_dir()) / "custom")]}}
    write_atomic(server_config(prefix), (json.dumps(config, indent=2) + "\n").encode())
    return path


if __name__ == "__main__":
    print(f"JupyterLab settings: {install()}")
