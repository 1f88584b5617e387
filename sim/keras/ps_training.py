"""``Model.fit`` under ParameterServerStrategy: training steps scheduled on the simulated workers.

As tf-keras does with a ParameterServerStrategy (§7.4): the input becomes one dataset per worker
(a ``DatasetCreator``'s function is called per worker; a dataset or arrays are given to every
worker as they are), each scheduled function runs ``steps_per_execution`` training steps on its
worker's iterator, and the coordinator joins at every epoch end, when the logs of the last
scheduled function are fetched. ``steps_per_epoch`` is required (TensorFlow's DatasetCreator
error otherwise); batch-level callback hooks see the step count but no logs.
"""
from __future__ import annotations

import sim.tf as tf
from sim.keras import _errors
from sim.keras import callbacks as callbacks_mod
from sim.keras import data_adapter
from sim.distribute.ps import side_by_side
from sim.keras.training_utils import _numpy_logs


def coordinator_for(model):
    """The strategy's ClusterCoordinator (made once, as tf-keras keeps ``_cluster_coordinator``)."""
    if getattr(model, "_cluster_coordinator", None) is None:
        model._cluster_coordinator = tf.distribute.coordinator.ClusterCoordinator(
            model.distribute_strategy)
    return model._cluster_coordinator


def _per_worker_dataset_fn(strategy, x, y, sample_weight, batch_size):
    """What each worker builds: the DatasetCreator's dataset, the dataset, or batched arrays."""
    if isinstance(x, data_adapter.DatasetCreator):
        return lambda: strategy.distribute_datasets_from_function(x)
    if data_adapter._is_dataset(x) or data_adapter._is_distributed_dataset(x):
        if y is not None:
            raise ValueError("`y` argument is not supported when using dataset as input.")
        return lambda: x
    parts = tuple(a for a in (x, y, sample_weight) if a is not None)
    data = parts[0] if len(parts) == 1 else parts
    batch_size = data_adapter.checked_batch_size(batch_size)
    return lambda: tf.data.Dataset.from_tensor_slices(data).batch(batch_size).repeat()


def fit(model, x, y, batch_size, epochs, verbose, callbacks, validation_data, sample_weight,
        initial_epoch, steps_per_epoch, validation_steps):
    strategy = model.distribute_strategy
    if steps_per_epoch is None:
        raise ValueError(_errors.msg("dataset_creator_steps", data_adapter._CREATOR_TEXT))
    coordinator = coordinator_for(model)
    per_step = max(1, int(model._steps_per_execution))
    with strategy.scope():
        dataset = coordinator.create_per_worker_dataset(
            _per_worker_dataset_fn(strategy, x, y, sample_weight, batch_size))
        iterator = iter(dataset)

        def one_step(it):
            return model._run(model.train_step, next(it))

        def count_steps():
            model._train_counter += per_step

        @tf.function
        def train_function(it):
            logs = None
            for _ in range(per_step):
                logs = one_step(it)
            count_steps()
            return logs
        side_by_side.say(train_function, per_step, one_step, count_steps)   # for one host

        cbs = callbacks_mod.CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                         model=model, verbose=verbose, epochs=epochs,
                                         steps=steps_per_epoch)
        model.stop_training = False
        cbs.on_train_begin()
        first_epoch = initial_epoch
        if model._training_state is not None:
            first_epoch, _ = model._training_state.maybe_load_initial_counters_from_ckpt(
                steps_per_epoch, initial_epoch)
        epoch_logs = {}
        for epoch in range(first_epoch, epochs):
            model.reset_metrics()
            cbs.on_epoch_begin(epoch)
            last = None
            for step in range(0, steps_per_epoch, per_step):
                cbs.on_train_batch_begin(step)
                last = coordinator.schedule(train_function, args=(iterator,))
                cbs.on_train_batch_end(min(step + per_step, steps_per_epoch) - 1, None)
            coordinator.join()
            epoch_logs = _metrics_after_join(model, last.get()) if last is not None else {}
            if validation_data is not None:
                vx, vy, vsw = data_adapter.unpack_x_y_sample_weight(validation_data) \
                    if isinstance(validation_data, tuple) else (validation_data, None, None)
                val = model.evaluate(vx, vy, sample_weight=vsw, steps=validation_steps, verbose=0,
                                     return_dict=True)
                epoch_logs.update({"val_" + k: v for k, v in val.items()})
            cbs.on_epoch_end(epoch, epoch_logs)
            if model.stop_training:
                break
        cbs.on_train_end(epoch_logs)
    return model.history


def _metrics_after_join(model, logs):
    """The epoch's logs as tf-keras's fit gives them: the model's metrics read once every
    scheduled step is done (``_validate_and_get_metrics_result``), not what the last scheduled
    function saw (steps of another worker may have finished after it); the last function's logs
    when their keys differ (a custom train_step)."""
    metrics = model.get_metrics_result()
    if isinstance(logs, dict) and set(logs) == set(metrics):
        logs = metrics
    return _numpy_logs(logs)
