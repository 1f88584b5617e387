"""Lesson 11 in JupyterLab at 1280x720 with the file browser open, zh and pt: screenshots of the
table outputs (run by hand; the lab server is started here and stopped at the end)."""
import os, socket, subprocess, sys, time
from pathlib import Path
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".shots"
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
token = "recipes-shots"
lab = subprocess.Popen([str(ROOT / ".venv/bin/jupyter"), "lab", "--no-browser", f"--port={port}",
                        "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
                        f"--ServerApp.root_dir={ROOT}", "--allow-root"],
                       stdout=open(OUT / "lab.log", "w"), stderr=subprocess.STDOUT)
try:
    for _ in range(180):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(1)
    time.sleep(3)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        for lang in sys.argv[1:] or ["zh", "pt"]:
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"http://127.0.0.1:{port}/lab/tree/notebooks/{lang}/11_plan_to_target.ipynb?token={token}")
            page.wait_for_selector(".jp-Notebook", timeout=90000)
            time.sleep(8)
            # the file browser open, as make lab starts
            if not page.locator(".jp-FileBrowser").first.is_visible():
                page.keyboard.press("Control+Shift+F")
                time.sleep(1)
            page.screenshot(path=str(OUT / f"l11-{lang}-s00.png"))
            outputs = page.locator(".jp-OutputArea-output pre")
            n = outputs.count()
            for i in range(n):
                el = outputs.nth(i)
                try:
                    el.scroll_into_view_if_needed(timeout=5000)
                except Exception:
                    continue
                time.sleep(0.5)
                page.screenshot(path=str(OUT / f"l11-{lang}-out{i:02d}.png"))
            images = page.locator(".jp-OutputArea-output img")
            for i in range(images.count()):
                try:
                    images.nth(i).scroll_into_view_if_needed(timeout=5000)
                except Exception:
                    continue
                time.sleep(0.5)
                page.screenshot(path=str(OUT / f"l11-{lang}-img{i}.png"))
            # widths: does any pre overflow its box?
            over = page.evaluate("""() => [...document.querySelectorAll('.jp-OutputArea-output pre')]
                .map(e => [e.scrollWidth, e.clientWidth])""")
            print(lang, "outputs", n, "images", images.count(), "overflow (scrollWidth > clientWidth):",
                  [i for i, (a, b) in enumerate(over) if a > b + 1], "widths", over[:3])
            page.close()
        browser.close()
finally:
    lab.terminate()
    lab.wait(timeout=30)
