"""``Callback``, the base every callback extends (each hook a no-op), and the two simplest ones:
``History`` (the object ``fit`` returns) and ``LambdaCallback`` (hooks from plain functions).
"""
from __future__ import annotations

import weakref

from sim.keras import distribute_utils as du


class Callback:
    def __init__(self):
        self.model = None
        self.params = {}
        self.validation_data = None
        self._chief_worker_only = None
        self._supports_tf_logs = False

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_batch_begin(self, batch, logs=None): pass
    def on_batch_end(self, batch, logs=None): pass
    def on_epoch_begin(self, epoch, logs=None): pass
    def on_epoch_end(self, epoch, logs=None): pass
    def on_train_batch_begin(self, batch, logs=None): self.on_batch_begin(batch, logs)
    def on_train_batch_end(self, batch, logs=None): self.on_batch_end(batch, logs)
    def on_test_batch_begin(self, batch, logs=None): pass
    def on_test_batch_end(self, batch, logs=None): pass
    def on_predict_batch_begin(self, batch, logs=None): pass
    def on_predict_batch_end(self, batch, logs=None): pass
    def on_train_begin(self, logs=None): pass
    def on_train_end(self, logs=None): pass
    def on_test_begin(self, logs=None): pass
    def on_test_end(self, logs=None): pass
    def on_predict_begin(self, logs=None): pass
    def on_predict_end(self, logs=None): pass


class History(Callback):
    """The record of a fit, also kept as ``model.history``. It refers to its model weakly: the
    model refers to it, and a cycle would keep a dropped model, and the strategy it was built
    under with its replica threads and their pipes, alive until the garbage collector runs."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    @property
    def model(self):
        return self._model() if self._model is not None else None

    @model.setter
    def model(self, model):
        self._model = weakref.ref(model) if model is not None else None

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self

    def __repr__(self):
        return "<keras.callbacks.History>"


class LambdaCallback(Callback):
    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        for name, fn in dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                             on_batch_begin=on_batch_begin, on_batch_end=on_batch_end,
                             on_train_begin=on_train_begin, on_train_end=on_train_end, **kwargs).items():
            if fn is not None:
                setattr(self, name, fn)


def _strategy(model):
    return model.distribute_strategy if model is not None else du.get_strategy()
