"""The same start on both engines: one script, one set of initial weights, one data order.

A script such as the seed chapter's MNIST example draws its initial weights and its shuffle
order at random and downloads MNIST, so two runs (on sim.tf, on TensorFlow) can only agree
statistically. When a launch sets ``SIM_SAME_START=weights.npz`` (``python -m sim launch``
passes the environment on), each task's runner calls ``install(engine)`` before the script
starts, and on either engine:

1. ``keras.datasets.mnist.load_data()`` returns the MNIST subset the course ships
   (``sim.keras.datasets.mnist``: no download, the same arrays on both engines);
   ``SIM_SAME_START_SAMPLES=N`` keeps its first N training digits, for a short run;
2. ``Dataset.shuffle(...)`` returns the dataset unchanged, so every epoch sees the digits in
   the subset's own (already shuffled, fixed) order;
3. each model's first ``Model.fit`` starts from the weights in the .npz (in ``get_weights()``
   order, arrays ``w000``, ``w001`` ...). If the file does not exist yet, the first task
   (chief, else worker 0) writes the weights its model starts from there (temp file + rename),
   so a first run records the start and later runs, on either engine, replay it;
4. after each ``Model.fit`` the task prints ``SAME-START-HISTORY {json}``: the History at full
   precision, for comparing the engines beyond the progress bar's four decimals.

The script itself is not edited. What changes is stated above and nothing else: the model,
the optimizer, the batching and the distribution strategy are the script's own.
"""
from __future__ import annotations

import json
import os

ENV_WEIGHTS = "SIM_SAME_START"
ENV_SAMPLES = "SIM_SAME_START_SAMPLES"
HISTORY_TAG = "SAME-START-HISTORY "


def install(engine):
    """Apply the hooks in this task's process when ``SIM_SAME_START`` is set (else nothing)."""
    path = os.environ.get(ENV_WEIGHTS)
    if not path:
        return False
    samples = _samples(os.environ.get(ENV_SAMPLES))
    if engine == "sim":
        import sim.data.dataset as data
        import sim.keras.training as training
        import sim.tf.keras.datasets.mnist as mnist
        dataset_class, model_class = data.Dataset, training.Model
    else:
        import tensorflow as tf
        mnist = tf.keras.datasets.mnist
        dataset_class, model_class = tf.data.Dataset, tf.keras.Model
    mnist.load_data = _course_mnist(samples)
    dataset_class.shuffle = _keep_order
    model_class.fit = _fit_from(model_class.fit, os.path.abspath(path))
    return True


def _samples(text):
    if text in (None, ""):
        return None
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        from sim.i18n import t
        raise ValueError(t("samestart.bad_samples", value=text))
    return n


def _course_mnist(samples):
    def load_data(path="mnist.npz"):
        from sim.keras.datasets.mnist import load_data as course_load_data
        (x_train, y_train), test = course_load_data()
        if samples is not None:
            from sim.i18n import t
            x_train, y_train = x_train[:samples], y_train[:samples]
            print(t("samestart.first_samples", n=len(y_train)), flush=True)
        return (x_train, y_train), test
    return load_data


def _keep_order(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
    return self


def _is_first_task():
    spec = json.loads(os.environ.get("TF_CONFIG") or "{}")
    task = spec.get("task") or {}
    cluster = spec.get("cluster") or {}
    first = "chief" if cluster.get("chief") else "worker"
    return not task or (task.get("type") == first and int(task.get("index", 0)) == 0)


def _fit_from(original_fit, path):
    started = set()

    def fit(self, *args, **kwargs):
        if id(self) not in started:
            started.add(id(self))
            _start(self, path)
        history = original_fit(self, *args, **kwargs)
        values = {k: [float(v) for v in vs] for k, vs in getattr(history, "history", {}).items()}
        print(HISTORY_TAG + json.dumps(values), flush=True)
        return history

    fit.__wrapped__ = original_fit
    return fit


def _start(model, path):
    import numpy as np
    if os.path.lexists(path):
        from sim.engine.errors import DataLossError
        from sim.storage.safe_io import read_npz     # TensorFlow's error types, naming the file
        try:
            _, saved = read_npz(path, metadata=False)
        except DataLossError as e:
            from sim.i18n import t
            raise DataLossError(None, None, f"{e.message}\n{t('samestart.damaged', path=path)}") from None
        weights = [saved[k] for k in sorted(saved)]
        mine = model.get_weights()
        shapes = [tuple(w.shape) for w in weights]
        if shapes != [tuple(np.shape(w)) for w in mine]:
            from sim.i18n import t
            raise ValueError(t("samestart.shapes_differ", path=path, saved=shapes,
                               model=[tuple(np.shape(w)) for w in mine]))
        model.set_weights(weights)
    elif _is_first_task():
        from sim.storage.safe_io import atomic_write
        arrays = {f"w{i:03d}": np.asarray(w) for i, w in enumerate(model.get_weights())}
        atomic_write(path, lambda f: np.savez(f, **arrays))
