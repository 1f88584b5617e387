"""A Keras model's compiled state: ``compile``'s checks, its loss and metrics, and their names.

``compile`` takes the optimizer, loss and metrics by name or object (compile_utils.py) and
checks that the model's variables and the optimizer belong to the model's strategy, with
TensorFlow's texts; ``metrics``, ``metrics_names`` and ``reset_metrics`` answer as the
selected Keras does (docs/keras_versions.md). Mixed into ``Trainer`` (trainer.py).
"""
from __future__ import annotations

from sim.keras import _errors, compile_utils, distribute_utils as du, optimizers
from sim.keras.compile_metrics import CompileMetrics

_SCOPE_TEXT = ("Variable ({}) was not created in the distribution strategy scope of ({}). It is "
               "most likely because some layers, model, or optimizer was being created outside "
               "the distribution strategy scope. Try to make sure your code looks similar to the "
               "following.\nwith strategy.scope():\n  model=_create_model()\n  model.compile(...)")
_NOT_COMPILED_TEXT = ("You must compile your model before training/testing. Use "
                      "`model.compile(optimizer, loss)`.")


def _loss_scaled(model, optimizer, auto_scale_loss=True):
    """Under a 'mixed_float16' model policy compile wraps the optimizer in a LossScaleOptimizer
    (Keras 3 trainer.py, ``auto_scale_loss``; tf-keras training.py ``_get_optimizer``)."""
    from sim.keras.mixed_precision import LossScaleOptimizer
    if (auto_scale_loss and model.dtype_policy.name == "mixed_float16" and optimizer is not None
            and not isinstance(optimizer, LossScaleOptimizer)):
        from sim.keras.version import keras_major
        if keras_major() == 3:
            return LossScaleOptimizer(optimizer, name="loss_scale_optimizer")
        return LossScaleOptimizer(optimizer)
    return optimizer


class CompiledState:
    """compile() and what it sets: the loss, the metrics, the optimizer in the model's strategy."""

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, pss_evaluation_shards=0, **kwargs):
        if self._distribution_strategy is None and du.has_strategy():
            self._distribution_strategy = du.get_strategy()
        with self.distribute_strategy.scope():
            self.optimizer = _loss_scaled(self, optimizers.get(optimizer),
                                          kwargs.pop("auto_scale_loss", True))
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
