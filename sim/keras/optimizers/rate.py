"""What ``optimizer.learning_rate`` returns, as the selected Keras does (sim/keras/version.py).

A float rate is a float32 variable in both versions (``float(opt.learning_rate)`` for 0.01 is
0.009999999776482582): Keras 3 prints ``<Variable path=sgd/learning_rate, shape=(), dtype=float32,
value=...>`` and names it ``learning_rate``; tf-keras prints ``<tf.Variable 'learning_rate:0' ...>``.
Under a schedule, Keras 3 returns the rate of the current step as a float32 tensor; tf-keras returns
its variable ``current_learning_rate:0``, which ``apply_gradients`` sets to the rate of the step it
applies (so between steps it holds the last applied rate). The optimizer keeps the variable as the
rate it uses, so ``opt.learning_rate.assign(0.5)`` changes the next update, as in TensorFlow.
"""
from __future__ import annotations

import numpy as np

from sim.engine.variable import Variable


class RateVariable(Variable):
    """A non-trainable float32 scalar variable named as the selected Keras names it. Built
    directly (not through variable creator scopes): the rate is the optimizer's, not a replica's."""

    def __init__(self, value, name, path):
        super().__init__(np.float32(value), trainable=False, name=name, dtype="float32")
        self._keras_name, self._path = name, path

    @property
    def name(self):
        from sim.keras.version import keras_major
        return self._keras_name if keras_major() == 3 else self._name

    @property
    def path(self):
        return self._path

    def __repr__(self):
        from sim.keras.version import keras_major
        if keras_major() == 3:
            return (f"<Variable path={self._path}, shape=(), dtype=float32, "
                    f"value={float(self._value)!r}>")
        return super().__repr__()


TYPE_ERROR = (
    "This optimizer was created with a `LearningRateSchedule` object as its `learning_rate` "
    "constructor argument, hence its learning rate is not settable. If you need the learning "
    "rate to be settable, you should instantiate the optimizer with a float `learning_rate` "
    "argument.")
