"""``python -m sim launch --workers N [--chief] [--ps M] [--machine PRESET] [--gpus-per-worker G]
[--fail-at TASK:STEP] [--timeout SECONDS] [--engine sim|tensorflow] [--python PATH] script.py
[args...]``: run a script as a simulated cluster, or (``--engine tensorflow``) as local processes
on real TensorFlow under ``--python`` (default: SIM_TF_PYTHON, else this Python), the script
unedited: its ``import sim.tf`` gives ``tensorflow`` there (sim.launch.tf_alias).

Options come before the script; everything after the script is the script's own arguments.
A bad option is one line naming the mistake and the fix, exit status 2 (no traceback). The
exit status is 0 when every task exited 0, 1 when one failed (or ``--timeout`` passed), 130 on
Ctrl-C, 143 on SIGTERM, 129 on SIGHUP (every task is stopped first, at any moment of the start).

``python -m sim launch --emit slurm|kubernetes|ssh [options] script.py [args...]`` runs nothing:
it writes the files a real cluster needs to run the script (sim.launch.emit), exit status 0, or
one line and 2 for a bad option.
"""
from __future__ import annotations

import math
import sys

from sim.cli import limits
from sim.i18n import t

_VALUED = {"--workers": "2", "--ps": "1", "--machine": "workstation-4gpu", "--gpus-per-worker": "2",
           "--fail-at": "worker:1:3", "--timeout": "600", "--engine": "tensorflow",
           "--python": ".venv-tf/bin/python"}


class UsageError(ValueError):
    pass


def parse(argv):
    """``argv`` -> the keyword arguments of ``sim.launch.launcher.launch``; UsageError if bad."""
    from sim.launch.launch_options import parse_fail_at
    opts = {"workers": None, "chief": False, "ps": 0, "machine": "workstation-4gpu",
            "gpus_per_worker": None, "fail_at": None, "timeout": None, "engine": "sim", "python": None}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("-"):
            break
        name, eq, value = arg.partition("=")
        if name == "--chief" and not eq:
            opts["chief"] = True
            i += 1
            continue
        if name not in _VALUED:
            raise UsageError(t("launch.unknown_option", option=arg))
        if not eq:
            if i + 1 >= len(argv) or (argv[i + 1].startswith("--")):
                raise UsageError(t("launch.missing_value", option=name, example=_VALUED[name]))
            value = argv[i + 1]
            i += 2
        else:
            i += 1
        key = name[2:].replace("-", "_")
        if name in ("--machine", "--engine", "--python"):
            opts[key] = value
        elif name == "--fail-at":
            opts[key] = parse_fail_at(value)
        elif name == "--timeout":
            opts[key] = _seconds(value)
        else:
            try:
                opts[key] = int(value)
            except ValueError:
                raise UsageError(t("launch.bad_count", option=name, minimum=0 if name == "--ps" else 1,
                                   value=value, example=_VALUED[name])) from None
    if opts["workers"] is None:
        raise UsageError(t("launch.no_workers"))
    if i >= len(argv):
        raise UsageError(t("launch.no_script"))
    opts["script"], opts["args"] = argv[i], argv[i + 1:]
    return opts


def _check_task_count(opts):
    """At most LAUNCH_MAX_TASKS processes (sim/cli/limits.py), refused before any is forked."""
    n = sum(v for v in (opts["workers"], int(bool(opts["chief"])), opts["ps"])
            if isinstance(v, int) and v > 0)
    if n > limits.LAUNCH_MAX_TASKS:
        raise ValueError(t("cli_limits.launch_too_many", n=n, most=limits.LAUNCH_MAX_TASKS))
    if isinstance(opts["gpus_per_worker"], int) and opts["gpus_per_worker"] >= 0:
        limits.in_range("--gpus-per-worker", opts["gpus_per_worker"], 0, limits.LAUNCH_MAX_GPUS)


def _seconds(value):
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (seconds > 0 and math.isfinite(seconds)):
        raise UsageError(t("launch.bad_timeout", value=value))
    return int(seconds) if seconds.is_integer() else seconds


def main(argv=None) -> int:
    from sim.launch import stop_signals
    try:
        stop_signals.install()          # from the start: SIGTERM/SIGHUP stop it as Ctrl-C does
        return _main(argv)
    except KeyboardInterrupt as e:      # Ctrl-C, SIGTERM, SIGHUP: every task is stopped by now
        return stop_signals.interrupted(e)


def _emit_argv(argv):
    """The words after ``--emit`` (moved to the front), or None when there is no ``--emit``."""
    from sim.launch.emit_options import OPTIONS
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        name, eq, value = argv[i].partition("=")
        if name == "--emit":
            kind = [value] if eq else argv[i + 1:i + 2]
            return kind + argv[:i] + argv[i + 1 + (not eq):]
        i += 2 if (name in OPTIONS or name in _VALUED) and not eq else 1
    return None


def _emit(words):
    from sim.launch.emit import emit
    try:
        paths = emit(words)
    except ValueError as e:
        print(f"python -m sim launch: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print("python -m sim launch: " + t("emit.cannot_write", path=e.filename or "--out",
                                           reason=e.strerror or e), file=sys.stderr)
        return 2
    for path in paths:
        print(t("emit.wrote", path=path))
    return 0


def _main(argv):
    argv = list(sys.argv[1:] if argv is None else argv)
    words = _emit_argv(argv)
    if words is not None:
        return _emit(words)
    if not argv or argv[0] in ("-h", "--help"):
        print(t("launch.usage"))
        print(t("emit.usage"))
        print(t("cli_limits.launch_limits", most=limits.LAUNCH_MAX_TASKS))
        print(t("cli_limits.launch_gpus_limit", most=limits.LAUNCH_MAX_GPUS))
        return 0 if argv else 2
    from sim.launch.launch_options import check_options
    from sim.launch.launcher import launch
    try:
        opts = parse(argv)
        _check_task_count(opts)
        check_options(opts["script"], opts["workers"], opts["chief"], opts["ps"], opts["machine"],
                      opts["gpus_per_worker"], opts["fail_at"])
        from sim.launch.tf_engine import check_engine
        check_engine(opts["engine"], opts["python"])
        if opts["engine"] != "sim" and opts["fail_at"] is not None:
            raise ValueError(t("tfengine.sim_only", option="--fail-at"))
    except ValueError as e:
        print(f"python -m sim launch: {e}", file=sys.stderr)
        return 2
    from sim.launch import stop_signals, subreaper
    adopted = subreaper.adopt_orphans()     # what a task started in a session of its own, too
    try:
        if opts["engine"] == "sim":
            from sim.launch import forked
            if forked.available():          # a fresh process: import sim.tf once, fork the tasks
                forked.preload()
                opts["fork"] = True
        result = launch(**opts, stop_orphans=subreaper.stop_orphans if adopted else None)
    finally:
        if adopted:
            with stop_signals.held():
                subreaper.stop_orphans()
    return result.returncode
