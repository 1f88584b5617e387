"""Show a learner an error's type and message, not a traceback.

A lesson that provokes an error on purpose wraps the call in ``with show_error():``. The cell's
output is then ``ValueError: <message>`` (the message is already in the course language): no
frames from the library's internals and no machine path, so the committed notebook stays the
same when the library is edited or built elsewhere. On real TensorFlow, drop the ``with`` line.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager

from sim.i18n import t


def error_line(error: BaseException) -> str:
    """``Type: message``, the one line a learner needs (first line only when Python has none)."""
    message = str(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


@contextmanager
def show_error(expected: type[BaseException] = Exception):
    """Run the block; print the error it raises as ``Type: message`` instead of a traceback.

    A block that raises nothing says so (in the course language): a lesson that meant to show an
    error would otherwise pass silently. Errors outside ``expected`` propagate unchanged.
    """
    try:
        yield
    except expected as error:
        print(error_line(error), file=sys.stdout)
    else:
        print(t("error_display.no_error"))
