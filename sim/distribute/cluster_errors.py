"""The two shapes of a cluster error message (catalogue ``sim/i18n/catalogs/cluster.json``).

``annotate``: TensorFlow's English text, then (course language zh/pt) why and what to change;
used by ``ClusterSpec``, whose TensorFlow texts already say what is wrong.
``with_fix``: TensorFlow's text when it has one, then in every course language the TF_CONFIG
field at fault and a corrected TF_CONFIG, built from the learner's own one where possible.
"""
from __future__ import annotations

import json


def annotate(tf_text, key, **fields):
    """``tf_text``, plus the ``cluster.<key>`` note when the course language is not English."""
    from sim import i18n
    if i18n.get_language() == "en":
        return tf_text
    return f"{tf_text}\n{i18n.t('cluster.' + key, **fields)}"


def with_fix(tf_text, key, example, **fields):
    """``tf_text`` (None when TensorFlow raises nothing of its own), then ``cluster.<key>``
    with ``example`` (a corrected TF_CONFIG dict) shown as the JSON to write."""
    from sim import i18n
    note = i18n.t("cluster." + key, example=to_json(example), **fields)
    return note if tf_text is None else f"{tf_text}\n{note}"


def to_json(config):
    """TF_CONFIG text as the tutorials write it: one line, keys sorted ("cluster" then "task")."""
    return json.dumps(config, sort_keys=True)
