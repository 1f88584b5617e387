"""How the launcher stops on Ctrl-C, SIGTERM or SIGHUP, at any moment of a launch.

A signal that lands while a task is being forked or spawned must not leave a task unrecorded
(it would outlive the launcher's clean-up) or arrive in the child before the child has put its
own handlers back: ``held()`` blocks the three signals for that moment, and the task unblocks
them (``release()``, called by the task runner) once it is on its own. SIGHUP (the terminal
closed) stops the launch as SIGTERM does; the exit status is 128 + the signal's number, as a
shell reports it: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.
"""
from __future__ import annotations

import contextlib
import signal

HELD = tuple(s for s in (getattr(signal, n, None) for n in ("SIGINT", "SIGTERM", "SIGHUP")) if s)


class LaunchInterrupted(KeyboardInterrupt):
    """The launcher got SIGTERM or SIGHUP (Ctrl-C is KeyboardInterrupt itself)."""

    def __init__(self, signum=signal.SIGTERM):
        super().__init__(signum)
        self.signum = signum


def name(interrupted) -> str:
    signum = getattr(interrupted, "signum", signal.SIGINT)
    return signal.Signals(signum).name


def exit_status(interrupted) -> int:
    return 128 + int(getattr(interrupted, "signum", signal.SIGINT))


def _raise(signum, frame):
    raise LaunchInterrupted(signum)


def install() -> None:
    """In the CLI's process: SIGTERM and SIGHUP stop the launch as Ctrl-C does."""
    for sig in HELD:
        if sig != signal.SIGINT:
            signal.signal(sig, _raise)


def interrupted(e) -> int:
    """Say (once: the launcher may have said it) that the launch stopped; its exit status."""
    if not getattr(e, "_sim_said", False):
        from sim.i18n import t
        print(t("launch.interrupted", signal=name(e)), flush=True)
    return exit_status(e)


@contextlib.contextmanager
def held():
    """Hold the stop signals for the duration (they are delivered when it ends)."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    old = mask(signal.SIG_BLOCK, HELD)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def release() -> None:
    """In a task: take the stop signals again (blocked by ``held()`` when it was started)."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(signal.SIG_UNBLOCK, HELD)
