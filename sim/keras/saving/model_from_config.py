"""Models back from config.json: Sequential and functional graphs rebuilt layer by layer (a
functional model by calling each layer on the tensors its ``inbound_nodes`` name), then any
model built from its ``build_config`` and compiled from its ``compile_config``."""
from __future__ import annotations

from sim.keras.saving import config_in


def _sequential(config, custom_objects):
    from sim.keras.models import Sequential
    model = Sequential(name=config.get("name"))
    for item in config.get("layers", []):
        model.add(config_in.deserialize(item, custom_objects))
    shape = config.get("build_input_shape")
    if shape is not None and not model.built:
        model.build(tuple(shape))
    return model


def _functional(config, custom_objects, legacy=False):
    from sim.keras.layers.input_layer import InputLayer, flatten
    from sim.keras.models import Model
    made = {}                        # (layer name, node index, tensor index) -> KerasTensor

    def tensor(x):
        if isinstance(x, dict) and x.get("class_name") == "__keras_tensor__":
            name, node, index = x["config"]["keras_history"]
            key = (name, int(node), int(index))
            if key not in made:
                raise ValueError(f"The functional config names the tensor {list(key)}, which "
                                 "no earlier layer in the config produces.")
            return made[key]
        if isinstance(x, list):
            return [tensor(v) for v in x]
        if isinstance(x, dict):
            return {k: tensor(v) for k, v in x.items()}
        return x

    for item in config["layers"]:
        layer = config_in.deserialize({k: v for k, v in item.items() if k != "inbound_nodes"},
                                      custom_objects)
        if isinstance(layer, InputLayer):
            made[(layer.name, 0, 0)] = layer.output
            continue
        for index, node in enumerate(item.get("inbound_nodes", [])):
            if isinstance(node, list):       # tf-keras: [[layer, node, tensor, kwargs], ...]
                given = [made[(n[0], int(n[1]), int(n[2]))] for n in node]
                args, kwargs = [given[0] if len(given) == 1 else given], dict(node[0][3] or {})
            else:
                args = [tensor(a) for a in node.get("args", [])]
                kwargs = {k: tensor(v) for k, v in node.get("kwargs", {}).items()}
            outputs = layer(*args, **kwargs)
            for i, kt in enumerate(flatten(outputs)):
                made[(item.get("name", layer.name), index, i)] = kt

    def ends(x):
        if isinstance(x, list) and len(x) == 3 and isinstance(x[0], str):
            return made[(x[0], int(x[1]), int(x[2]))]
        if isinstance(x, dict):
            return {k: ends(v) for k, v in x.items()}
        return [ends(v) for v in x]

    def one(x):               # tf-keras lists a single input or output as [[name, 0, 0]]
        return x[0] if legacy and isinstance(x, list) and len(x) == 1 else x

    return Model(one(ends(config["input_layers"])), one(ends(config["output_layers"])),
                 name=config.get("name"))


def graph_model(item, custom_objects):
    if item["class_name"] == "Sequential":
        return _sequential(item["config"], custom_objects)
    legacy = str(item.get("module") or "").startswith("tf_keras")
    return _functional(item["config"], custom_objects, legacy)


def _compile(model, compile_config, custom_objects):
    optimizer = config_in.deserialize(compile_config.get("optimizer"), custom_objects)
    model.compile(optimizer=optimizer or "rmsprop",
                  loss=config_in.deserialize(compile_config.get("loss"), custom_objects),
                  loss_weights=compile_config.get("loss_weights"),
                  metrics=_each(compile_config.get("metrics"), custom_objects),
                  weighted_metrics=_each(compile_config.get("weighted_metrics"), custom_objects),
                  steps_per_execution=compile_config.get("steps_per_execution"))
    if model.built and model.trainable_variables:
        model.optimizer.build(model.trainable_variables)   # its slots, to load their values


def _each(items, custom_objects):
    if isinstance(items, list):
        return [config_in.deserialize(i, custom_objects) for i in items]
    if isinstance(items, dict) and not config_in.is_entry(items):
        return {k: _each(v, custom_objects) for k, v in items.items()}
    return config_in.deserialize(items, custom_objects)


def model_from_config(item, custom_objects=None, compile=True):
    """The model of a config.json, built and (with ``compile``) compiled."""
    from sim.keras.layers.base import Layer
    model = config_in.deserialize(item, custom_objects)
    if not isinstance(model, Layer):
        raise TypeError(f"The config describes a {type(model).__name__}, not a Keras model.")
    shape = (item.get("build_config") or {}).get("input_shape")
    if shape is not None and not model.built:
        model.build(tuple(shape))
    if compile and item.get("compile_config"):
        _compile(model, item["compile_config"], custom_objects)
    return model
