"""What a Keras model does with data: compile, fit, evaluate, predict, train_step/test_step.

Keras 3's own split (keras/src/trainers/trainer.py): ``Model`` is a ``Trainer`` and a ``Layer``.
The model captures the strategy it is created under; fit/evaluate/predict run every step as
``strategy.run(train_step, args=(batch,))`` and reduce the per-replica results with
``reduce_per_replica`` ("sum", "first" on TPU), so the same code runs on one device or many.
The helpers the loops share (validation data, one pass of batches, logs to NumPy, predict's
joined outputs) are in training_utils.py.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import backend, callbacks as callbacks_mod, data_adapter, distribute_utils as du
from sim.keras import divergence
from sim.keras.compiled_state import CompiledState
from sim.keras.training_utils import (_batches, _concat_outputs, _logs_result, _numpy_logs,
                                      _resolve_verbose, _should_eval, _split_validation,
                                      _unpack_validation)


def _empty_fit_message():
    """tf-keras' text when fit's first epoch trained on no batch, then why and the fix."""
    from sim import i18n
    return ("Unexpected result of `train_function` (Empty logs). This could be due to issues in "
            "input pipeline that resulted in an empty dataset. Otherwise, please use "
            "`Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` "
            "for more information of where went wrong, or file a issue/bug to `tf.keras`.\n"
            + i18n.t("misuse.fit_empty_data"))


def _maybe_symbolic_build(model, handler):
    """Keras 3's fit and evaluate reduce the first distributed batch to the host before training
    (``_maybe_symbolic_build``, keras/src/backend/tensorflow/trainer.py, for a model created under
    a strategy): ``strategy.reduce("MEAN", batch, axis=None)``, so a first batch split unevenly
    over the replicas raises TensorFlow's AddN InvalidArgumentError there (run on TF 2.21).
    tf-keras does not, nor does a model created outside the strategy's scope."""
    from sim.keras.version import uses_legacy_keras
    if uses_legacy_keras() or getattr(model, "_creation_strategy", None) is None:
        return
    first = handler.peek_first()
    leaves = tf.nest.flatten(first) if first is not None else []
    if leaves and all(isinstance(v, tf.distribute.DistributedValues) for v in leaves):
        from sim.distribute.errors import explain
        from sim.engine.errors import InvalidArgumentError
        try:
            model.distribute_strategy.reduce("MEAN", first, axis=None)
        except InvalidArgumentError as error:           # TF's text, then why in fit and the fix
            from sim.i18n import join_list
            shapes = join_list(str(tuple(v.shape)) for v in model.distribute_strategy
                               .experimental_local_results(leaves[0]))
            raise InvalidArgumentError(explain(str(error).split("\n")[0], "keras3_first_batch",
                                               shapes=shapes)) from None


class Trainer(CompiledState):
    """compile/fit/evaluate/predict and their steps; mixed into ``Model`` (training.py)."""

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
            _maybe_symbolic_build(self, handler)
            cbs = callbacks_mod.CallbackList(
                divergence.with_notice(callbacks), add_history=True, add_progbar=verbose != 0,
                model=self, verbose=verbose, epochs=epochs, steps=handler.inferred_steps)
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
                    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                        logs = _numpy_logs(self.train_function(batch))   # TF warns of no overflow
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
            if not _internal:                   # fit's validation reuses a built iterator
                _maybe_symbolic_build(self, handler)
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
