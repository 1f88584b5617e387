"""The course's JupyterLab settings turn off the news feed and the update check (both would
fetch from a website), and `make lab` installs them into the environment JupyterLab reads."""
import json
import re
import sys
from pathlib import Path

from tools import lab_settings

ROOT = Path(__file__).resolve().parents[1]


def test_the_course_settings_turn_the_news_and_update_checks_off():
    settings = json.loads(lab_settings.COURSE_SETTINGS.read_text(encoding="utf-8"))
    notification = settings["@jupyterlab/apputils-extension:notification"]
    assert notification["fetchNews"] == "false" and notification["checkForUpdates"] is False


def test_the_setting_names_are_jupyterlabs_own():
    """The keys must exist in the installed JupyterLab's schema, or JupyterLab ignores them."""
    schema_path = (Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas" / "@jupyterlab"
                   / "apputils-extension" / "notification.json")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    assert {"fetchNews", "checkForUpdates"} <= set(schema["properties"])


def test_install_merges_into_an_existing_overrides_file(tmp_path):
    path = lab_settings.target(str(tmp_path))
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"},
                                "@jupyterlab/apputils-extension:notification": {"fetchNews": "true",
                                                                                "doNotDisturbMode": True}}))
    lab_settings.install(str(tmp_path))
    merged = json.loads(path.read_text())
    themes = merged["@jupyterlab/apputils-extension:themes"]
    assert themes["theme"] == "JupyterLab Dark" and "Noto Sans SC Course" in themes["overrides"]["code-font-family"]
    assert merged["@jupyterlab/apputils-extension:notification"] == {
        "fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True}


def test_make_lab_installs_them_before_starting_jupyterlab():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^lab:.*\n((?:\t.*\n)+)", makefile, flags=re.M).group(1)
    lines = [line.strip() for line in recipe.splitlines()]
    assert lines[0] == "$(PY) -m tools.lab_settings" and "jupyter lab" in lines[1]
