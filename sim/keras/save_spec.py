"""``Model.save_spec()`` as tf-keras has it: the TensorSpecs of the inputs of the model's first
call (``((specs...), {})``), batch dimension None when ``dynamic_batch``; None before that call.
Keras 3 removed it, so there it is an AttributeError, as Keras 3's Model has no such attribute."""
from __future__ import annotations


def save_spec(model, dynamic_batch=True):
    from sim.keras.version import keras_major
    if keras_major() == 3:
        raise AttributeError(f"'{type(model).__name__}' object has no attribute 'save_spec'")
    shape = getattr(model, "_build_input_shape", None)
    layers = getattr(model, "layers", None)
    if shape is None and layers and type(model).__name__ == "Sequential":
        shape = getattr(layers[0], "_build_input_shape", None)   # built by its first call
    if shape is None or not model.built:
        return None
    from sim.engine.spec import TensorSpec

    name = f"{layers[0].name}_input" if layers and type(model).__name__ == "Sequential" else None

    def spec(s):
        s = tuple(s)
        return TensorSpec((None,) + s[1:] if dynamic_batch and s else s, "float32", name=name)
    several = isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], (list, tuple))
    return [spec(s) for s in shape] if several else [spec(shape)], {}
