"""SIM_SAME_INIT keeps Model.fit's order of in-memory arrays (sim/launch/same_init.py, item 3)."""
from __future__ import annotations

import numpy as np

import sim.tf as tf
from sim.launch import same_init


def test_fit_in_order_passes_shuffle_false_however_fit_is_called():
    seen = []

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, **rest):
        seen.append(shuffle)

    wrapped = same_init._fit_in_order(fit)
    wrapped(None, 1, 2)
    wrapped(None, 1, 2, shuffle=True)
    wrapped(None, 1, 2, 4, 1, 0, None, 0.0, None, True)      # shuffle given by position
    assert seen == [False, False, False]
    assert wrapped.__wrapped__ is fit


def test_a_model_fit_in_order_sees_the_arrays_own_batches(monkeypatch):
    """With the hook, the first batch is the first images, as TensorFlow's fit with
    shuffle=False gives them; without it sim's seeded permutation picks others."""
    import sim.keras.trainer as trainer
    x = np.arange(8, dtype="float32").reshape(8, 1)
    y = np.zeros((8, 1), dtype="float32")

    def first_batch():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer="sgd", loss="mse")
        firsts = []

        class First(tf.keras.callbacks.Callback):
            def on_train_batch_end(self, batch, logs=None):
                firsts.append(round(float(logs["loss"]), 4))
        model.fit(x, y, batch_size=2, epochs=1, verbose=0, callbacks=[First()])
        return firsts[0]

    shuffled = first_batch()
    monkeypatch.setattr(trainer.Trainer, "fit", same_init._fit_in_order(trainer.Trainer.fit))
    assert first_batch() == 0.5     # mean of 0**2 and 1**2: images 0 and 1, bias 0
    assert shuffled != 0.5
