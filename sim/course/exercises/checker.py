"""The shared case runner behind every exercise checker.

A checker builds a list of ``Case`` objects (inputs plus the expected answer), and calls
``run_cases``. Each case prints one line in the course language. A function that still raises
``NotImplementedError`` is reported as "not done yet" (not as a traceback); a wrong answer is
reported with the inputs, what came back, what was expected and, when the checker recognises
the mistake, a hint that names it. Any failure ends with ``ExerciseFailed`` (an AssertionError),
so a solution notebook under nbval fails loudly. In JupyterLab the learner sees the verdict only:
passed cases are printed, the failing verdict is the exception's whole display (IPython's
``_render_traceback_`` hook: no frames through the checker), and a checker returns nothing, so a
correct answer leaves no stray value as the cell's output.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

from sim.course.exercises.learner_line import where_raised
from sim.i18n import t


_ANSWERS_SHOWN: ContextVar[bool] = ContextVar("answers_shown", default=True)


@contextmanager
def without_answers() -> Iterator[None]:
    """Checks whose verdict names a wrong case and what came back, but not the expected value:
    an assignment's visible test (tools/assignments.py), where the expected value would give the
    answer away before grading. The hidden test runs the checker as the course does."""
    token = _ANSWERS_SHOWN.set(False)
    try:
        yield
    finally:
        _ANSWERS_SHOWN.reset(token)


class ExerciseFailed(AssertionError):
    """The learner's answer is missing or wrong; the message says which and why."""

    def _render_traceback_(self) -> list[str]:
        """What IPython shows for this error: the verdict's lines, no traceback frames."""
        return str(self).splitlines()


class ExerciseNotDone(ExerciseFailed):
    """The learner's function still raises NotImplementedError."""


@dataclass
class Case:
    """One check: call ``fn(*args, **kwargs)`` and compare with ``expected``."""
    description: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    expected: Any = None


def close(got: Any, expected: Any, rtol: float = 1e-6, atol: float = 1e-9) -> bool:
    """Equal numbers or arrays (same shape, within tolerance); other values by ==."""
    if isinstance(expected, (list, tuple)) and not _is_numeric_sequence(expected):
        return (isinstance(got, (list, tuple)) and len(got) == len(expected)
                and all(close(g, e, rtol, atol) for g, e in zip(got, expected)))
    try:
        g = np.asarray(got, dtype=float)
        e = np.asarray(expected, dtype=float)
    except (TypeError, ValueError):
        return got == expected
    return g.shape == e.shape and bool(np.allclose(g, e, rtol=rtol, atol=atol))


def _is_numeric_sequence(value: Any) -> bool:
    try:
        np.asarray(value, dtype=float)
        return True
    except (TypeError, ValueError):
        return False


def _short(value: Any) -> str:
    """The value as the learner wrote it: a list stays a Python list ([2, 2], not [2 2])."""
    if isinstance(value, (list, tuple)) and _is_numeric_sequence(value):
        text = repr(type(value)(np.asarray(value).tolist()))
    elif isinstance(value, np.ndarray):
        text = np.array2string(value, precision=4, threshold=8, separator=", ")
    else:
        text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def run_cases(fn: Callable, cases: list[Case],
              compare: Callable[[Any, Any], bool] = close,
              diagnose: Callable[[Case, Any], str | None] | None = None) -> None:
    """Run every case; print one verdict line per passed case; raise ExerciseFailed (whose
    message is the verdict) on the first failure.

    ``diagnose(case, got)`` may return a catalogue key for a hint that names a known mistake.
    Returns None, so the checker's call leaves no value as the cell's output.
    """
    if not callable(fn):
        raise ExerciseFailed(t("exercises.not_callable", got=type(fn).__name__))
    for number, case in enumerate(cases, start=1):
        try:
            got = fn(*case.args, **case.kwargs)
        except NotImplementedError:
            message = t("exercises.not_done", name=getattr(fn, "__name__", "?"))
            raise ExerciseNotDone(message) from None
        except Exception as error:  # the learner's code raised: show it as a verdict
            message = t("exercises.case_raised", number=number, case=case.description,
                        error=f"{type(error).__name__}: {error}")
            line = where_raised(error)
            if line is not None:
                message += "\n" + t("exercises.raised_at", line=line.number, code=line.code)
            raise ExerciseFailed(message) from error
        if not compare(got, case.expected):
            key = "exercises.case_wrong" if _ANSWERS_SHOWN.get() else "exercises.case_wrong_hidden"
            lines = [t(key, number=number, case=case.description, got=_short(got),
                       expected=_short(case.expected))]
            hint = diagnose(case, got) if diagnose else None
            if hint:
                lines.append(t(hint))
            message = "\n".join(lines)
            raise ExerciseFailed(message)
        print(t("exercises.case_ok", number=number, case=case.description))
    print(t("exercises.all_passed", n=len(cases)))
