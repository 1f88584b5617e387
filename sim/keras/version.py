"""Which Keras ``tf.keras`` is: Keras 3 unless ``TF_USE_LEGACY_KERAS`` selects tf-keras (Keras 2).

TensorFlow 2.16+ decides this from the environment variable, accepting "1", "true" and "True";
sim.keras asks here wherever the two versions differ in what a learner sees, so that each
difference is one ``if`` next to the behaviour it changes. Differences followed so far:

- ``MeanIoU`` (and the IoU metrics): Keras 3 counts the confusion matrix in integers
  (``dtype="int"``), so fractional sample weights are truncated; tf-keras counts in float32.
- ``LearningRateScheduler`` writes the rate into the logs (and History) as ``learning_rate``
  under Keras 3, ``lr`` under tf-keras.
- A SUM_OVER_BATCH_SIZE loss object under a strategy: Keras 3 divides the replica's mean by
  ``num_replicas_in_sync``; tf-keras refuses it (sim/keras/losses.py).
- Loss reductions: Keras 3's default is 'sum_over_batch_size' and it accepts "mean",
  "mean_with_sample_weight" and None but not "auto" (sim/keras/loss_reduction.py).
- ``model.metrics_names``: Keras 3 ``['loss', 'compile_metrics']``; tf-keras each metric's name,
  once a step has built them (sim/keras/training.py).
- Metric variables: Keras 3 names them 'true_positives' with a path 'precision/true_positives';
  tf-keras 'true_positives:0' (sim/keras/metrics.py); AUC's creation order differs too.
- ``optimizer.learning_rate``: how the float32 rate variable is named and printed, and what a
  schedule gives (sim/keras/optimizers/rate.py).
- Keras 2 optimizer arguments: ``tf.keras.optimizers.legacy`` (an ImportError under Keras 3),
  ``lr=``, ``decay=`` and ``optimizer.lr`` (sim/keras/optimizers/optimizer.py).
- Layer weight names, paths, repr and type name under a strategy ('kernel', path
  'sequential/dense/kernel', ``<Variable path=...>`` vs 'dense/kernel:0'), also for metric
  variables and ``optimizer.iterations`` (sim/keras/weight_names.py); a model made outside the
  strategy scope fails at compile (tf-keras) or at the first step (Keras 3, sim/keras/training.py).
- Optimizer slot variable names and order ('sequential_dense_kernel_momentum' vs
  'Adam/m/dense/kernel:0'; legacy 'SGD/dense/kernel/momentum:0') (sim/keras/optimizers/optimizer.py).
- ``model.metrics``: Keras 3 the loss tracker and one CompileMetrics; tf-keras each metric, once
  a step has built them (sim/keras/compile_metrics.py).
docs/keras_versions.md lists them with TensorFlow's values, and those not followed yet.
"""
from __future__ import annotations

import os

LEGACY_VALUES = ("1", "true", "True")


def uses_legacy_keras() -> bool:
    """True when TF_USE_LEGACY_KERAS selects tf-keras (Keras 2), as TensorFlow decides it."""
    return os.environ.get("TF_USE_LEGACY_KERAS") in LEGACY_VALUES


def keras_major() -> int:
    return 2 if uses_legacy_keras() else 3
