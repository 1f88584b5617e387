"""A stand-in for ``tensorflow_datasets`` (not installed; its downloads cannot reach these
machines), shared by both engines: ``tfds.load("mnist", ...)`` over ``tf.keras.datasets.mnist``
(the course's MNIST subset under SIM_SAME_INIT, sim/launch/same_init.py), in TFDS's structure:
splits "train"/"test" of (image uint8 (28, 28, 1), label int64), ``with_info`` giving
``info.splits[name].num_examples``. Only what the distribute tutorials call.
"""
from __future__ import annotations

import types

import numpy as np


def load(name, split=None, with_info=False, as_supervised=False, **unused):
    import sim.tf as tf         # TensorFlow itself when run by sim.launch.tf_task
    if name != "mnist":
        raise NotImplementedError(f"the tensorflow_datasets stand-in has only 'mnist', not {name!r}")
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
    arrays = {"train": (x_train, y_train), "test": (x_test, y_test)}

    def dataset(x, y):
        images, labels = x[..., None].astype(np.uint8), y.astype(np.int64)
        if as_supervised:
            return tf.data.Dataset.from_tensor_slices((images, labels))
        return tf.data.Dataset.from_tensor_slices({"image": images, "label": labels})

    datasets = {k: dataset(*v) for k, v in arrays.items()}
    if split is not None:
        datasets = datasets[split]
    if not with_info:
        return datasets
    splits = {k: types.SimpleNamespace(num_examples=len(v[1])) for k, v in arrays.items()}
    return datasets, types.SimpleNamespace(name=name, splits=splits)
