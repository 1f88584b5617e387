"""TensorFlow's English error text, followed by the course-language explanation and fix.

Tests match TensorFlow's text (the start of the message). A learner whose course language is
not English also reads why it happened and what to change (``sim/i18n/catalogs/distribute.json``;
the "en" entries exist so the three languages hold the same keys, and serve ``sim.i18n.t``).
"""
from __future__ import annotations


def explain(tf_text, key, **fields):
    """``tf_text``, plus the ``distribute.<key>`` note when the course language is not English."""
    from sim import i18n
    if i18n.get_language() == "en":
        return tf_text
    key = key if "." in key else "distribute." + key     # another domain's key, e.g. "misuse.x"
    return f"{tf_text}\n{i18n.t(key, **fields)}"
