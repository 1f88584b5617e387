"""``Model``: a Keras model built from layers, its weights and files (tf-keras training.py).

What it does with data (compile, fit, evaluate, predict) is its ``Trainer`` side (trainer.py),
as in Keras 3. The model captures the strategy it is created under.
"""
from __future__ import annotations

import sim.tf as tf

from sim.keras import compile_utils, distribute_utils as du, keras3_tracking, weight_names
from sim.keras.layers.base import Layer
from sim.keras.layers.call_inputs import shape_tuple
from sim.keras.saving import routes as saving_routes
from sim.keras.trainer import Trainer


def _is_functional_args(args, kwargs):
    return (len(args) == 2 or (len(args) == 1 and "outputs" in kwargs)
            or ("inputs" in kwargs and "outputs" in kwargs))


class Model(Trainer, Layer):
    """A layer with training: subclass it, or call ``Model(inputs, outputs)``."""

    def __new__(cls, *args, **kwargs):
        if cls is Model and _is_functional_args(args, kwargs):
            from sim.keras.models.functional import Functional

            return Functional(*args, **kwargs)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        super().__init__(name=name, trainable=trainable, dtype=kwargs.pop("dtype", None))
        self._distribution_strategy = du.get_strategy() if du.has_strategy() else None
        self._creation_strategy = self._distribution_strategy     # Keras 3's _distribute_strategy
        self.optimizer = None
        self.compiled_loss = None
        self.compiled_metrics = None
        self._is_compiled = False
        self.stop_training = False
        self.history = None
        self._train_counter = 0
        self._training_state = None
        self.distribute_reduction_method = "auto"
        self._steps_per_execution = 1

    # ------------------------------------------------------------ structure

    @property
    def distribute_strategy(self):
        return self._distribution_strategy or du.get_strategy()

    @property
    def layers(self):
        return [l for l in self._tracked_layers if not isinstance(l, compile_utils.metrics_mod.Metric)]

    def get_layer(self, name=None, index=None):
        if index is not None:
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[l.name for l in self.layers]}.")

    def build(self, input_shape):
        """Build a subclassed model by calling it on zeros of ``input_shape``."""
        if self.built:
            return
        if type(self).call is Model.call:
            self.built = True
            return
        shape = tuple(1 if d is None else d for d in input_shape)
        self.built = True
        with weight_names.building(self, by_call=False):
            self.call(tf.zeros(shape), **({"training": False} if self._call_accepts_training else {}))
        self._build_input_shape = tuple(input_shape)

    def _maybe_build(self, inputs):
        if not self.built and type(self).build is Model.build and type(self).call is not Model.call:
            keras3_tracking.symbolic_first_build(self, inputs)   # while a restore waits
        if not self.built:
            self._build_input_shape = shape_tuple(inputs) if hasattr(inputs, "shape") else None
            self.built = True

    def call(self, inputs, training=None, mask=None):
        raise NotImplementedError(
            "Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with the "
            "Functional API, please provide `inputs` and `outputs` arguments. Otherwise, subclass "
            "`Model` with an overridden `call()` method.")

    # ------------------------------------------------------------ compile

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Writes the weights; returns None, as both Kerases do."""
        saving_routes.save_weights(self, filepath, overwrite=overwrite)

    def load_weights(self, filepath, by_name=False, skip_mismatch=False, options=None):
        return saving_routes.load_weights(self, filepath, skip_mismatch=skip_mismatch)

    def save(self, filepath, overwrite=True, save_format=None, **kwargs):
        """The format the path names (sim/keras/saving/routes.py): ``.keras`` is Keras 3's."""
        saving_routes.save(self, filepath, overwrite=overwrite, save_format=save_format, **kwargs)
        # returns None, as Keras does (a notebook cell ending in model.save shows nothing)

    def save_spec(self, dynamic_batch=True):
        """tf-keras's ``Model.save_spec()`` (save_spec.py); Keras 3 has none."""
        from sim.keras.save_spec import save_spec
        return save_spec(self, dynamic_batch)

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        from sim.keras.models.summary import print_summary

        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn)

    def get_config(self):
        return {"name": self.name}

    def _get_compile_args(self):
        self._assert_compile_was_called()
        return {"optimizer": self.optimizer, "loss": self.compiled_loss._user_losses,
                "metrics": self.compiled_metrics._user_metrics}
