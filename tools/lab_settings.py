"""Install the course's JupyterLab settings (jupyterlab/) into this environment.

    python -m tools.lab_settings          # make lab runs it

JupyterLab reads ``<sys.prefix>/share/jupyter/lab/settings/overrides.json`` as the defaults of
every user of the environment. The course turns off the news feed and the update check: both
would ask a website, which a classroom offline cannot reach (and the first-visit toast about
news would cover the lesson). Settings already in that file are kept; the course's win.

Chinese: ``jupyterlab/custom.css`` declares the course's own CJK font and names it in the theme's
font families after their Latin faces. Both are copied into
``<sys.prefix>/share/jupyter/tfdist-sim/custom/``, which the course's server extension
(sim/course/lab_styles.py) serves at ``/custom/``; the environment's
``<sys.prefix>/etc/jupyter/jupyter_server_config.json`` turns it and custom CSS on (settings there
are merged too). So a zh lesson reads on a machine with no Chinese font: the learner installs nothing.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

SETTINGS_DIR = Path(__file__).resolve().parents[1] / "jupyterlab"
COURSE_SETTINGS = SETTINGS_DIR / "overrides.json"
COURSE_CSS = SETTINGS_DIR / "custom.css"


def course_font() -> Path:
    from sim.course.plots import FONT_FILE   # the one place that names the course font
    return Path(FONT_FILE)


def target(prefix: str = sys.prefix) -> Path:
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def server_config(prefix: str = sys.prefix) -> Path:
    return Path(prefix) / "etc" / "jupyter" / "jupyter_server_config.json"


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def install(prefix: str = sys.prefix) -> Path:
    """Merge the course's settings into the environment's overrides.json, install its CSS and
    font and the server setting that serves them; return the overrides.json path."""
    from sim.course.lab_styles import custom_dir

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
    config_path = server_config(prefix)
    config = json.loads(config_path.read_text(encoding="utf-8")) if config_path.exists() else {}
    config.setdefault("LabApp", {})["custom_css"] = True
    config.setdefault("ServerApp", {}).setdefault("jpserver_extensions", {})["sim.course.lab_styles"] = True
    write_atomic(config_path, (json.dumps(config, indent=2) + "\n").encode())
    return path


if __name__ == "__main__":
    print(f"JupyterLab settings: {install()}")
