"""TensorFlow's English error text, then the ``ps.<key>`` note in the course language."""
from __future__ import annotations


def explain(tf_text, key, **fields):
    """``tf_text`` alone in English; with the course-language note otherwise."""
    from sim import i18n
    if i18n.get_language() == "en":
        return tf_text
    return f"{tf_text}\n{i18n.t('ps.' + key, **fields)}"
