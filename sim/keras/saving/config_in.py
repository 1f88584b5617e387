"""Objects back from Keras 3 config entries: layers, initializers, regularizers, optimizers,
schedules, losses and metrics of the subset, and custom classes (registry.py).

A built-in's config holds every argument of its Keras 3 constructor; sim's classes take the
ones the subset simulates, so an argument sim lacks is dropped when it has Keras's neutral value
(None, False, ...) and refused with NotImplementedError naming it otherwise.
"""
from __future__ import annotations

import inspect

from sim.keras.saving import registry

_NEUTRAL = (None, False, 0, "channels_last", 1, [1, 1], (1, 1), {})


def _tables():
    from sim.keras import initializers, layers, losses, metrics, models, optimizers, regularizers
    from sim.keras.optimizers import schedules
    layer_classes = {k: v for k, v in vars(layers).items() if isinstance(v, type)}
    layer_classes.update({"Sequential": models.Sequential, "Functional": models.Functional,
                          "Model": models.Model})
    return {
        "keras.layers": layer_classes, "keras": layer_classes,
        "keras.src.models.functional": layer_classes, "keras.models": layer_classes,
        "keras.src.engine.functional": layer_classes,
        "keras.initializers": dict(initializers._BY_NAME),
        "keras.regularizers": dict(regularizers._BY_NAME),
        "keras.optimizers": {k: v for k, v in vars(optimizers).items() if isinstance(v, type)},
        "keras.optimizers.schedules": dict(schedules._BY_NAME),
        "keras.losses": dict(losses._CLASSES), "keras.metrics": dict(metrics._CLASSES)}


def is_entry(x) -> bool:
    return isinstance(x, dict) and "class_name" in x and "config" in x


def built_in_class(item):
    """The sim class a Keras-module entry names (None for a custom one)."""
    module = item.get("module") or ""
    if module.startswith("tf_keras."):          # tf-keras's own module names
        module = "keras" + module[len("tf_keras"):]
    if not module:                               # legacy .h5 configs name no module
        module = "keras.layers"
    table = _tables().get(module)
    if table is None and module.startswith("keras."):
        table = _tables().get(".".join(module.split(".")[:2]))
    return None if table is None else table.get(item["class_name"])


def fit_arguments(cls, config, what):
    """``config`` narrowed to what ``cls`` takes; a non-neutral argument it lacks is refused."""
    from sim.keras import _errors
    params = {}
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is not None:
            params.update(inspect.signature(init).parameters)
    takes_any = any(p.kind == p.VAR_KEYWORD for p in inspect.signature(cls.__init__).parameters.values())
    known = set(params) | ({"name", "trainable", "dtype"} if takes_any else set())
    if takes_any:            # a Layer takes these through **kwargs
        known |= {"batch_input_shape", "input_shape", "batch_size", "input_dim",
                  "activity_regularizer"}
    out = {}
    for key, value in config.items():
        if key in known:
            out[key] = value
        elif value not in _NEUTRAL:
            raise NotImplementedError(_errors.msg("load_argument_unsupported", what=what,
                                                  arg=key, value=value))
    return out


def _plain(value, custom_objects):
    if is_entry(value):
        if value["class_name"] == "DTypePolicy":
            return value["config"]["name"]
        return deserialize(value, custom_objects)
    if isinstance(value, list):
        return [_plain(v, custom_objects) for v in value]
    return value


def deserialize(item, custom_objects=None):
    """The object a Keras 3 entry describes (names, numbers and None pass through)."""
    if not is_entry(item):
        return item
    class_name, config = item["class_name"], item["config"]
    if class_name == "function":
        found = registry.get_registered_object(item.get("registered_name") or config,
                                               custom_objects)
        return found if found is not None else config
    if class_name == "DTypePolicy":
        return config["name"]
    cls = built_in_class(item)
    if cls is None:
        cls = registry.lookup(class_name, item.get("registered_name"), custom_objects, item)
        inner = dict(config)
        if is_entry(inner.get("dtype")):
            inner["dtype"] = inner["dtype"]["config"]["name"]
        with registry.custom_object_scope(custom_objects):
            return cls.from_config(inner)
    if class_name in ("Sequential", "Functional"):
        from sim.keras.saving import model_from_config
        return model_from_config.graph_model(item, custom_objects)
    kwargs = {k: _plain(v, custom_objects) for k, v in config.items()}
    if item.get("module") == "keras.optimizers":
        kwargs = fit_arguments(cls, kwargs, class_name)
        return cls(**kwargs)
    if class_name == "InputLayer":
        shape = kwargs.pop("batch_shape", None) or kwargs.pop("batch_input_shape")
        kwargs["batch_input_shape"] = tuple(shape)
    return cls(**fit_arguments(cls, kwargs, class_name))
