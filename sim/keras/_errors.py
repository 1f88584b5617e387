"""Learner-facing errors: TensorFlow's English text first (tests match it), then the fix.

The course explanation comes from the ``keras`` catalogue in the course language.
"""
from __future__ import annotations

from sim import i18n


def msg(key: str, tf_text: str | None = None, **fields) -> str:
    """TensorFlow's text (if it has one) followed by the course explanation."""
    course = i18n.t("keras." + key, **fields)
    return f"{tf_text}\n{course}" if tf_text else course


def known_list(names) -> str:
    return ", ".join(repr(n) for n in sorted(names))
