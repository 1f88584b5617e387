"""What fit/evaluate/predict share around ``Model`` (tf-keras keeps these in training.py too).

The verbose default under a strategy, validation data (split off the arrays, unpacked, run
every ``validation_freq`` epochs), one pass of batches for evaluate/predict, and the results:
logs turned into NumPy, the value(s) ``evaluate``/``*_on_batch`` return, ``predict``'s outputs
joined batch after batch.
"""
from __future__ import annotations

import numpy as np

from sim.keras import backend, data_adapter, distribute_utils as du


def _split_validation(x, y, sample_weight, validation_split):
    """``fit(validation_split=...)``: the last part of the arrays becomes the validation data.

    Returns ``(x, y, sample_weight, validation_data)``; datasets cannot be split."""
    if data_adapter._is_dataset(x) or isinstance(x, data_adapter.DatasetCreator):
        raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays, "
                         f"found following types in the input: {[type(x)]}")
    arrays = tuple(data_adapter._as_numpy(a) for a in (x, y, sample_weight) if a is not None)
    train, validation_data = data_adapter.train_validation_split(arrays, validation_split)
    x = train[0]
    y = train[1] if y is not None else None
    sample_weight = train[-1] if sample_weight is not None else None
    return x, y, sample_weight, validation_data


def _unpack_validation(validation_data):
    if data_adapter._is_dataset(validation_data) or isinstance(validation_data, data_adapter.DatasetCreator):
        return validation_data, None, None
    if isinstance(validation_data, (list, tuple)):
        if len(validation_data) == 2:
            return validation_data[0], validation_data[1], None
        if len(validation_data) == 3:
            return tuple(validation_data)
    raise ValueError("When passing a `validation_data` argument, it must contain either 2 items "
                     "(x_val, y_val), or 3 items (x_val, y_val, val_sample_weights), or "
                     "alternatively it could be a dataset or a dataset or a dataset iterator. "
                     f"However we received `validation_data={validation_data}`")


def _should_eval(epoch, freq):
    if isinstance(freq, int):
        return (epoch + 1) % freq == 0
    return (epoch + 1) in freq


def _resolve_verbose(verbose, strategy):
    if verbose == "auto":
        return 2 if du.is_ps_strategy(strategy) else 1
    if verbose == 1 and du.is_ps_strategy(strategy):
        raise ValueError("`verbose=1` is not allowed with `ParameterServerStrategy` for "
                         "performance reasons. Received: verbose=1")
    return int(verbose)


def _batches(handler, on_batch_begin):
    """``(step, batch)`` for one pass of evaluate/predict: the batch-begin callback runs before
    each pull, and the pass ends quietly when the data runs out before ``steps``."""
    iterator = handler.iterator_for_epoch(0)
    for step in handler.steps():
        on_batch_begin(step)
        try:
            batch = next(iterator)
        except StopIteration:
            return
        yield step, batch


def _numpy_logs(logs):
    if not isinstance(logs, dict):
        return logs
    out = {}
    for k, v in logs.items():
        val = backend.get_value(v)
        out[k] = float(val) if np.ndim(val) == 0 else np.asarray(val)
    return out


def _logs_result(model, logs, return_dict):
    if return_dict:
        return logs
    values = [logs[n] for n in model._log_names() if n in logs]
    return values[0] if len(values) == 1 else values


def _concat_outputs(outputs):
    """``predict``'s result: the batches' outputs joined along the batch axis, per output."""
    first = outputs[0]
    if isinstance(first, dict):
        return {k: np.concatenate([o[k] for o in outputs]) for k in first}
    if isinstance(first, (list, tuple)):
        return [np.concatenate([o[i] for o in outputs]) for i in range(len(first))]
    return np.concatenate(outputs)
