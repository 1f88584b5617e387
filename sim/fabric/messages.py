"""The launcher's and the fabric's words, in the course language (catalogue ``launch``).

The fabric records a failure as a short code (``lost``, ``left:<seq>``, ``mismatch:...``,
``injected:<step>``, or the text of an error) so the words are chosen by the process that
prints them, in its own course language.
"""
from __future__ import annotations

import os

from sim.i18n import t


def task_label(task: str) -> str:
    """``"worker:1"`` -> ``"worker 1"``: how logs and messages name a task."""
    kind, _, index = task.partition(":")
    return f"{kind} {index}" if index else kind


def reason_text(task: str, reason: str) -> str:
    """The failure ``reason`` code of ``task`` in words."""
    name = task_label(task)
    code, _, rest = reason.partition(":")
    if task == "launcher":
        return t("launch.reason_launcher_lost")
    if code == "lost":
        return t("launch.reason_lost", task=name)
    if code == "left":
        return t("launch.reason_left", task=name, seq=rest)
    if code == "injected":
        return t("launch.reason_injected", task=name, step=rest)
    if code == "mismatch":
        seq, op, theirs = (rest.split(":") + ["", "", ""])[:3]
        return t("launch.reason_mismatch", task=name, seq=seq, op=op, theirs=theirs)
    return t("launch.reason_error", task=name, error=reason)


def abort_message(task: str, reason: str) -> str:
    """What a surviving task's collective raises when ``task`` failed."""
    return t("launch.aborted", reason=reason_text(task, reason))


def notice_seconds(default=10.0) -> float:
    """How long a quiet launch or a waiting host says nothing: ``default``, or
    SIM_LAUNCH_NOTICE_SECONDS when set (a positive number, else a ValueError naming it)."""
    text = os.environ.get("SIM_LAUNCH_NOTICE_SECONDS")
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise ValueError(t("launch.bad_notice", value=text))
    return value
