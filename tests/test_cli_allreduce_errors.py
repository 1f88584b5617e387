"""Every bad argument of `python -m sim allreduce` is one line naming the mistake and the fix,
exit status 2, no traceback (issue 11's list, tried as a new user would)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from sim.cli.allreduce import main

CASES = [
    (["-b", "0"], "-b/--minbytes"),                       # used to hang: 0 x factor
    (["-g", "64"], "-g/--ngpus"),                         # 8-GPU machine
    (["-g", "-3"], "-g/--ngpus"),
    (["-g", "0"], "-g/--ngpus"),                          # used to be ignored
    (["--nodes", "0"], "--nodes"),                        # used to be ignored
    (["--nodes", "-2"], "--nodes"),
    (["-b", "1M", "-e", "1K"], "-e/--maxbytes"),          # used to print an empty table, status 0
    (["-f", "1"], "-f/--factor"),
    (["-f", "0"], "-f/--factor"),
    (["-f", "-2"], "-f/--factor"),
    (["-f", "0.5"], "-f/--factor"),
    (["-f", "nan"], "-f/--factor"),
    (["-f", "inf"], "-f/--factor"),
    (["-g", "abc"], "-g/--ngpus"),
    (["-b", "1X"], "-b/--minbytes"),
    (["--machine", "dgx-z100"], "Known machines"),
    (["--algorithm", "bogus"], "Known algorithms"),
    (["--nodes", "2", "--network", "infiniband"], "Known networks"),
    (["--network", "hdr-ib"], "--nodes"),                 # a network needs nodes
    (["--machine", "tpu-v4", "--nodes", "2"], "shape="),
    (["--machine", "cpu-cluster", "--nodes", "2", "--network", "hdr-ib"], "cpu-cluster"),
    (["--bogus-flag"], "--bogus-flag"),
]


@pytest.mark.parametrize("argv,names", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_argument_is_one_clear_line(argv, names, capsys):
    with pytest.raises(SystemExit) as stop:
        code = main(argv + ["-e", "1K"] if "-e" not in argv and "-b" not in argv else argv)
        raise SystemExit(code)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and out == "", (out, err)
    assert lines[0].startswith("python -m sim allreduce: error:") and names in lines[0]
    assert "Traceback" not in err


def test_from_the_shell_no_traceback_status_2():
    for argv in (["-b", "0"], ["--machine", "dgx-a100", "-g", "64"], ["-f", "nan"]):
        res = subprocess.run([sys.executable, "-m", "sim", "allreduce", *argv],
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 2 and "Traceback" not in res.stderr
        assert len(res.stderr.strip().splitlines()) == 1 and res.stdout == ""


def test_error_in_the_course_language(capsys):
    from sim.i18n import set_language
    try:
        set_language("zh")
        assert main(["-f", "0.5"]) == 2
        assert "错误" in capsys.readouterr().err
    finally:
        set_language("en")


def test_any_node_becomes_a_cluster_on_the_command_line(capsys):
    """The learner's first guess, `--machine dgx-a100 --nodes 128`, used to end in a TypeError."""
    assert main(["--machine", "dgx-a100", "--nodes", "16", "--network", "hdr-ib",
                 "-b", "1G", "-e", "1G"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "128 devices" in out[0] and "16" in out[0]
    busbw = float(out[-1].split()[6])
    assert 0.8 * 200 <= busbw <= 200                      # 8 HDR NICs per node
    assert main(["--machine", "dgx-a100-cluster", "--nodes", "4", "-g", "16", "-b", "1M",
                 "-e", "1M"]) == 0
    assert "16 devices (2 nodes)" in capsys.readouterr().out
