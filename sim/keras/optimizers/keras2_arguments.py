"""Keras 2's optimizer arguments (``lr=``, ``decay=``) as the selected Keras treats them.

Legacy optimizers (``tf.keras.optimizers.legacy``, tf-keras only) take ``lr`` and ``decay``;
Keras 3 has no legacy optimizers (ImportError with Keras' own advice) and refuses ``lr``; the
new tf-keras optimizers ignore ``lr`` with a warning and refuse ``decay``. TF 2.21's texts.
"""
from __future__ import annotations

import warnings


def keras2_arguments(optimizer, learning_rate, kwargs):
    """``(learning_rate, decay)`` from the Keras 2 arguments, as the selected Keras treats them:
    legacy optimizers take ``lr`` and ``decay`` (Keras 3 has none: ImportError); the new ones
    ignore ``lr`` with a warning (tf-keras) or refuse it (Keras 3), and drop ``decay``."""
    from sim.keras.version import keras_major
    cls = type(optimizer).__name__
    kwargs.pop("is_legacy_optimizer", None)
    if optimizer._legacy:
        if keras_major() == 3:
            raise ImportError(LEGACY_IN_KERAS3)
        if "lr" in kwargs:
            warnings.warn("The `lr` argument is deprecated, use `learning_rate` instead.",
                          stacklevel=4)
            learning_rate = kwargs.pop("lr")
        decay = float(kwargs.pop("decay", 0.0) or 0.0)
    elif keras_major() == 3:
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.", stacklevel=4)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        decay = 0.0
    else:
        if kwargs.pop("lr", None):
            warnings.warn("`lr` is deprecated in TF-Keras optimizer, please use `learning_rate` or "
                          f"use the legacy optimizer, e.g.,tf.keras.optimizers.legacy.{cls}.",
                          stacklevel=4)
        for k in kwargs:
            if k in ("decay", "gradient_aggregator", "gradient_transformers"):
                raise ValueError(f"{k} is deprecated in the new TF-Keras optimizer, please check the "
                                 "docstring for valid arguments, or use the legacy optimizer, e.g., "
                                 f"tf.keras.optimizers.legacy.{cls}.")
            raise TypeError(f"{k} is not a valid argument, kwargs should be empty  for "
                            "`optimizer_experimental.Optimizer`.")
        decay = 0.0
    return learning_rate, decay


LEGACY_IN_KERAS3 = (
    "`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to continue "
    "using a `tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` package "
    "(Keras 2) and set the environment variable `TF_USE_LEGACY_KERAS=True` to configure "
    "TensorFlow to use `tf_keras` when accessing `tf.keras`.")
