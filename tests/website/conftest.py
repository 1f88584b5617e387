"""The browser test of the built website: runs after `make site`, via `make site-test`, which sets
SITE_HTML (the built site) and CHROMIUM (Debian's chromium, driven by Playwright)."""
import os
from pathlib import Path

import pytest

SITE = os.environ.get("SITE_HTML")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# The flags a headless Chromium needs here: no sandbox (root, containers), no GPU, and nothing
# that phones home (which would also show up as a request leaving the machine).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def pytest_collection_modifyitems(config, items):
    if SITE:
        return
    skip = pytest.mark.skip(reason="the website's browser test runs with `make site-test` (after `make site`)")
    for item in items:
        if "tests/website/" in item.nodeid.replace(os.sep, "/"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def site() -> Path:
    root = Path(SITE)
    if not (root / "index.html").is_file():
        pytest.fail(f"no website in {root}: run `make site` first")
    return root


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
