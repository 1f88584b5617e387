"""Run notebooks in JupyterLab in headless Chromium, as a learner would, and screenshot them.

    python -m tools.run_in_lab [--shots DIR] NOTEBOOK[::TEXT] ...

Starts ``jupyter lab`` from this venv on a free loopback port (a random token, its own HOME),
opens each notebook in a fresh workspace, clicks Run > Run All Cells, waits until no cell is
running, wheels down to the first output or rendered text cell containing TEXT (the lesson's
demo, or a passage of its narrative) and takes a screenshot. Prints, per notebook, the input
prompts seen and every stderr output (a traceback shows there). Needs Playwright
(``pip install -e '.[site]'``) and Debian's chromium (CHROMIUM, default /usr/bin/chromium). The
server and its kernels stop at the end.
"""
from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _wait_for(url, seconds=120):
    for _ in range(seconds):
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(1)
    raise RuntimeError(f"JupyterLab did not answer at {url}")


def _run_one(page, base, n, notebook, want, shots):
    page.goto(f"{base}/lab/workspaces/run{n}/tree/{notebook}?reset&token={base.token}")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120000)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=120000)
    page.locator(".jp-Notebook").first.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator("li[data-command='runmenu:run-all']").click()
    time.sleep(3)
    deadline = time.time() + 900
    while time.time() < deadline:
        prompts = page.locator(".jp-InputPrompt").all_inner_texts()
        if prompts and not any("*" in x for x in prompts):
            break
        time.sleep(2)
    prompts = page.locator(".jp-Cell.jp-CodeCell .jp-InputPrompt").all_inner_texts()
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").all_inner_texts()
    page.mouse.move(700, 500)
    found = False
    for _ in range(300):          # the notebook renders lazily: wheel down to the demo's output
        demo = page.locator(".jp-OutputArea-output, .jp-MarkdownOutput", has_text=want)
        if want and demo.count():
            demo.last.evaluate("e => e.scrollIntoView({block: 'center'})")
            time.sleep(1)
            found = True
            break
        page.mouse.wheel(0, 300)
        time.sleep(0.1)
    shot = shots / (notebook.replace("/", "_") + ".png")
    page.screenshot(path=str(shot))
    print(f"{notebook}: prompts {prompts}; stderr outputs {len(errors)}; {want!r} found: {found}; {shot}")
    for error in errors:
        print("   ", error[:300])


class _Base(str):
    token = ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", default="build/lab-shots")
    parser.add_argument("notebooks", nargs="+")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright
    from sim.launch.free_ports import free_ports
    shots = Path(args.shots)
    shots.mkdir(parents=True, exist_ok=True)
    port, token = free_ports(1)[0], secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="lab-home-") as home:
        log = open(os.path.join(home, "jupyter.log"), "w")
        server = subprocess.Popen(
            [str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser", "--allow-root",
             f"--port={port}", "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}"],
            stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, HOME=home))
        try:
            base = _Base(f"http://127.0.0.1:{port}")
            base.token = token
            _wait_for(f"{base}/api?token={token}")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                            args=CHROMIUM_ARGS)
                for n, arg in enumerate(args.notebooks):
                    notebook, _, want = arg.partition("::")
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    _run_one(page, base, n, notebook, want, shots)
                    page.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=60)
            log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
