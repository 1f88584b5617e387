"""JupyterLab as `make lab` starts it, in Chromium at 1280x720 with its file browser open, on a
machine with no Chinese font: Chinese in a zh lesson's text, code and outputs is drawn with the
course's own font (jupyterlab/custom.css, served by sim/course/lab_styles.py), and the tables the
lessons print keep their rows (each printed line on one screen line). Runs with `make site-test`."""
from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_learner_view import WIDE_TABLE_LINES, fonts_of_chinese_text, misaligned

ROOT = Path(__file__).resolve().parents[2]
# Lessons whose outputs print tables (lesson 11's are its own: sim/plan/table.py).
TABLE_LESSONS = ["00_why_distribute", "05_central_storage_one_device_tpu", "09_will_it_scale"]


@pytest.fixture(scope="module")
def lab(tmp_path_factory, no_cjk_env):
    """A JupyterLab server on an ephemeral loopback port, with the course's settings installed as
    `make lab` installs them, and its own empty user settings and workspaces."""
    from tools import lab_settings

    lab_settings.install()
    home = tmp_path_factory.mktemp("lab")
    token = secrets.token_hex(16)
    runtime = home / "runtime"
    env = {**no_cjk_env, "JUPYTER_RUNTIME_DIR": str(runtime)}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--port=0",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}",
         f"--LabApp.user_settings_dir={home / 'settings'}", f"--LabApp.workspaces_dir={home / 'workspaces'}"],
        env=env, stdout=subprocess.DEVNULL, stderr=(home / "log").open("w"))
    try:
        deadline = time.monotonic() + 90
        info = None
        while info is None and time.monotonic() < deadline and server.poll() is None:
            found = sorted(runtime.glob("jpserver-*.json")) if runtime.exists() else []
            info = json.loads(found[0].read_text()) if found else None
            time.sleep(0.5)
        assert info, f"JupyterLab did not start: {(home / 'log').read_text()[-2000:]}"
        yield f"http://127.0.0.1:{info['port']}", token
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def open_notebook(browser, lab, path: str):
    base, token = lab
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{base}/lab/tree/{path}?reset&token={token}")   # reset: only this notebook open
    page.wait_for_selector(".jp-Notebook .jp-OutputArea-output pre", state="attached", timeout=90000)
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(1000)
    assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
    return context, page


def test_a_zh_lesson_reads_in_the_course_font_without_a_system_chinese_font(browser_without_cjk, lab):
    context, page = open_notebook(browser_without_cjk, lab, "notebooks/zh/09_will_it_scale.ipynb")
    items = [i for i in fonts_of_chinese_text(page, ".jp-RenderedMarkdown h1, .jp-RenderedMarkdown p, "
                                                    ".jp-RenderedMarkdown li, .jp-OutputArea-output pre")
             if i["fonts"]]   # JupyterLab skips drawing the cells far off screen
    shot = ROOT / "build" / "site" / "screenshots" / "lab-zh-09-nofont.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot))
    context.close()
    assert sum(i["cjk"] for i in items) > 200, items[:3]
    bad = [i for i in items if i["course"] < i["cjk"]]
    assert not bad, bad[:5]


TABLE_LINES = r"""pre => {
    // Every printed line with a column gap (a run of 2+ spaces between words) is a table row: it must
    // take one screen line. Measured with a Range over the line's characters.
    const text = pre.textContent, node = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    const nodes = []; let at = 0;
    while (node.nextNode()) { nodes.push([node.currentNode, at]); at += node.currentNode.length; }
    const locate = (i) => { for (const [n, start] of nodes) if (i < start + n.length) return [n, i - start];
                            const [n, start] = nodes[nodes.length - 1]; return [n, n.length]; };
    const rows = []; let start = 0;
    for (const line of text.split("\n")) {
        const end = start + line.length;
        if (/\S {2,}\S/.test(line.trim())) {
            const r = document.createRange();
            r.setStart(...locate(start)); r.setEnd(...locate(end));
            const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
            rows.push({line: line.slice(0, 60), screenLines: tops.size});
        }
        start = end + 1;
    }
    return rows;
}"""


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_printed_tables_keep_their_rows_at_1280x720_with_the_file_browser_open(browser, lab, lang):
    broken, rows = [], 0
    for lesson in TABLE_LESSONS:
        context, page = open_notebook(browser, lab, f"notebooks/{lang}/{lesson}.ipynb")
        outputs = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output pre")
        for i in range(outputs.count()):
            output = outputs.nth(i)
            output.evaluate("pre => pre.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(300)
            for row in output.evaluate(TABLE_LINES):
                if row["screenLines"] == 0:
                    continue   # not drawn yet (JupyterLab skips cells off screen)
                rows += 1
                if row["screenLines"] != 1:
                    broken.append(f"{lesson}: {row['line']!r} takes {row['screenLines']} lines")
        context.close()
    assert rows >= 15, rows
    assert not broken, "\n".join(broken[:15])


@pytest.mark.parametrize("fonts", ["browser", "browser_without_cjk"])
def test_a_chinese_table_keeps_its_columns_in_the_lab(request, lab, fonts):
    """In JupyterLab too a wide character is two columns of code wide (custom.css's course code
    face), so the columns of a zh table stand under their headers."""
    rows, bad = 0, []
    for lesson in ("04_keras_fit", "11_plan_to_target"):
        context, page = open_notebook(request.getfixturevalue(fonts), lab, f"notebooks/zh/{lesson}.ipynb")
        outputs = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output pre")
        for i in range(outputs.count()):
            output = outputs.nth(i)
            output.evaluate("pre => pre.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(200)
            found = output.evaluate(WIDE_TABLE_LINES)
            rows += sum(1 for r in found if r["drawn"])
            bad += [f"{lesson}: {r['line']!r}: {r['drawn']:.1f} px for {r['expected']:.1f}" for r in misaligned(found)]
            if found and i == 0:
                shot = ROOT / "build" / "site" / "screenshots" / f"lab-zh-{lesson}-table-{fonts}.png"
                shot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(shot))
        context.close()
    assert rows >= 10, rows
    assert not bad, "\n".join(bad[:10])

