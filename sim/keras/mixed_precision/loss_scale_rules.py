"""Dynamic loss scaling's rules, as two small pure functions (the optimizers apply them).

Both Keras versions start at 2**15 and double after 2000 finite steps in a row; on a step with
a non-finite gradient they skip the update, halve the scale and start counting again. They
differ in three details (read in their sources, cross-checked in tests/tf_crosscheck):

- tf-keras (tf_keras/mixed_precision/loss_scale_optimizer.py, ``_DynamicLossScaleState.update``)
  never halves below 1 (``tf.maximum(scale / 2, 1)``), grows when ``counter + 1 >= growth_steps``
  and keeps the old scale if the doubled one is not finite (``_assign_if_finite``). It checks the
  gradients *after* the all-reduce, so every replica skips together.
- Keras 3 (keras/src/optimizers/loss_scale_optimizer.py) halves without a floor
  (``scale * 0.5``) and grows when ``step_counter == growth_steps - 1``. Under a strategy that
  merges (MirroredStrategy, MultiWorkerMirroredStrategy on CPU) it reads replica 0's
  gradients *before* the all-reduce (``experimental_local_results(finite)[0]``).
- A skipped step counts in tf-keras's ``iterations`` (``do_not_apply_fn``), not in Keras 3's.
"""
from __future__ import annotations

import numpy as np

INITIAL_SCALE = 2.0 ** 15
GROWTH_STEPS = 2000


def next_state_tf_keras(scale, counter, finite, growth_steps, multiplier=2.0):
    """tf-keras: ``(scale, counter, apply)`` after one step; float32 arithmetic."""
    scale = np.float32(scale)
    if not finite:
        return max(np.float32(scale / np.float32(multiplier)), np.float32(1.0)), 0, False
    if counter + 1 >= growth_steps:
        grown = np.float32(scale * np.float32(multiplier))
        return (grown if np.isfinite(grown) else scale), 0, True
    return scale, counter + 1, True


def next_state_keras3(scale, counter, finite, growth_steps):
    """Keras 3: ``(scale, counter, apply)`` after one step; float32 arithmetic."""
    scale = np.float32(scale)
    if not finite:
        return np.float32(scale * np.float32(0.5)), 0, False
    if counter == growth_steps - 1:
        return np.float32(scale * np.float32(2.0)), 0, True
    return scale, counter + 1, True


def all_finite(grads):
    """True when every gradient (None skipped) holds only finite numbers."""
    for g in grads:
        if g is None:
            continue
        values = getattr(g, "values", g)                 # IndexedSlices: their values
        a = np.asarray(values.numpy() if hasattr(values, "numpy") else values)
        if not np.isfinite(a.astype(np.float32, copy=False)).all():
            return False
    return True
