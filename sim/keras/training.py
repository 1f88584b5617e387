"""``Model``: compile, fit, evaluate, predict, train_step/test_step, weights (tf-keras training.py).

The model captures the strategy it is created under; fit/evaluate/predict run every step as
``strategy.run(train_step, args=(batch,))`` and reduce the per-replica results with
``reduce_per_replica`` ("sum", "first" on TPU), so the same code runs on one device or many.
The helpers the loops share (validation data, one pass of batches, logs to NumPy, predict's
joined outputs) are in training_utils.py.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import (_errors, backend, callbacks as callbacks_mod, compile_utils,
                       data_adapter, distribute_utils as du, optimizers, weight_names)
from sim.keras.saving import routes as saving_routes
from sim.keras.compile_metrics import CompileMetrics
from sim.keras.layers.base import Layer, shape_tuple
from sim.keras.training_utils import (_batches, _concat_outputs, _logs_result, _numpy_logs,
                                      _resolve_verbose, _should_eval, _split_validation,
                                      _unpack_validation)

_SCOPE_TEXT = ("Variable ({}) was not created in the distribution strategy scope of ({}). It is "
               "most likely because some layers, model, or optimizer was being created outside "
               "the distribution strategy scope. Try to make sure your code looks similar to the "
               "following.\nwith strategy.scope():\n  model=_create_model()\n  model.compile(...)")
_NOT_COMPILED_TEXT = ("You must compile your model before training/testing. Use "
                      "`model.compile(optimizer, loss)`.")


def _is_functional_args(args, kwargs):
    return (len(args) == 2 or (len(args) == 1 and "outputs" in kwargs)
            or ("inputs" in kwargs and "outputs" in kwargs))


class Model(Layer):
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
        if not self.built:
            self._build_input_shape = shape_tuple(inputs) if hasattr(inputs, "shape") else None
            self.built = True

    def call(self, inputs, training=None, mask=None):
        raise NotImplementedError(
            "Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with the "
            "Functional API, please provide `inputs` and `outputs` arguments. Otherwise, subclass "
            "`Model` with an overridden `call()` method.")

    # ------------------------------------------------------------ compile

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, pss_evaluation_shards=0, **kwargs):
        if self._distribution_strategy is None and du.has_strategy():
            self._distribution_strategy = du.get_strategy()
        with self.distribute_strategy.scope():
            self.optimizer = optimizers.get(optimizer)
            names = getattr(self, "output_names", None)
            self.compiled_loss = compile_utils.LossesContainer(loss, loss_weights, names)
            self.compiled_metrics = compile_utils.MetricsContainer(metrics, weighted_metrics, names)
            self.loss = loss
            self._steps_per_execution = int(steps_per_execution or 1)
            self._run_eagerly = run_eagerly
            self._validate_compile()
            self._is_compiled = True

    def _validate_compile(self):
        """tf-keras refuses variables made outside the model's strategy scope at compile; Keras 3
        accepts them, and its first training step fails (_check_trainable_in_scope)."""
        from sim.keras.version import keras_major
        if keras_major() == 3:
            return
        strategy = self.distribute_strategy
        for v in self.variables:
            if not strategy.extended.variable_created_in_scope(v):
                raise ValueError(_errors.msg("not_in_scope", _SCOPE_TEXT.format(v, strategy)))

    def _check_trainable_in_scope(self):
        """Keras 3's optimizer hands each variable to ``strategy.extended.update``, whose bare
        ``assert`` fails for one made outside the scope: TensorFlow's AssertionError has no
        message, sim's says why and what to do."""
        from sim.keras.version import keras_major
        strategy = self.distribute_strategy
        if keras_major() == 3 and any(not strategy.extended.variable_created_in_scope(v)
                                      for v in self.trainable_variables):
            raise AssertionError(_errors.msg("not_in_scope_keras3"))

    def _assert_compile_was_called(self):
        if not self._is_compiled:
            raise RuntimeError(_errors.msg("not_compiled", _NOT_COMPILED_TEXT))

    @property
    def metrics(self):
        """As the selected Keras lists them: Keras 3 the loss tracker and (with metrics compiled)
        one CompileMetrics, from compile; tf-keras the loss and each metric, once a train or
        test step has built them."""
        from sim.keras.version import keras_major
        if not self._is_compiled:
            return []
        if keras_major() == 3:
            compiled = self.compiled_metrics
            given = compiled._user_metrics is not None or compiled._user_weighted_metrics is not None
            if given and getattr(compiled, "_keras3_view", None) is None:
                compiled._keras3_view = CompileMetrics(compiled)
            return self.compiled_loss.metrics + ([compiled._keras3_view] if given else [])
        return self._flat_metrics() if self.compiled_loss._losses is not None else []

    def _flat_metrics(self):
        """The loss's Mean and every compiled metric: what the logs and History are read from."""
        return self.compiled_loss.metrics + self.compiled_metrics.metrics

    @property
    def metrics_names(self):
        """As the selected Keras prints it (sim/keras/version.py): Keras 3 names its trackers,
        'loss' and (with metrics compiled) 'compile_metrics'; tf-keras names every metric, but
        only once a train or test step has built the compiled containers."""
        from sim.keras.version import keras_major
        if not self._is_compiled:
            return []
        if keras_major() == 3:
            compiled = self.compiled_metrics
            given = compiled._user_metrics is not None or compiled._user_weighted_metrics is not None
            return ["loss", "compile_metrics"] if given else ["loss"]
        return self._log_names() if self.compiled_loss._losses is not None else []

    def _log_names(self):
        """The names of the logged values, loss first (evaluate's list follows them)."""
        return [m.name for m in self._flat_metrics()]

    def reset_metrics(self):
        for m in self._flat_metrics():
            m.reset_state()

    # ------------------------------------------------------------ steps

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        return self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)

    def compute_metrics(self, x, y, y_pred, sample_weight):
        self.compiled_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        return {m.name: m.result() for m in self._flat_metrics()}

    def train_step(self, data):
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = data_adapter.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _run(self, step_fn, batch, reduction=None):
        strategy = self.distribute_strategy
        outputs = strategy.run(step_fn, args=(batch,))
        return du.reduce_per_replica(outputs, strategy, reduction or self.distribute_reduction_method)

    def train_function(self, batch):
        logs = self._run(self.train_step, batch)
        self._train_counter += 1
        return logs

    def test_function(self, batch):
        return self._run(self.test_step, batch)

    def predict_function(self, batch):
        return self._run(self.predict_step, batch, "concat")

    # ------------------------------------------------------------ fit / evaluate / predict

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1, max_queue_size=10, workers=1,
            use_multiprocessing=False):
        self._assert_compile_was_called()
        self._check_trainable_in_scope()
        strategy = self.distribute_strategy
        verbose = _resolve_verbose(verbose, strategy)
        if du.is_ps_strategy(strategy):      # steps run on the ps cluster's workers
            from sim.keras import ps_training
            return ps_training.fit(self, x, y, batch_size, epochs, verbose, callbacks,
                                   validation_data, sample_weight, initial_epoch,
                                   steps_per_epoch, validation_steps)
        if validation_split and validation_data is None:
            x, y, sample_weight, validation_data = _split_validation(x, y, sample_weight,
                                                                     validation_split)
        with strategy.scope():
            handler = data_adapter.DataHandler(
                x, y, sample_weight, batch_size=batch_size, steps_per_epoch=steps_per_epoch,
                initial_epoch=initial_epoch, epochs=epochs, shuffle=shuffle, model=self)
            cbs = callbacks_mod.CallbackList(
                callbacks, add_history=True, add_progbar=verbose != 0, model=self,
                verbose=verbose, epochs=epochs, steps=handler.inferred_steps)
            self.stop_training = False
            cbs.on_train_begin()
            initial_step = 0
            if self._training_state is not None:
                handler._initial_epoch, initial_step = \
                    self._training_state.maybe_load_initial_counters_from_ckpt(
                        handler.inferred_steps, initial_epoch)
            logs = {}
            epoch_logs = {}
            for epoch, iterator in handler.enumerate_epochs():
                self.reset_metrics()
                cbs.on_epoch_begin(epoch)
                first = initial_step if epoch == handler._initial_epoch else 0
                seen = 0
                for step in handler.steps(first):
                    cbs.on_train_batch_begin(step)
                    try:
                        batch = next(iterator)
                    except StopIteration:
                        handler.ran_out_of_data(step)
                        if seen == 0:
                            self.stop_training = True
                        break
                    logs = _numpy_logs(self.train_function(batch))
                    seen += 1
                    cbs.on_train_batch_end(step, logs)
                    if self.stop_training:
                        break
                if seen == 0 and not logs and first == 0:
                    raise ValueError(_empty_fit_message())
                if seen == 0 and self.stop_training:
                    break
                epoch_logs = dict(logs)
                if validation_data is not None and _should_eval(epoch, validation_freq):
                    vx, vy, vsw = _unpack_validation(validation_data)
                    val_logs = self.evaluate(
                        vx, vy, sample_weight=vsw, batch_size=validation_batch_size or batch_size,
                        steps=validation_steps, callbacks=cbs, verbose=0, return_dict=True,
                        _internal=True)
                    epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
                cbs.on_epoch_end(epoch, epoch_logs)
                if self.stop_training:
                    break
            cbs.on_train_end(epoch_logs)
        return self.history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, max_queue_size=10, workers=1,
                 use_multiprocessing=False, return_dict=False, _internal=False, **kwargs):
        self._assert_compile_was_called()
        strategy = self.distribute_strategy
        verbose = _resolve_verbose(verbose, strategy)
        with strategy.scope():
            handler = data_adapter.DataHandler(x, y, sample_weight, batch_size=batch_size,
                                               steps_per_epoch=steps, model=self)
            if isinstance(callbacks, callbacks_mod.CallbackList):
                cbs = callbacks
            else:
                cbs = callbacks_mod.CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                                 verbose=verbose, epochs=1, steps=handler.inferred_steps)
            self.reset_metrics()
            cbs.on_test_begin()
            logs = {}
            for step, batch in _batches(handler, cbs.on_test_batch_begin):
                logs = _numpy_logs(self.test_function(batch))
                cbs.on_test_batch_end(step, logs)
            cbs.on_test_end(logs)
        if return_dict:
            return dict(logs)
        values = [logs[n] for n in self._log_names() if n in logs] or list(logs.values())
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None,
                max_queue_size=10, workers=1, use_multiprocessing=False):
        strategy = self.distribute_strategy
        verbose = _resolve_verbose(verbose, strategy)
        with strategy.scope():
            handler = data_adapter.DataHandler(x, batch_size=batch_size, steps_per_epoch=steps,
                                               model=self, for_predict=True)
            cbs = callbacks_mod.CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                             verbose=verbose, epochs=1, steps=handler.inferred_steps)
            cbs.on_predict_begin()
            outputs = []
            for step, batch in _batches(handler, cbs.on_predict_batch_begin):
                out = self.predict_function(batch)
                outputs.append(du.map_structure(lambda t: np.asarray(backend.get_value(t)), out))
                cbs.on_predict_batch_end(step, {"outputs": out})
            cbs.on_predict_end()
        if not outputs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). "
                             "Please use `Model.compile(..., run_eagerly=True)`, or "
                             "`tf.config.run_functions_eagerly(True)` for more information of "
                             "where went wrong, or file a issue/bug to `tf.keras`.")
        return _concat_outputs(outputs)

    def _single_batch(self, x, y=None, sample_weight=None):
        data = (x,) if y is None else (x, y) if sample_weight is None else (x, y, sample_weight)
        data = tuple(data_adapter._map_tensor(data_adapter._as_numpy(d)) for d in data)
        strategy = self.distribute_strategy
        if strategy.num_replicas_in_sync > 1 and data_adapter._tfdata() is not None:
            n = data_adapter._length(data[0])
            ds = tf.data.Dataset.from_tensor_slices(data if len(data) > 1 else data[0]).batch(n)
            return next(iter(strategy.experimental_distribute_dataset(ds)))
        return data if len(data) > 1 else data[0]

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True,
                       return_dict=False):
        self._assert_compile_was_called()
        self._check_trainable_in_scope()
        with self.distribute_strategy.scope():
            if reset_metrics:
                self.reset_metrics()
            logs = _numpy_logs(self.train_function(self._single_batch(x, y, sample_weight)))
        return _logs_result(self, logs, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True, return_dict=False):
        self._assert_compile_was_called()
        with self.distribute_strategy.scope():
            if reset_metrics:
                self.reset_metrics()
            logs = _numpy_logs(self.test_function(self._single_batch(x, y, sample_weight)))
        return _logs_result(self, logs, return_dict)

    def predict_on_batch(self, x):
        with self.distribute_strategy.scope():
            out = self.predict_function(self._single_batch(x))
        return du.map_structure(lambda t: np.asarray(backend.get_value(t)), out)

    # ------------------------------------------------------------ weights and saving

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        return saving_routes.save_weights(self, filepath, overwrite=overwrite)

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


def _empty_fit_message():
    """tf-keras' text when fit's first epoch trained on no batch, then why and the fix."""
    from sim import i18n
    return ("Unexpected result of `train_function` (Empty logs). This could be due to issues in "
            "input pipeline that resulted in an empty dataset. Otherwise, please use "
            "`Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` "
            "for more information of where went wrong, or file a issue/bug to `tf.keras`.\n"
            + i18n.t("misuse.fit_empty_data"))
