"""``python -m sim launch``: every bad argument is one line naming the mistake, exit status 2."""
import subprocess
import sys

import pytest

from sim import i18n
from sim.cli import launch as cli


@pytest.fixture
def script(tmp_path):
    p = tmp_path / "train.py"
    p.write_text("print('hi')\n")
    return str(p)


@pytest.mark.parametrize("argv, words", [
    (["--workers", "0", "S"], ["--workers", "at least 1", "--workers 2"]),
    (["--workers", "two", "S"], ["--workers", "'two'"]),
    (["--workers"], ["--workers needs a value"]),
    (["--workers", "2", "--ps", "-1", "S"], ["--ps", "at least 0"]),
    (["--workers", "2", "--gpus", "2", "S"], ["unknown option '--gpus'", "--gpus-per-worker"]),
    (["--workers", "2"], ["no script to run"]),
    (["S"], ["--workers is required"]),
    (["--workers", "2", "missing.py"], ["'missing.py' does not exist"]),
    (["--workers", "2", "--machine", "dgx-9000", "S"], ["unknown machine preset 'dgx-9000'", "workstation-4gpu"]),
    (["--workers", "2", "--machine", "dgx-a100", "--gpus-per-worker", "9", "S"], ["at most 8"]),
    (["--workers", "2", "--fail-at", "worker:5:1", "S"], ["--fail-at", "worker:5:1"]),
    (["--workers", "2", "--fail-at", "oops", "S"], ["--fail-at", "'oops'"]),
])
def test_bad_argument_is_one_clear_line(script, capsys, argv, words):
    argv = [script if a == "S" else a for a in argv]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    for w in words:
        assert w in err


def test_bad_argument_in_the_course_language(script, capsys):
    i18n.set_language("zh")
    try:
        assert cli.main(["--workers", "0", script]) == 2
    finally:
        i18n.set_language("en")
    assert "需要一个不小于 1 的整数" in capsys.readouterr().err


def test_the_real_command_exits_2_without_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sim", "launch", "--workers", "-3", "x.py"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("python -m sim launch: --workers needs a whole number")
    assert "Traceback" not in proc.stderr


def test_parse_puts_everything_after_the_script_to_the_script(script):
    opts = cli.parse(["--workers", "2", "--chief", "--ps=1", "--fail-at", "1:3", script, "--lr", "0.1"])
    assert (opts["workers"], opts["chief"], opts["ps"], opts["fail_at"]) == (2, True, 1, ("worker", 1, 3))
    assert opts["args"] == ["--lr", "0.1"]
