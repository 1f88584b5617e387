"""Issue 24, item 7: every CLI refuses an out-of-range size at once (one line on stderr, exit 2,
no traceback, seconds not minutes), documents its limits in --help, and `scale` checks its
--plot/--trace paths before computing (``--plot DIR`` never writes ``DIR.png``)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "launch_scripts")


def _run(*argv, cwd=None):
    env = dict(os.environ, PYTHONPATH=ROOT, SIM_LANG="en", MPLBACKEND="Agg")
    return subprocess.run([sys.executable, "-m", "sim", *argv], capture_output=True, text=True,
                          timeout=60, env=env, cwd=cwd)


def _a_script():
    return next(os.path.join(SCRIPT, f) for f in sorted(os.listdir(SCRIPT)) if f.endswith(".py"))


def _refused(result, words):
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (result.returncode, result.stdout[-500:], result.stderr[-500:])
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert words in lines[0], lines[0]


@pytest.mark.parametrize("argv, words", [
    (["allreduce", "--nodes", "99999999999999999999"], "--nodes 99999999999999999999 is out of range: it must be from 1 to 1024"),
    (["allreduce", "--nodes", "1025"], "from 1 to 1024"),
    (["allreduce", "-b", "1", "-e", "1125899906842624", "-f", "1.0000001"], "more than the 1,000 a table can show"),
    (["allreduce", "-e", "2048T"], "-e/--maxbytes 2251799813685248 is out of range"),
    (["scale", "--nodes", "99999999999999999999"], "--nodes 99999999999999999999 is out of range: it must be from 1 to 2048"),
    (["scale", "--nodes", ",".join(["1"] * 65)], "--nodes (count) 65 is out of range"),
    (["scale", "--batch-per-device", "99999999999999999999"], "from 1 to 65536"),
    (["scale", "--strategy", "parameter-server", "--ps", "5000"], "--ps 5000 is out of range"),
    (["scale", "--ps", "2"], "only --strategy parameter-server uses"),
    (["scale", "--async"], "add --strategy parameter-server, or drop --async"),
    (["scale", "--plot", "/nonexistent/dir/x.png"], "the directory /nonexistent/dir does not exist"),
    (["scale", "--trace", "/nonexistent/dir/t.json"], "the directory /nonexistent/dir does not exist"),
    (["scale", "--plot", "x.txt"], "must end in one of .png, .svg, .pdf"),
])
def test_out_of_range_sizes_and_bad_paths_are_one_line_and_exit_2(argv, words):
    _refused(_run(*argv), words)


@pytest.mark.parametrize("workers", ["1000", "99999999999999999999"])
def test_launch_refuses_more_tasks_than_a_machine_runs(workers):
    _refused(_run("launch", "--workers", workers, _a_script()), "is more than the 256")


def test_scale_plot_to_a_directory_is_refused_and_writes_nothing(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    _refused(_run("scale", "--nodes", "1", "--plot", str(target)), "must end in one of")
    assert not (tmp_path / "out.png").exists()
    (target / "d.png").mkdir()
    _refused(_run("scale", "--nodes", "1", "--plot", str(target / "d.png")), "is a directory")


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs /proc")
def test_a_write_that_fails_late_is_still_one_line():
    _refused(_run("scale", "--nodes", "1", "--trace", "/proc/version"), "could not be written")


@pytest.mark.parametrize("tool, words", [
    ("allreduce", ["1 to 1024", "at most 1000 sizes", "2**50"]),
    ("scale", ["1 to 2048", "1 to 65536", "1 to 1024", ".png"]),
    ("launch", ["at most 256 tasks"]),
])
def test_help_documents_the_limits(tool, words):
    out = _run(tool, "--help")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    for w in words:
        assert w in text, (w, text[-800:])
