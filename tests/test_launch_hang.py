"""A hung task: the launch's timeout names the task the others wait for (not a waiting worker),
the CLI has ``--timeout`` and, while nothing happens, says who it waits for and how to stop."""
import subprocess
import sys
from pathlib import Path

import pytest

from sim.launch import launch

HANG = Path(__file__).with_name("launch_scripts") / "hang.py"


@pytest.mark.parametrize("where, seq", [([], "4"), (["before"], "1")])
def test_the_timeout_names_the_hung_task(where, seq):
    """Worker 1 sleeps at step 3 (collective #4 after the initial broadcast), or before it even
    creates the strategy: workers 0 and 2 wait for it; the timeout must blame worker 1."""
    result = launch(HANG, where, workers=3, echo=False, timeout=6)
    assert result.returncode == 1 and result.failed == "worker 1", result.reason
    assert result.reason == ("still running after the launch's timeout of 6 s "
                             f"(the others wait for it in collective #{seq})")


def test_the_cli_has_a_timeout_and_says_how_to_stop_while_it_waits():
    proc = subprocess.run([sys.executable, "-m", "sim", "launch", "--workers", "2", "--timeout", "8",
                           str(HANG)], capture_output=True, text=True, timeout=60,
                          env=dict(__import__("os").environ, SIM_LAUNCH_NOTICE_SECONDS="2"))
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    notice = [ln for ln in lines if ln.startswith("nothing has happened for")]
    assert notice and "waiting for worker 1 (the others wait for it in collective #4)" in notice[-1]
    assert "Ctrl-C stops every task" in notice[-1]
    assert lines[-2] == ("launch failed: worker 1: still running after the launch's timeout of 8 s "
                         "(the others wait for it in collective #4)")


@pytest.mark.parametrize("value", ["0", "-3", "soon", "nan", "inf"])
def test_a_bad_timeout_is_one_line(value, tmp_path):
    script = tmp_path / "s.py"
    script.write_text("")
    proc = subprocess.run([sys.executable, "-m", "sim", "launch", "--workers", "2", "--timeout", value,
                           str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"python -m sim launch: --timeout needs a number of seconds above 0, not {value!r}: "
        "for example --timeout 600"]
