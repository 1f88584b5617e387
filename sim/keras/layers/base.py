"""The Keras ``Layer``: weights created on first call, named as the selected Keras names them
("dense/kernel:0" in tf-keras, "kernel" with path "dense/kernel" in Keras 3: weight_names.py).

Weights are plain ``tf.Variable``s, so a strategy scope (through tf.variable_creator_scope)
turns them into distributed variables without Keras knowing. Sub-layers and variables set as
attributes are tracked (as Keras does) so models find every weight.
"""
from __future__ import annotations

import inspect

import numpy as np

import sim.tf as tf

from sim.distribute.memory_capacity import initial_value
from sim.keras import backend, initializers, keras3_tracking, regularizers, restoring, weight_names
from sim.keras.layers.dtype_policy import DTypePolicyMixin, call_in_scope, mark_autocast
from sim.keras.mixed_precision import policy as dtype_policies
from sim.keras.layers.call_inputs import (_dedupe, _fmt_shape, _map, _to_tensors,  # noqa: F401
                                         batch_input_shape_of, check_input, is_shape, is_symbolic,
                                         output_shape_by_call, shape_tuple)
from sim.keras.version import keras_major

_call_depth = [0]


def is_variable(v) -> bool:
    return isinstance(v, tf.Variable) or (
        hasattr(v, "assign") and hasattr(v, "trainable") and hasattr(v, "read_value")
        and not isinstance(v, Layer))


class Layer(DTypePolicyMixin):
    """Base layer: override ``build(input_shape)`` and ``call(inputs)``."""

    _keras3_private_weights: tuple = ()   # Keras 3 keeps these as '_name' (keras3_tracking.py)
    _checkpoint_name = keras3_tracking.checkpoint_name

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
        object.__setattr__(self, "_tracked_layers", [])
        object.__setattr__(self, "_tracked_vars", [])
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._callable_losses = []
        self._eager_losses = []
        self._trainable = bool(trainable)
        self._name = name or backend.unique_object_name(backend.to_snake_case(type(self).__name__))
        self._dtype_policy = dtype_policies.get(dtype)     # dtype_policy.py: mixed precision
        self._dtype = self._dtype_policy.variable_dtype
        self.built = False
        self.supports_masking = False
        self._input_last_dim = None
        self._min_ndim = None
        self._build_input_shape = None
        self._output_shape = None
        self._inbound_nodes = []
        self.activity_regularizer = regularizers.get(kwargs.pop("activity_regularizer", None))
        self._batch_input_shape = batch_input_shape_of(kwargs)
        for k in ("autocast", "input_length", "weights"):
            kwargs.pop(k, None)
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]!r} "
                            f"(layer {type(self).__name__}).")
        params = inspect.signature(self.call).parameters
        self._call_accepts_training = "training" in params or any(
            p.kind == p.VAR_KEYWORD for p in params.values())

    # ------------------------------------------------------------ attributes & tracking

    def __setattr__(self, name, value):
        if not name.startswith("__"):
            tracked = self.__dict__.get("_tracked_layers")
            if tracked is not None:
                if isinstance(value, Layer) and value is not self:
                    if all(value is not t for t in tracked):
                        tracked.append(value)
                elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Layer) for v in value):
                    for v in value:
                        if all(v is not t for t in tracked):
                            tracked.append(v)
                elif (is_variable(value) and not isinstance(value, Layer)
                      and not getattr(value, "_is_sharded_variable", False)):
                    tv = self.__dict__["_tracked_vars"]
                    if all(value is not t for t in tv):
                        tv.append(value)
        object.__setattr__(self, name, value)
        keras3_tracking.check_assigned(self, value)   # Keras 3's first build, a restore waiting

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for layer in self._tracked_layers:
            layer.trainable = value

    def _flatten_layers(self, include_self=True):
        seen = set()
        out = []
        stack = [self]
        while stack:                      # depth first, children in order (no recursive closure:
            layer = stack.pop()           # it would be a reference cycle on every call)
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            out.append(layer)
            stack.extend(reversed(layer._sublayers()))
        return out if include_self else out[1:]

    def _sublayers(self):
        return self._tracked_layers
    # ------------------------------------------------------------ weights

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, use_resource=None,
                   synchronization=None, aggregation=None, **kwargs):
        shape = tuple(int(s) for s in (shape or ()))
        dtype = str(getattr(dtype, "name", dtype)) if dtype is not None else self._dtype
        if initializer is None:
            initializer = "glorot_uniform" if np.dtype(dtype).kind == "f" else "zeros"
        init = initializers.get("zeros" if restoring.active() else initializer)   # restoring.py
        sync = synchronization or tf.VariableSynchronization.AUTO
        if trainable is None:
            trainable = sync != tf.VariableSynchronization.ON_READ
        value = initial_value(init, shape, dtype, name)     # TensorFlow's OOM if it cannot fit
        keras3 = keras_major() == 3
        name = name or ("variable" if keras3 else "Variable")
        var = tf.Variable(value, trainable=trainable,
                          name=name if keras3 else weight_names.tf_keras_name(name),
                          dtype=getattr(tf, dtype),
                          synchronization=sync,
                          aggregation=aggregation or tf.VariableAggregation.NONE)
        if keras3 and not getattr(var, "_is_sharded_variable", False):
            weight_names.as_keras3(var, name, weight_names.keras3_path(self, name))
        mark_autocast(var)
        # A ShardedVariable (ParameterServerStrategy with a partitioner) is tracked as its shards.
        (self._trainable_weights if trainable else self._non_trainable_weights).extend(
            var.variables if getattr(var, "_is_sharded_variable", False) else [var])
        reg = regularizers.get(regularizer)
        if reg is not None:
            self._callable_losses.append(lambda r=reg, v=var: r(v))
        return var

    def _own_weights(self):
        own = self._trainable_weights + self._non_trainable_weights
        extra = [v for v in self._tracked_vars if all(v is not w for w in own)]
        return own, extra

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        own, extra = self._own_weights()
        out = list(self._trainable_weights) + [v for v in extra if getattr(v, "trainable", True)]
        for layer in self._sublayers():
            out += layer.trainable_weights
        return _dedupe(out)

    @property
    def non_trainable_weights(self):
        own, extra = self._own_weights()
        if self.trainable:
            out = list(self._non_trainable_weights) + [v for v in extra if not getattr(v, "trainable", True)]
            for layer in self._sublayers():
                out += layer.non_trainable_weights
        else:
            out = own + extra
            for layer in self._sublayers():
                out += layer.weights
        return _dedupe(out)

    @property
    def weights(self):
        return _dedupe(self.trainable_weights + self.non_trainable_weights)

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def get_weights(self):
        return [np.array(backend.get_value(v)) for v in self.weights]

    def set_weights(self, weights):
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(
                f"You called `set_weights(weights)` on layer \"{self.name}\" with a weight list of "
                f"length {len(weights)}, but the layer was expecting {len(params)} weights.")
        for v, w in zip(params, weights):
            w = np.asarray(w)
            if tuple(v.shape) != w.shape:
                raise ValueError(
                    f"Layer {self.name} weight shape {tuple(v.shape)} is not compatible with "
                    f"provided weight shape {w.shape}.")
            v.assign(w)

    def count_params(self):
        if not self.built and not self.weights:
            raise ValueError(
                f"You tried to call `count_params` on layer {self.name}, but the layer isn't "
                "built. You can build it manually via: "
                f"`{self.name}.build(batch_input_shape)`.")
        return backend.count_params(self.weights)

    # ------------------------------------------------------------ losses

    def add_loss(self, loss):
        if callable(loss):
            self._callable_losses.append(loss)
        else:
            self._eager_losses.append(loss)

    @property
    def losses(self):
        out = []
        for layer in self._flatten_layers():
            out.extend(layer._eager_losses)
            out.extend(fn() for fn in layer._callable_losses)
        return out

    def _clear_losses(self):
        for layer in self._flatten_layers():
            if layer._eager_losses:
                layer._eager_losses = []

    # ------------------------------------------------------------ calling

    def build(self, input_shape):
        self._build_input_shape = input_shape
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def _maybe_build(self, inputs):
        if self.built:
            return
        shapes = _map(shape_tuple, inputs)
        self.build(shapes)
        self._build_input_shape = shapes
        self.built = True
        from sim.storage.deferred_restore import apply_pending
        apply_pending()              # a checkpoint restored before these weights existed

    def _check_input(self, inputs):
        check_input(self, inputs)
    def __call__(self, inputs, *args, **kwargs):
        if is_symbolic(inputs):
            from sim.keras.layers.input_layer import call_symbolic

            return call_symbolic(self, inputs, args, kwargs)
        inputs = _to_tensors(inputs, self._dtype_policy._compute_dtype)
        with weight_names.building(self):
            if not self.built:
                self._maybe_build(inputs)
            self._check_input(inputs)
            if not self._call_accepts_training:
                kwargs.pop("training", None)
            outer = _call_depth[0] == 0
            if outer:
                self._clear_losses()
            _call_depth[0] += 1
            try:
                outputs = call_in_scope(self, inputs, args, kwargs)   # autocast (dtype_policy.py)
            finally:
                _call_depth[0] -= 1
        if self.activity_regularizer is not None:
            reg = self.activity_regularizer(outputs)
            self._eager_losses.append(reg / float(shape_tuple(outputs)[0] or 1))
        return outputs

    def compute_output_shape(self, input_shape):
        """The output shape, by running ``call`` on zeros (as Keras traces symbolically)."""
        return output_shape_by_call(self, input_shape)

    # ------------------------------------------------------------ config

    def get_config(self):
        config = {"name": self.name, "trainable": self.trainable, "dtype": self._dtype}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = self._batch_input_shape
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__module__.replace('sim.keras', 'keras')}.{type(self).__name__} name={self.name}>"
