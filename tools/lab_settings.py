"""Install the course's JupyterLab settings (jupyterlab/overrides.json) into this environment.

    python -m tools.lab_settings          # make lab runs it

JupyterLab reads ``<sys.prefix>/share/jupyter/lab/settings/overrides.json`` as the defaults of
every user of the environment. The course turns off the news feed and the update check: both
would ask a website, which a classroom offline cannot reach (and the first-visit toast about
news would cover the lesson). Settings already in that file are kept; the course's win.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

COURSE_SETTINGS = Path(__file__).resolve().parents[1] / "jupyterlab" / "overrides.json"


def target(prefix: str = sys.prefix) -> Path:
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def install(prefix: str = sys.prefix) -> Path:
    """Merge the course's settings into the environment's overrides.json; return its path."""
    path = target(prefix)
    merged = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for plugin, values in json.loads(COURSE_SETTINGS.read_text(encoding="utf-8")).items():
        merged.setdefault(plugin, {}).update(values)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


if __name__ == "__main__":
    print(f"JupyterLab settings: {install()}")
