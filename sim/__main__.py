"""``python -m sim <command> ...``: a small dispatcher to ``sim/cli/<command>.py``."""
from __future__ import annotations

import importlib
import sys

COMMANDS = {"allreduce": "sim.cli.allreduce", "launch": "sim.cli.launch", "plan": "sim.cli.plan",
            "scale": "sim.cli.scale"}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        print("usage: python -m sim <command> [options]\ncommands: " + ", ".join(sorted(COMMANDS)))
        return 0 if not argv or argv[0] in ("-h", "--help") else 2
    try:
        if argv[0] == "launch":     # a signal before the command is imported stops it as one later
            from sim.launch import stop_signals
            stop_signals.install()
        return importlib.import_module(COMMANDS[argv[0]]).main(argv[1:]) or 0
    except KeyboardInterrupt as e:  # Ctrl-C while a command starts: no traceback, as a shell says
        if argv[0] == "launch":
            from sim.launch import stop_signals
            return stop_signals.interrupted(e)
        return 130


if __name__ == "__main__":
    sys.exit(main())
