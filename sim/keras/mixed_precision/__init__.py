"""``tf.keras.mixed_precision``: dtype policies and the loss-scale optimizer of the selected Keras
(Keras 3: loss_scale_keras3.py; tf-keras, TF_USE_LEGACY_KERAS=1: loss_scale_tf_keras.py)."""
from sim.keras.mixed_precision.policy import (DTypePolicy, Policy, get, global_policy,  # noqa: F401
                                              set_global_policy)


def _selected():
    from sim.keras.version import keras_major
    if keras_major() == 3:
        from sim.keras.mixed_precision.loss_scale_keras3 import LossScaleOptimizer
        return LossScaleOptimizer
    from sim.keras.mixed_precision.loss_scale_tf_keras import make
    return make


class _LossScaleOptimizerMeta(type):
    def __instancecheck__(cls, obj):
        from sim.keras.mixed_precision import loss_scale_keras3, loss_scale_tf_keras
        return isinstance(obj, (loss_scale_keras3.LossScaleOptimizer,
                                loss_scale_tf_keras.LossScaleOptimizerV3))

    def __call__(cls, *args, **kwargs):
        return _selected()(*args, **kwargs)


class LossScaleOptimizer(metaclass=_LossScaleOptimizerMeta):
    """``LossScaleOptimizer(inner_optimizer, ...)``: the selected Keras's class (a factory)."""


def dtype_policy():
    """Keras 3's ``keras.mixed_precision.dtype_policy()``: the global policy."""
    return global_policy()


def set_dtype_policy(policy):
    set_global_policy(policy)
