"""``fit(x, y, steps_per_epoch=S)`` on arrays with no ``batch_size``: both Kerases batch
ceil(samples / S) (Keras 3's ArrayDataAdapter, tf-keras's TensorLikeDataAdapter), not 32; tf-keras
reads one stream of every epoch's pass across epochs (``indices_dataset.repeat(epochs)``), Keras 3
starts each epoch afresh. Figures: TensorFlow 2.21, this script's model (Dense(1) from zeros, SGD
0.1, mse, shuffle=False, 2 epochs), run on both Kerases."""
import logging

import numpy as np
import pytest

import sim.tf as tf
from keras_selection import keras  # noqa: F401  (the fixture)

MEASURED = {   # (samples, steps) -> Keras -> (batch indices seen, epoch losses)
    (64, 4): {"keras3": ([0, 1, 2, 3] * 2, [2.208169, 0.26692]),
              "tf-keras": ([0, 1, 2, 3] * 2, [2.208169, 0.26692])},
    (10, 6): {"keras3": ([0, 1, 2, 3, 4] * 2, [1.719557, 0.179235]),
              "tf-keras": ([0, 1, 2, 3, 4, 5, 0, 1, 2, 3], [1.442884, 0.209165])},
}


def _fit(n, steps):
    x = np.arange(n, dtype=np.float32).reshape(n, 1) / n
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(tf.keras.optimizers.SGD(0.1), loss="mse")
    seen = []

    class Count(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(batch)
    history = model.fit(x, 2 * x + 1, steps_per_epoch=steps, epochs=2, verbose=0, shuffle=False,
                        callbacks=[Count()])
    return seen, history.history["loss"]


@pytest.mark.parametrize("n, steps", sorted(MEASURED))
def test_batches_and_losses_are_tensorflows(keras, n, steps, recwarn, caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        seen, losses = _fit(n, steps)
    batches, expected = MEASURED[n, steps][keras]
    assert seen == batches
    np.testing.assert_allclose(losses, expected, rtol=2e-6)
    if (n, steps) == (10, 6):      # 5 batches of 2: fewer than 6 steps, each Keras says so
        said = [str(w.message) for w in recwarn] + caplog.messages
        assert any("ran out of data" in s for s in said)
        assert any("(in this case, 12 batches)" in s for s in said) == (keras == "tf-keras")
