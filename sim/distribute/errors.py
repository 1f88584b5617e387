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


def addn_shape_error(shapes, device):
    """TensorFlow's AddN kernel error when one device sums values of different shapes
    (ReductionToOneDevice's accumulation, run on TF 2.21), with sim's note on why and the fix."""
    from sim.engine.errors import InvalidArgumentError
    from sim.engine.device import canonical
    from sim.i18n import join_list
    shapes = [tuple(s) for s in shapes]
    bad = next(i for i, s in enumerate(shapes) if s != shapes[0])
    show = "[{}]".format                                      # TF writes shapes as [3,1]
    node = f"__wrapped__AddN_N_{len(shapes)}_device_{canonical(device)}" if device else "AddN"
    return InvalidArgumentError(explain(
        f"{{{{function_node {node}}}}} Inputs to operation AddN of type AddN must have the same size "
        f"and shape.  Input 0: {show(','.join(map(str, shapes[0])))} != input {bad}: "
        f"{show(','.join(map(str, shapes[bad])))} [Op:AddN] name: ",
        "reduce_shape_mismatch", shapes=join_list(str(s) for s in shapes)))
