"""An optimizer applied outside the model's strategy scope raises TensorFlow's slot-variable
error (optimizer_v2.add_slot's text), then the course-language fix; inside the scope it works."""
import re

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n

TF_TEXT = ("Trying to create optimizer slot variable under the scope for tf.distribute.Strategy "
           "({}), which is different from the scope used for the original variable ({}). Make "
           "sure the slot variables are created under the same strategy scope. This may happen "
           "if you're restoring from a checkpoint outside the scope.")


@pytest.fixture
def language():
    old = i18n.get_language()
    yield i18n.set_language
    i18n.set_language(old)


def _model_in_mirrored_scope():
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    return strategy, model


def _grads(model):
    return [tf.ones_like(v) for v in model.trainable_variables]


@pytest.mark.parametrize("make", [lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9),
                                  lambda: tf.keras.optimizers.Adam(0.1),
                                  lambda: tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9)],
                         ids=["sgd-momentum", "adam", "legacy-sgd"])
def test_optimizer_outside_scope_raises_tf_text(make, language, request, monkeypatch):
    language("en")
    if "legacy" in request.node.callspec.id:
        monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")   # Keras 3 has no legacy optimizers
    strategy, model = _model_in_mirrored_scope()
    opt = make()                                       # outside strategy.scope()
    before = model.get_weights()
    with pytest.raises(ValueError) as e:
        opt.apply_gradients(zip(_grads(model), model.trainable_variables))
    text = str(e.value)
    current = tf.distribute.get_strategy()            # the default strategy
    tf_text = TF_TEXT.format(current, model.trainable_variables[0])
    assert text.startswith(tf_text) and "strategy.scope()" in text[len(tf_text):]
    for got, old in zip(model.get_weights(), before):  # nothing was applied
        np.testing.assert_array_equal(got, old)


@pytest.mark.parametrize("lang, word", [("zh", "作用域"), ("pt", "otimizador")])
def test_course_language_note_follows_tf_text(lang, word, language):
    language(lang)
    _, model = _model_in_mirrored_scope()
    opt = tf.keras.optimizers.Adam(0.1)
    with pytest.raises(ValueError, match=re.escape("Trying to create optimizer slot variable")) as e:
        opt.apply_gradients(zip(_grads(model), model.trainable_variables))
    tf_end = "This may happen if you're restoring from a checkpoint outside the scope.\n"
    assert tf_end in str(e.value)                       # the variable's repr has newlines too
    assert word in str(e.value).split(tf_end, 1)[1]


def test_optimizer_created_and_applied_in_scope_works():
    strategy, model = _model_in_mirrored_scope()
    with strategy.scope():
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
        opt.apply_gradients(zip(_grads(model), model.trainable_variables))
    kernel = model.trainable_variables[0]
    parts = [p.numpy() for p in strategy.experimental_local_results(kernel)]
    assert len(parts) == 2 and np.array_equal(parts[0], parts[1])
    slots = strategy.experimental_local_results(opt.get_slot(kernel, "momentum"))
    assert len(slots) == 2                              # a slot copy on every mirror
