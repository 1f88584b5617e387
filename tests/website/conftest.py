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
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


# A fontconfig that hides every font with Chinese, Japanese or Korean glyphs, as on a learner's or
# a CI machine without fonts-noto-cjk: Chinese drawn under it comes from the course's own font, or
# is tofu.
NO_CJK_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <cachedir>{cache}</cachedir>
  <selectfont><rejectfont>
    <pattern><patelt name="lang"><string>zh-cn</string></patelt></pattern>
    <pattern><patelt name="lang"><string>ja</string></patelt></pattern>
    <pattern><patelt name="lang"><string>ko</string></patelt></pattern>
  </rejectfont></selectfont>
</fontconfig>
"""


@pytest.fixture(scope="session")
def no_cjk_env(tmp_path_factory):
    import shutil
    import subprocess

    folder = tmp_path_factory.mktemp("fontconfig")
    conf = folder / "fonts.conf"
    conf.write_text(NO_CJK_FONTCONFIG.format(cache=folder / "cache"), encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    if shutil.which("fc-list"):   # the fontconfig really hides them
        found = subprocess.run(["fc-list", ":lang=zh"], env=env, capture_output=True, text=True).stdout
        assert not found.strip(), f"the test fontconfig still offers Chinese fonts: {found[:200]}"
    return env


@pytest.fixture(scope="session")
def browser_without_cjk(playwright, no_cjk_env):
    """Chromium that sees no system CJK font."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=no_cjk_env)
    yield browser
    browser.close()
