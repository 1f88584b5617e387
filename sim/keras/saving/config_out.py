"""sim.keras objects as Keras 3 writes them in a ``.keras`` file's ``config.json``.

Keras 3's ``serialize_keras_object`` gives every object ``{"module", "class_name", "config",
"registered_name"}`` (layers also ``build_config``; a model ``compile_config``). Built-in
layers carry every argument of their Keras 3 constructor (initializers and regularizers as
objects, dtype as a ``DTypePolicy``), so TensorFlow's Keras rebuilds what sim.tf saved; a
custom class is saved with what its own ``get_config`` returns, as Keras does.
"""
from __future__ import annotations

import numpy as np

from sim.keras import activations, backend
from sim.keras.saving import registry
from sim.keras.version import keras_major

_SIM_KEYS = ("batch_input_shape",)     # sim's Keras 2 keys Keras 3 does not take


def entry(module, class_name, config, registered_name=None):
    return {"module": module, "class_name": class_name, "config": config,
            "registered_name": registered_name}


def dtype_policy(name):
    """Keras 3's DTypePolicy object; tf-keras writes the dtype's name."""
    return entry("keras", "DTypePolicy", {"name": name}) if keras_major() == 3 else name


def _object(obj, module):
    """An initializer or regularizer (or None) as a Keras 3 object entry."""
    if obj is None:
        return None
    config = obj.get_config() if hasattr(obj, "get_config") else {}
    if type(obj).__name__ in ("GlorotUniform", "GlorotNormal", "HeNormal", "HeUniform",
                              "LecunNormal", "LecunUniform"):
        config = {"seed": config.get("seed")}
        if keras_major() == 3 and module == "keras.initializers":
            config.update(input_axes=None, output_axes=None)
    return entry(module, type(obj).__name__, config)


def _init(obj):
    return _object(obj, "keras.initializers")


def _reg(obj):
    return _object(obj, "keras.regularizers")


def _extras(layer) -> dict:
    """The Keras 3 arguments a built-in layer's sim config leaves out."""
    name = type(layer).__name__
    if name in ("Dense", "Conv2D"):
        extras = {"kernel_initializer": _init(layer.kernel_initializer),
                  "bias_initializer": _init(layer.bias_initializer),
                  "kernel_regularizer": _reg(layer.kernel_regularizer),
                  "bias_regularizer": _reg(layer.bias_regularizer),
                  "activity_regularizer": _reg(layer.activity_regularizer),
                  "kernel_constraint": None, "bias_constraint": None}
        if name == "Dense" and keras_major() == 3:   # Keras 3's Dense: no activity_regularizer key
            del extras["activity_regularizer"]
            extras["quantization_config"] = None
        return extras
    if name == "Embedding":
        last = {"quantization_config": None} if keras_major() == 3 else {"input_length": None}
        return {"embeddings_initializer": _init(layer.embeddings_initializer),
                "embeddings_regularizer": _reg(layer.embeddings_regularizer),
                "activity_regularizer": _reg(layer.activity_regularizer),
                "embeddings_constraint": None, **last}
    if name == "Flatten":
        return {"data_format": "channels_last"}
    return {}


BUILT_IN = {"Dense", "Conv2D", "Embedding", "Flatten", "Dropout", "Activation", "Reshape",
            "MaxPooling2D", "InputLayer"}


def jsonable(x):
    """Tuples as lists, NumPy scalars as numbers (what ``json`` can write)."""
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def input_layer(layer):
    shape_key = "batch_shape" if keras_major() == 3 else "batch_input_shape"
    return entry("keras.layers", "InputLayer", {
        shape_key: list(layer._batch_input_shape), "dtype": layer.dtype, "sparse": False,
        "ragged": False, "name": layer.name, "optional": False})


def _refuse(layer):
    from sim.keras import _errors
    raise NotImplementedError(_errors.msg("save_layer_unsupported", name=type(layer).__name__))


def layer(obj) -> dict:
    """One layer (or nested model) as Keras 3 serializes it."""
    from sim.keras.layers.input_layer import InputLayer
    if isinstance(obj, InputLayer):
        return input_layer(obj)
    if getattr(obj, "_is_graph_network", False):
        from sim.keras.saving import model_config
        return model_config.model(obj, with_compile=False)
    cls = type(obj)
    built_in = cls.__module__.startswith("sim.keras.")
    if built_in and cls.__name__ not in BUILT_IN:
        _refuse(obj)
    config = dict(obj.get_config())
    for key in _SIM_KEYS:
        config.pop(key, None)
    if built_in:
        config["dtype"] = dtype_policy(obj.dtype)
        config.update(_extras(obj))
        out = entry("keras.layers", cls.__name__, config)
    else:
        config.setdefault("name", obj.name)
        config.setdefault("trainable", obj.trainable)
        config.setdefault("dtype", dtype_policy(obj.dtype))
        out = entry(None if cls.__module__ == "__main__" else cls.__module__, cls.__name__,
                    config, registry.get_registered_name(cls))
    build = build_config(obj)
    if build is not None:
        out["build_config"] = build
    return jsonable(out)


def build_config(obj):
    """``{"input_shape": ...}`` for a built layer with weights or a model, as Keras records it."""
    shape = getattr(obj, "_build_input_shape", None)
    if not obj.built or shape is None:
        return None
    return {"input_shape": list(shape)}


def loss_or_metric(obj, module):
    """A compiled loss or metric: a name stays a name; an object or function gets an entry."""
    if obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, (list, tuple)):
        return [loss_or_metric(o, module) for o in obj]
    if isinstance(obj, dict):
        return {k: loss_or_metric(v, module) for k, v in obj.items()}
    if isinstance(obj, type):
        obj = obj()
    if hasattr(obj, "get_config"):
        return jsonable(entry(module, type(obj).__name__, obj.get_config()))
    name = getattr(obj, "__name__", str(obj))
    return entry(module, "function", name, name)


def optimizer(opt) -> dict:
    config = dict(opt.get_config())
    if isinstance(config.get("learning_rate"), (float, int)):
        config["learning_rate"] = float(np.float32(config["learning_rate"]))   # a float32 variable
    if keras_major() == 2:                  # tf-keras writes its optimizer's config as it is
        return jsonable(entry("keras.optimizers", type(opt).__name__, config))
    config.pop("is_legacy_optimizer", None)
    config.pop("jit_compile", None)
    if config.get("name") == type(opt).__name__:
        config["name"] = backend.to_snake_case(config["name"])
    lr = config.get("learning_rate")
    if isinstance(lr, (float, int)):
        config["learning_rate"] = float(np.float32(lr))
    elif isinstance(lr, dict):
        config["learning_rate"] = entry("keras.optimizers.schedules", lr["class_name"],
                                        lr["config"])
    config.setdefault("use_ema", False)
    config.setdefault("ema_momentum", 0.99)
    config.setdefault("ema_overwrite_frequency", None)
    config.setdefault("loss_scale_factor", None)
    config.setdefault("gradient_accumulation_steps", None)
    return jsonable(entry("keras.optimizers", type(opt).__name__, config))


def activation_name(fn):
    return activations.serialize(fn)
