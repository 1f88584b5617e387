"""One launched task's process: its output read line by line (prefixed with its name), its
process group signalled as one, and why it ended, in the course language."""
from __future__ import annotations

import os
import re
import signal
import threading

from sim.fabric.messages import task_label
from sim.i18n import t


class TaskProcess:
    def __init__(self, kind, index, proc, echo, lock, read=True):
        self.kind, self.index, self.proc = kind, index, proc
        self.name = f"{kind}:{index}"
        self.lines: list = []
        self.ended_at = None
        self._reader = threading.Thread(target=self._read, args=(echo, lock), daemon=True)
        if read:
            self._reader.start()

    def start_reading(self):
        if not self._reader.is_alive() and self._reader.ident is None:
            self._reader.start()

    def _read(self, echo, lock):
        prefix = f"[{task_label(self.name)}] "
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            if echo is not None:
                with lock:
                    echo.write(prefix + line + "\n")
                    echo.flush()
        self.proc.stdout.close()

    def join_output(self, timeout=2.0):
        if self._reader.ident is not None:     # never started: interrupted while forking
            self._reader.join(timeout)

    def signal_group(self, sig):
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def why_it_ended(task, fail_at):
    code = task.proc.returncode
    if fail_at is not None and (task.kind, task.index) == fail_at[:2]:
        return t("launch.why_injected", step=fail_at[2])
    if code is not None and code < 0:
        try:
            return t("launch.why_signal", signal=signal.Signals(-code).name)
        except ValueError:
            return t("launch.why_signal", signal=-code)
    error = next((m for m in map(_EXCEPTION_LINE.match, reversed(task.lines)) if m), None)
    if error is not None:
        line = error.group(1).rsplit(".", 1)[-1] + error.group(2)
        return t("launch.why_last_line", code=code, line=line)
    return t("launch.why_exit", code=code)


# The first line of a traceback's last entry: "ValueError: ...", "sim.engine.errors.XError: ..."
_EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit))(:.*|$)")
