"""Where each object's variables go in ``model.weights.h5``: Keras 3's ``_walk_saveable``.

Keras 3 visits the model, then (Sequential and functional) its ``layers`` list, then every
attribute in sorted order (private ones last) that is a layer, an optimizer or a list/dict of
them; an object reached twice is saved at the first path only. A list's items are named by
class in snake case, counted per name (``layers/dense``, ``layers/dense_1``); an attribute by
its own name (``d1``, ``optimizer``). Each object's own variables (a layer's trainable ones,
then the rest; an optimizer's ``variables``) go to ``<path>/vars/0``, ``1``, ...

tf-keras (``TF_USE_LEGACY_KERAS=1``) walks differently: every attribute in reverse sorted order
(so a model's ``optimizer``, then ``metrics``, then ``layers``), metrics are saved too, and a
list item already saved does not take a name.
"""
from __future__ import annotations

from sim.keras import backend
from sim.keras.version import keras_major

# sim's internal attributes that hold layers (Keras 3 has none of them, or skips them).
_INTERNAL = {"_tracked_layers", "_tracked_vars", "_seq_layers", "_input_layer", "_model_layers",
             "_nodes", "_compute_nodes", "_inputs_struct", "_outputs_struct", "inputs",
             "outputs", "optimizer", "compiled_loss", "compiled_metrics", "_trainable_weights",
             "_non_trainable_weights", "output", "_inbound_nodes"}


def _is_layer(x):
    from sim.keras.layers.base import Layer
    from sim.keras.metrics import Metric
    return isinstance(x, Layer) and not isinstance(x, Metric)


def _is_saveable(x):
    from sim.keras.metrics import Metric
    from sim.keras.optimizers.optimizer import Optimizer
    if keras_major() == 2 and isinstance(x, Metric):   # tf-keras saves metrics' variables too
        return True
    return _is_layer(x) or isinstance(x, Optimizer)


def _holds_saveables(x):
    if isinstance(x, dict):
        x = list(x.values())
    return isinstance(x, (list, tuple)) and any(
        _is_saveable(v) or _holds_saveables(v) for v in x)


def _sort_key(name):
    return "~" + name if name.startswith("_") else name


def _children(obj):
    """(attribute, child) in the order Keras 3 visits them."""
    from sim.keras.training import Model
    legacy = keras_major() == 2
    graph = getattr(obj, "_is_graph_network", False)
    if graph and not legacy:
        yield "layers", obj.layers
    attrs = {k: v for k, v in vars(obj).items()
             if k not in _INTERNAL and not k.startswith("__")
             and (_is_saveable(v) or _holds_saveables(v))}
    if isinstance(obj, Model):
        if legacy or not graph:
            attrs["layers"] = obj.layers
        if legacy:
            attrs["metrics"] = list(obj.metrics)
        if getattr(obj, "optimizer", None) is not None and getattr(obj, "_is_compiled", False):
            attrs["optimizer"] = obj.optimizer
    order = sorted(attrs, reverse=True) if legacy else sorted(attrs, key=_sort_key)
    for name in order:
        yield name, attrs[name]


def own_variables(obj):
    """The variables Keras 3 saves for ``obj`` itself, in its order (a sharded variable whole)."""
    from sim.keras.metrics import Metric
    from sim.keras.optimizers.optimizer import Optimizer
    if isinstance(obj, (Optimizer, Metric)):
        return list(obj.variables)
    own = list(obj._trainable_weights) + list(obj._non_trainable_weights)
    sharded = [v for v in vars(obj).values() if getattr(v, "_is_sharded_variable", False)]
    out, done = [], set()
    for v in own:
        whole = next((s for s in sharded if any(p is v for p in s.variables)), None)
        if whole is None:
            out.append(v)
        elif id(whole) not in done:
            done.add(id(whole))
            out.append(whole)
    return out


def _join(path, name):
    return f"{path}/{name}" if path else name


def walk(model):
    """[(path, object)] for every saveable reachable from ``model``, as Keras 3 names them."""
    out, seen = [], set()

    def visit(obj, path):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        out.append((path, obj))
        for name, child in _children(obj):
            if _is_saveable(child):
                visit(child, _join(path, name))
            else:
                container(child, _join(path, name))

    def container(items, path):
        counts = {}
        for item in (list(items.values()) if isinstance(items, dict) else items):
            if keras_major() == 2 and id(item) in seen:
                continue                    # tf-keras: a saved item takes no name
            if _is_saveable(item):
                name = _unique(backend.to_snake_case(type(item).__name__), counts)
                visit(item, _join(path, name))
            elif _holds_saveables(item):
                container(item, _join(path, _unique("container", counts)))

    visit(model, "")
    return out


def _unique(name, counts):
    if name in counts:
        counts[name] += 1
        return f"{name}_{counts[name]}"
    counts[name] = 0
    return name


def saved_name(obj):
    """The ``name`` attribute Keras writes on each ``vars`` group."""
    from sim.keras.optimizers.optimizer import Optimizer
    if isinstance(obj, Optimizer):
        return obj._path_name if obj.name == type(obj).__name__ else obj.name
    return obj.name
