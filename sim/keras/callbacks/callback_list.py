"""``CallbackList``: the hooks of every callback, run in order (fit/evaluate/predict call this)."""
from __future__ import annotations

from sim.keras.callbacks.base import History
from sim.keras.callbacks.progress import ProgbarLogger

_HOOKS = ["on_epoch_begin", "on_epoch_end", "on_train_batch_begin", "on_train_batch_end",
          "on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin",
          "on_predict_batch_end", "on_train_begin", "on_train_end", "on_test_begin", "on_test_end",
          "on_predict_begin", "on_predict_end"]


class CallbackList:
    """Runs every callback's hook in order; adds History, then ProgbarLogger, after the user's
    callbacks, as both Keras versions do (``_add_default_callbacks``): the epoch line shows what
    the user's callbacks wrote into the logs, e.g. LearningRateScheduler's ``learning_rate``."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        self.callbacks = list(callbacks or [])
        if add_history:
            model.history = History()
            self.callbacks.append(model.history)
        if add_progbar:
            self.callbacks.append(ProgbarLogger())
        self.model = model
        self.params = {"verbose": params.get("verbose", 0), "epochs": params.get("epochs", 1),
                       "steps": params.get("steps")}
        for cb in self.callbacks:
            cb.set_model(model)
            cb.set_params(self.params)

    def append(self, cb):
        cb.set_model(self.model)
        cb.set_params(self.params)
        self.callbacks.append(cb)

    def __iter__(self):
        return iter(self.callbacks)

    def _call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(*args)

    def on_epoch_begin(self, epoch, logs=None): self._call("on_epoch_begin", epoch, logs or {})
    def on_epoch_end(self, epoch, logs=None): self._call("on_epoch_end", epoch, logs if logs is not None else {})
    def on_train_batch_begin(self, b, logs=None): self._call("on_train_batch_begin", b, logs or {})
    def on_train_batch_end(self, b, logs=None): self._call("on_train_batch_end", b, logs or {})
    def on_test_batch_begin(self, b, logs=None): self._call("on_test_batch_begin", b, logs or {})
    def on_test_batch_end(self, b, logs=None): self._call("on_test_batch_end", b, logs or {})
    def on_predict_batch_begin(self, b, logs=None): self._call("on_predict_batch_begin", b, logs or {})
    def on_predict_batch_end(self, b, logs=None): self._call("on_predict_batch_end", b, logs or {})
    def on_train_begin(self, logs=None): self._call("on_train_begin", logs or {})
    def on_train_end(self, logs=None): self._call("on_train_end", logs or {})
    def on_test_begin(self, logs=None): self._call("on_test_begin", logs or {})
    def on_test_end(self, logs=None): self._call("on_test_end", logs or {})
    def on_predict_begin(self, logs=None): self._call("on_predict_begin", logs or {})
    def on_predict_end(self, logs=None): self._call("on_predict_end", logs or {})
