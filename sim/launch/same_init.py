"""The same start for any script, on either engine: ``SIM_SAME_INIT=<seed>``.

same_start.py gives a script's first ``Model.fit`` recorded weights; a custom training loop, or a
script that builds several models, needs more. With ``SIM_SAME_INIT`` set, each task's runner
(task.py's ``run_script``, or tests/tf_crosscheck's tutorial runner) calls ``install(engine)``
before the script, and on either engine:

1. every Keras weight made with a random initializer (Glorot, He, LeCun, random uniform/normal,
   truncated normal, variance scaling, orthogonal; not one ``tf.saved_model.load`` restores, which
   TensorFlow makes from the file without an initializer) starts from a draw of NumPy's PCG64 seeded
   with ``(seed, n)``, ``n`` counting such weights in creation order: uniform within Glorot's
   limit ``sqrt(6 / (fan_in + fan_out))`` whatever the layer asked for (the same arrays on both
   engines, a start any of those initializers could have given); zeros, ones and constants are
   left to the layer;
2. ``keras.datasets.mnist.load_data()`` returns the course's MNIST subset (as same_start.py) and
   ``keras.datasets.fashion_mnist.load_data()`` the same digits (the machines cannot download
   Fashion-MNIST: a stand-in of the same shapes and dtypes); ``SIM_SAME_START_SAMPLES=N`` keeps
   the first N training images (an N beyond the subset's 6,000 repeats it, for a tutorial whose
   loop takes more steps than the subset has batches); ``SIM_SAME_START_TEST_SAMPLES=N`` does the
   same to the 1,000 test images (the mixed precision guide reshapes them to 10,000);
3. ``Dataset.shuffle`` keeps the order, and so does ``Model.fit(shuffle=True)`` on in-memory
   arrays (TensorFlow's fit permutes them with an unseeded ``tf.random.shuffle``, a new order each
   run: tf_keras/src/engine/data_adapter.py; sim's with its own seeded permutation), so both
   engines see the same batches;
4. Python's ``random`` and NumPy's global generator are seeded with ``seed``, and an eager
   ``tf.random.uniform`` / ``tf.random.normal`` draws from a NumPy PCG64 stream seeded with
   ``seed`` (TensorFlow's own Philox numbers cannot be had on sim), so the random data some
   tutorials make is the same on both engines; inside a TensorFlow graph the call is TF's own.

The script is not edited; what changes is stated here and nothing else.
"""
from __future__ import annotations

import inspect
import math
import os
import types

ENV_SEED = "SIM_SAME_INIT"
_RANDOM = ("glorot", "he", "lecun", "random", "truncated", "variancescaling", "orthogonal")
_installed = []


def install(engine):
    """Apply the hooks in this process when ``SIM_SAME_INIT`` is set; True if they are on."""
    text = os.environ.get(ENV_SEED)
    if not text or _installed:
        return bool(_installed)
    from sim.launch.same_start import ENV_SAMPLES, _course_mnist, _keep_order, _samples
    seed = int(text)
    samples = _samples(os.environ.get(ENV_SAMPLES))
    load_data = _tiled(_course_mnist(samples), samples)
    if engine == "sim":
        import sim.data.dataset as data
        import sim.keras.layers.base as base
        import sim.tf.keras.datasets as datasets
        import sim.tf.keras.datasets.mnist as mnist
        datasets.fashion_mnist = types.SimpleNamespace(load_data=load_data)
        from sim.keras.restoring import active as restoring
        import sim.keras.trainer as trainer
        dataset_class, layer_class, model_class = data.Dataset, base.Layer, trainer.Trainer
    else:
        import tensorflow as tf
        mnist = tf.keras.datasets.mnist
        tf.keras.datasets.fashion_mnist.load_data = load_data
        dataset_class, layer_class, model_class = tf.data.Dataset, tf.keras.layers.Layer, tf.keras.Model
        restoring = lambda: False    # noqa: E731 (tf.saved_model.load calls no add_weight)
    mnist.load_data = load_data
    _seed_random(seed, tf_random=_random_module(engine))
    dataset_class.shuffle = _keep_order
    model_class.fit = _fit_in_order(model_class.fit)
    layer_class.add_weight = _seeded(layer_class.add_weight, seed, restoring)
    _installed.append(engine)
    return True


def _fit_in_order(original_fit):
    """``fit`` with ``shuffle=False``: the arrays' own order, the same batches on both engines."""
    signature = inspect.signature(original_fit)

    def fit(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.arguments["shuffle"] = False
        return original_fit(*bound.args, **bound.kwargs)

    fit.__wrapped__ = original_fit
    return fit


def _tiled(load_data, samples):
    def tiled(path="mnist.npz"):
        import numpy as np
        (x, y), test = load_data(path)
        if samples is not None and samples > len(y):
            index = np.arange(samples) % len(y)
            x, y = x[index], y[index]
        test_samples = os.environ.get(ENV_TEST_SAMPLES)
        if test_samples and int(test_samples) != len(test[1]):   # a tutorial reshaping to 10000
            index = np.arange(int(test_samples)) % len(test[1])
            test = (test[0][index], test[1][index])
        return (x, y), test
    return tiled


ENV_TEST_SAMPLES = "SIM_SAME_START_TEST_SAMPLES"   # the test set repeated (or cut) to N images


def _random_module(engine):
    if engine == "sim":
        import sim.tf.random as random_module
    else:
        import tensorflow as tf
        random_module = tf.random
    return random_module


def _seed_random(seed, tf_random):
    import random

    import numpy as np
    random.seed(seed)
    np.random.seed(seed)
    rng = np.random.default_rng([seed, 1])
    for name, draw in (("uniform", lambda shape, a, b: rng.uniform(a, b, shape)),
                       ("normal", lambda shape, a, b: rng.normal(a, b, shape))):
        original = getattr(tf_random, name)
        setattr(tf_random, name, _seeded_draw(original, draw, 0.0 if name == "normal" else 0.0,
                                              1.0))


def _seeded_draw(original, draw, default_a, default_b):
    import numpy as np

    def seeded(shape, *args, **kwargs):
        import sim.tf as tf        # TensorFlow itself under sim.launch.tf_task
        names = ("minval", "maxval") if "minval" in kwargs or "maxval" in kwargs else ("mean", "stddev")
        a = kwargs.get(names[0], args[0] if len(args) > 0 else default_a)
        b = kwargs.get(names[1], args[1] if len(args) > 1 else default_b)
        dtype = kwargs.get("dtype", args[2] if len(args) > 2 else None)
        if not tf.executing_eagerly() or (dtype is not None and not tf.as_dtype(dtype).is_floating):
            return original(shape, *args, **kwargs)
        values = np.asarray(draw(tuple(int(s) for s in shape), float(a), float(b)), np.float32)
        return tf.constant(values, dtype=dtype or tf.float32)
    seeded.__wrapped__ = original
    return seeded


def is_random(initializer, dtype=None):
    """Whether a Keras initializer (a name, an object or a function) draws random numbers."""
    if initializer is None:     # add_weight's default: glorot_uniform for floats, zeros otherwise
        return dtype is None or "float" in str(getattr(dtype, "name", dtype))
    name = initializer if isinstance(initializer, str) else \
        getattr(initializer, "__name__", None) or type(initializer).__name__
    key = name.lower().replace("_", "")
    return key.startswith(_RANDOM)


def glorot_limit(shape):
    """Glorot's uniform limit for a weight of ``shape``, fans as Keras computes them."""
    shape = tuple(int(s) for s in shape)
    if not shape:
        fan_in = fan_out = 1
    elif len(shape) == 1:
        fan_in = fan_out = shape[0]
    elif len(shape) == 2:
        fan_in, fan_out = shape
    else:
        receptive = math.prod(shape[:-2])
        fan_in, fan_out = shape[-2] * receptive, shape[-1] * receptive
    return math.sqrt(6.0 / max(1, fan_in + fan_out))


def _seeded(original_add_weight, seed, restoring):
    """add_weight drawing seeded starts; not for weights a load restores (sim/keras/restoring.py)."""
    signature = inspect.signature(original_add_weight)
    count = [0]

    def add_weight(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        arguments = bound.arguments
        shape = arguments.get("shape") or ()
        if is_random(arguments.get("initializer"), arguments.get("dtype")) and not restoring():
            import numpy as np
            rng = np.random.default_rng([seed, count[0]])
            count[0] += 1
            limit = glorot_limit(shape)
            values = rng.uniform(-limit, limit, size=tuple(int(s) for s in shape)).astype(np.float32)

            def initial(shape=None, dtype=None, **unused):
                return values if dtype is None else values.astype(str(getattr(dtype, "name", dtype)))
            arguments["initializer"] = initial
        return original_add_weight(*bound.args, **bound.kwargs)

    add_weight.__wrapped__ = original_add_weight
    return add_weight
