"""`make lab` starts a JupyterLab server that answers on localhost and lists the course home."""
import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from sim.launch.free_ports import free_ports

ROOT = Path(__file__).resolve().parents[1]


def _free_port():
    return free_ports(1)[0]     # below the ephemeral range: no other connection takes it first


@pytest.mark.slow
def test_make_lab_serves_the_course_home(tmp_path):
    port = _free_port()
    flags = (f"--no-browser --ip=127.0.0.1 --port={port} --IdentityProvider.token= "
             f"--ServerApp.password= --ServerApp.runtime_dir={tmp_path}")
    env = dict(os.environ, LAB_FLAGS=flags, JUPYTER_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.Popen(["make", "-s", "lab"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        listing = None
        for _ in range(120):
            try:
                with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/api/contents/notebooks/en", timeout=2) as reply:
                    listing = json.load(reply)
                break
            except OSError:
                time.sleep(0.5)
        assert listing is not None, "JupyterLab did not answer on localhost within 60 s"
        names = {item["name"] for item in listing["content"]}
        assert "index.ipynb" in names
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab", timeout=5) as reply:
            assert reply.status == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
