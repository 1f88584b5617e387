"""A model's ``config.json`` entry as Keras 3 writes it: Sequential (its layers, an
``InputLayer`` first), functional (each layer with its ``inbound_nodes``, tensors named by
``keras_history`` = [layer name, node index, tensor index]), subclassed (its ``get_config``),
plus ``build_config`` and ``compile_config``."""
from __future__ import annotations

from sim.keras.saving import config_out, registry
from sim.keras.saving.config_out import dtype_policy, entry, jsonable
from sim.keras.version import keras_major


def _batch_free(shape):
    return None if shape is None else [None] + list(shape)[1:]


def _sequential(model) -> dict:
    layers = [config_out.layer(l) for l in model.layers]
    if model._input_layer is not None:
        layers.insert(0, config_out.input_layer(model._input_layer))
    config = {"name": model.name, "trainable": model.trainable,
              "dtype": dtype_policy(model.dtype), "layers": layers}
    if keras_major() == 2:                     # tf-keras: the name and the layers
        config = {"name": model.name, "layers": layers}
    shape = model._input_layer._batch_input_shape if model._input_layer is not None else None
    if shape is not None and keras_major() == 3:
        config["build_input_shape"] = list(shape)
    out = entry("keras", "Sequential", config)
    out["build_config"] = {"input_shape": None if shape is None else list(shape)}
    return out


def _functional(model) -> dict:
    from sim.keras.layers.input_layer import InputLayer, KerasTensor, flatten
    nodes_of = {}                       # id(layer) -> its nodes in this model, in order
    for node in model._nodes:
        nodes_of.setdefault(id(node.layer), []).append(node)

    def history(kt):
        node = kt._node
        index = next(i for i, n in enumerate(nodes_of[id(node.layer)]) if n is node)
        return [node.layer.name, index, next(i for i, t in enumerate(flatten(node.outputs))
                                             if t is kt)]

    def tensors(x):
        if isinstance(x, KerasTensor):
            return {"class_name": "__keras_tensor__", "config": {
                "shape": list(x.shape), "dtype": x.dtype.name, "keras_history": history(x)}}
        if isinstance(x, (list, tuple)):
            return [tensors(v) for v in x]
        if isinstance(x, dict):
            return {k: tensors(v) for k, v in x.items()}
        return x

    def legacy_node(n):       # tf-keras: [[layer, node, tensor, kwargs], ...] per call
        return [history(kt) + [{k: v for k, v in n.kwargs.items() if not isinstance(v, KerasTensor)}]
                for kt in flatten(n.inputs) if isinstance(kt, KerasTensor)]

    legacy = keras_major() == 2
    layers = []
    for layer in model._model_layers:
        item = config_out.layer(layer)
        item["name"] = layer.name
        item["inbound_nodes"] = [] if isinstance(layer, InputLayer) else [
            legacy_node(n) if legacy else
            {"args": [tensors(n.inputs)] + [tensors(a) for a in n.args],
             "kwargs": {k: tensors(v) for k, v in n.kwargs.items()}}
            for n in nodes_of[id(layer)]]
        layers.append(item)

    def ends(struct):
        if isinstance(struct, dict):
            return {k: ends(v) for k, v in struct.items()}
        if isinstance(struct, (list, tuple)):
            return [ends(v) for v in struct]
        return history(struct)

    inputs, outputs = ends(model._inputs_struct), ends(model._outputs_struct)
    if legacy and isinstance(inputs[0], str):
        inputs = [inputs]
    if legacy and isinstance(outputs[0], str):
        outputs = [outputs]
    config = {"name": model.name, "trainable": model.trainable, "layers": layers,
              "input_layers": inputs, "output_layers": outputs}
    module = "tf_keras.src.engine.functional" if legacy else "keras.src.models.functional"
    out = entry(module, "Functional", config, "Functional")
    shape = model.inputs[0].shape if legacy and len(model.inputs) == 1 else None
    out["build_config"] = {"input_shape": None if shape is None else list(shape)}
    return out


def _subclassed(model) -> dict:
    cls = type(model)
    config = dict(model.get_config())
    if keras_major() == 3:
        config.setdefault("name", model.name)
        config.setdefault("trainable", model.trainable)
        config.setdefault("dtype", dtype_policy(model.dtype))
    out = entry(None if cls.__module__ == "__main__" else cls.__module__, cls.__name__, config,
                registry.get_registered_name(cls))
    out["build_config"] = {"input_shape": _batch_free(getattr(model, "_build_input_shape", None))}
    return out


def compile_config(model) -> dict:
    if not getattr(model, "_is_compiled", False) or model.optimizer is None:
        return {}
    loss, metrics = model.compiled_loss, model.compiled_metrics
    return jsonable({
        "optimizer": config_out.optimizer(model.optimizer),
        "loss": config_out.loss_or_metric(loss._user_losses, "keras.losses"),
        "loss_weights": loss._user_loss_weights,
        "metrics": config_out.loss_or_metric(metrics._user_metrics, "keras.metrics"),
        "weighted_metrics": config_out.loss_or_metric(metrics._user_weighted_metrics,
                                                      "keras.metrics"),
        "run_eagerly": bool(getattr(model, "_run_eagerly", False)),
        "steps_per_execution": int(getattr(model, "_steps_per_execution", 1)),
        "jit_compile": False} if keras_major() == 3 else {   # tf-keras: what compile was given
        "optimizer": config_out.optimizer(model.optimizer),
        "loss": config_out.loss_or_metric(loss._user_losses, "keras.losses"),
        "metrics": config_out.loss_or_metric(metrics._user_metrics, "keras.metrics"),
        "loss_weights": loss._user_loss_weights,
        "weighted_metrics": config_out.loss_or_metric(metrics._user_weighted_metrics,
                                                      "keras.metrics"),
        "run_eagerly": getattr(model, "_run_eagerly", None), "steps_per_execution": None,
        "jit_compile": None})


def model(obj, with_compile=True) -> dict:
    """The whole model's entry (the top of config.json)."""
    from sim.keras.models.functional import Functional
    from sim.keras.models.sequential import Sequential
    if type(obj) is Sequential:
        out = _sequential(obj)
    elif type(obj) is Functional:
        out = _functional(obj)
    else:
        out = _subclassed(obj)
    if with_compile:
        out["compile_config"] = compile_config(obj)
    return jsonable(out)
