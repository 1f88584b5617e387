"""Exercise 03: the loss of a custom training loop under MirroredStrategy.

The learner writes ``compute_loss(labels, predictions, model_losses, global_batch_size)``, the
function TensorFlow's custom-training tutorial calls inside each replica's step. The checker
trains a small regularised linear model with it under ``MirroredStrategy`` on 1, 2 and 4
replicas of the simulated workstation, with global batches that do and do not split evenly,
and compares the weights with the same training on one device over the whole global batch
(semantics §4.1-§4.5: per-replica losses divided by the global batch, regularisation divided by
the number of replicas, gradients SUM-all-reduced by ``apply_gradients``). A wrong answer is
retrained with each known mistake; the one that gives the learner's weights is named.
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from sim.course.exercises.checker import Case, close, run_cases
from sim.i18n import t

FEATURES = 3
LEARNING_RATE = 0.1
L2 = 0.05
STEPS = 3
# (replicas, global batch): single device, even splits, then uneven ones ([3,3,3,1] and [4,3]).
SETUPS = [(1, 8), (2, 8), (4, 8), (4, 10), (2, 7)]


def loss_object():
    """The per-example loss the exercise gives the learner: MSE with reduction NONE."""
    import sim.tf as tf
    return tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)


def reference_compute_loss(labels, predictions, model_losses, global_batch_size):
    """The right answer, as in TensorFlow's custom-training tutorial."""
    import sim.tf as tf
    per_example_loss = loss_object()(labels, predictions)
    loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)
    if model_losses:
        loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
    return loss


def _mistake(data_loss: str, regularization: str) -> Callable:
    """A compute_loss with a known mistake in the data term and/or the regularisation term."""
    import sim.tf as tf

    def compute_loss(labels, predictions, model_losses, global_batch_size):
        per_example_loss = loss_object()(labels, predictions)
        if data_loss == "local_mean":
            loss = tf.reduce_mean(per_example_loss)
        elif data_loss == "default_global":
            loss = tf.nn.compute_average_loss(per_example_loss)
        elif data_loss == "positional":
            loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size)
        elif data_loss == "over_replicas":
            replicas = tf.distribute.get_strategy().num_replicas_in_sync
            loss = tf.nn.compute_average_loss(per_example_loss,
                                              global_batch_size=global_batch_size) / replicas
        else:
            loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)
        if model_losses and regularization == "unscaled":
            loss += tf.add_n(model_losses)
        elif model_losses and regularization == "scaled":
            loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        return loss

    return compute_loss


# Known mistakes -> catalogue key. Regularisation-only mistakes come first: on one replica a
# per-replica mean equals the global mean, so only the regularisation term can be told apart.
MISTAKES = [
    (("global", "unscaled"), "lesson03.hint_reg_unscaled"),
    (("global", "missing"), "lesson03.hint_reg_missing"),
    (("local_mean", "scaled"), "lesson03.hint_local_mean"),
    (("local_mean", "unscaled"), "lesson03.hint_local_mean"),
    (("local_mean", "missing"), "lesson03.hint_local_mean"),
    (("positional", "scaled"), "lesson03.hint_positional"),
    (("positional", "unscaled"), "lesson03.hint_positional"),
    (("over_replicas", "scaled"), "lesson03.hint_over_replicas"),
    (("default_global", "scaled"), "lesson03.hint_default_global"),
    (("default_global", "unscaled"), "lesson03.hint_default_global"),
]


def _data(replicas: int, global_batch: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(global_batch * STEPS, FEATURES)).astype("float32")
    true_w = rng.normal(size=(FEATURES, 1)).astype("float32")
    y = (x @ true_w + 0.1 * rng.normal(size=(len(x), 1))).astype("float32")
    init = [rng.normal(size=(FEATURES, 1)).astype("float32"), np.array([0.5], dtype="float32")]
    return x, y, init


def train(compute_loss: Callable, replicas: int, global_batch: int, seed: int = 0) -> np.ndarray:
    """Train STEPS steps with ``compute_loss`` in each replica; return the weights, flattened.

    ``replicas=0`` means no strategy at all: one device, the whole global batch per step.
    """
    import sim.tf as tf

    x, y, init = _data(max(replicas, 1), global_batch, seed)
    if replicas:
        strategy = tf.distribute.MirroredStrategy(devices=[f"/gpu:{i}" for i in range(replicas)])
    else:
        strategy = tf.distribute.get_strategy()
    with strategy.scope():
        # Same start everywhere: constant initializers (a MirroredVariable's cross-replica assign of an array fails in sim today).
        model = tf.keras.Sequential([tf.keras.layers.Dense(
            1, input_shape=(FEATURES,), kernel_regularizer=tf.keras.regularizers.L2(L2),
            kernel_initializer=tf.keras.initializers.Constant(init[0]),
            bias_initializer=tf.keras.initializers.Constant(init[1]))])
        optimizer = tf.keras.optimizers.SGD(learning_rate=LEARNING_RATE)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch)

    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            loss = compute_loss(labels, predictions, model.losses, global_batch)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    if replicas:
        for inputs in strategy.experimental_distribute_dataset(dataset):
            strategy.run(train_step, args=(inputs,))
    else:
        for inputs in dataset:
            train_step(inputs)
    return np.concatenate([np.asarray(w, dtype=float).ravel() for w in model.get_weights()])


def _matches(got, expected) -> bool:
    return close(got, expected, rtol=1e-4, atol=1e-5)


def cases(seed: int = 0) -> list[Case]:
    """One case per (replicas, global batch); the expected weights come from one device."""
    result = []
    for replicas, global_batch in SETUPS:
        # The legacy split TensorFlow applies to in-memory data (semantics §3.1): ceil slices.
        per = -(-global_batch // replicas)
        sizes = [max(0, min(per, global_batch - k * per)) for k in range(replicas)]
        result.append(Case(t("lesson03.case", r=replicas, g=global_batch, sizes=sizes, steps=STEPS),
                           args=(replicas, global_batch, seed),
                           expected=train(reference_compute_loss, 0, global_batch, seed)))
    return result


def diagnose(case: Case, got) -> str | None:
    """Retrain with each known mistake; name the first one that gives the learner's weights."""
    replicas, global_batch, seed = case.args
    for (data_loss, regularization), hint in MISTAKES:
        if _matches(got, train(_mistake(data_loss, regularization), replicas, global_batch, seed)):
            return hint
    return None


def check_compute_loss(fn: Callable) -> None:
    """Check ``fn(labels, predictions, model_losses, global_batch_size)`` in a MirroredStrategy loop."""
    if not callable(fn):
        return run_cases(fn, [])

    @functools.wraps(fn)
    def trained(replicas, global_batch, seed):
        try:
            return train(fn, replicas, global_batch, seed)
        except ValueError as error:  # a reduced loss reached compute_average_loss: say why
            if "at least rank 1" not in str(error):
                raise
            raise ValueError(f"{error}\n{t('lesson03.hint_reduced_loss')}") from error

    return run_cases(trained, cases(), compare=_matches, diagnose=diagnose)
