"""Model.fit under ParameterServerStrategy (§7.4): steps scheduled on the simulated workers,
TensorFlow's errors, and the tutorial's callbacks (TensorBoard files that TensorBoard reads,
ModelCheckpoint, BackupAndRestore), plus the side-car evaluator."""
import numpy as np
import pytest

import sim.tf as tf
from tests.ps_cluster import Resolver


def _model(strategy, steps_per_execution=5):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        model.compile(tf.keras.optimizers.SGD(0.05), loss="mse",
                      steps_per_execution=steps_per_execution)
    return model


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = x @ np.array([1.0, -1.0, 2.0, 0.5], np.float32)
    return x, y


def _fit_side_by_side(machine, workers=3, epochs=1):
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=workers, ps=2))
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy,
                                                                           machine=machine)
    model = _model(strategy, steps_per_execution=10)
    model._cluster_coordinator = coordinator
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)
    history = model.fit(ds, epochs=epochs, steps_per_epoch=20, verbose=0)
    return model, history.history["loss"], coordinator.cluster.records


def test_on_one_host_fit_functions_run_side_by_side_step_by_step():
    """The tutorial's machine (side_by_side.py): two scheduled 10-step functions run beside each
    other, one read-compute-write unit per step, each step missing only the other's concurrent
    step; on the default cluster each function is one unit, its 10 steps read at its start."""
    model, _, records = _fit_side_by_side("one-host")
    applied = [r for r in records if r.status == "applied"]
    assert len(applied) == 20                         # one record per step
    assert [r.worker for r in applied[:4]] == [0, 1, 0, 1]
    assert [r.staleness for r in applied] == [0, 1] * 10
    _, _, records = _fit_side_by_side("cluster")
    assert [r.staleness for r in records if r.status == "applied"] == [0, 1]
    assert model._train_counter == 20


def test_the_epoch_logs_are_the_metrics_read_after_every_step():
    """As tf-keras's fit (_validate_and_get_metrics_result): the loss logged for the epoch is the
    mean over all its steps, read after join, not what the last scheduled function saw."""
    model, losses, _ = _fit_side_by_side("one-host")
    assert losses[0] == pytest.approx(float(model.get_metrics_result()["loss"]), rel=1e-7)


def test_fit_schedules_steps_on_the_workers():
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=2, ps=2))
    model = _model(strategy)
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=1).repeat().batch(16)
    history = model.fit(ds, epochs=3, steps_per_epoch=20, verbose=0)
    losses = history.history["loss"]
    assert len(losses) == 3 and losses[-1] < losses[0]
    cluster = model._cluster_coordinator.cluster
    applied = [r for r in cluster.records if r.status == "applied"]
    assert len(applied) == 3 * 20 // 5                  # steps_per_execution steps per closure
    assert {r.worker for r in applied} == {0, 1}
    assert {v.device for v in model.trainable_variables} <= set(strategy.extended.parameter_devices)


def test_fit_errors_are_tensorflows():
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=1, ps=1))
    model = _model(strategy)
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)
    with pytest.raises(ValueError, match="When using a `tf.keras.utils.experimental.DatasetCreator`, "
                                         "`steps_per_epoch`"):
        model.fit(ds, epochs=1)
    with pytest.raises(ValueError, match="`verbose=1` is not allowed with `ParameterServerStrategy`"):
        model.fit(ds, epochs=1, steps_per_epoch=2, verbose=1)


def test_dataset_creator_is_called_once_per_worker():
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=3, ps=1))
    model = _model(strategy, steps_per_execution=1)
    calls = []
    x, y = _data()

    def dataset_fn(input_context):
        calls.append(input_context.num_input_pipelines)
        return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(8)
    model.fit(tf.keras.utils.experimental.DatasetCreator(dataset_fn), epochs=1, steps_per_epoch=6,
              verbose=0)
    assert calls == [1, 1, 1]


def test_tensorboard_files_open_in_tensorboard(tmp_path):
    ea = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=2, ps=1))
    model = _model(strategy)
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)
    history = model.fit(ds, epochs=3, steps_per_epoch=10, verbose=0,
                        callbacks=[tf.keras.callbacks.TensorBoard(log_dir=str(tmp_path / "log"))])
    acc = ea.EventAccumulator(str(tmp_path / "log" / "train"))
    acc.Reload()
    assert acc.Tags()["scalars"] == ["epoch_loss"]
    events = acc.Scalars("epoch_loss")
    assert [e.step for e in events] == [0, 1, 2]
    np.testing.assert_allclose([e.value for e in events], history.history["loss"], rtol=1e-6)


def test_model_checkpoint_and_backup_and_restore(tmp_path):
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=2, ps=1))
    model = _model(strategy)
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)

    class Stop(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise RuntimeError("preempted")

    backup = str(tmp_path / "backup")
    cbs = [tf.keras.callbacks.ModelCheckpoint(filepath=str(tmp_path / "ckpt.keras")),
           tf.keras.callbacks.BackupAndRestore(backup_dir=backup)]
    with pytest.raises(RuntimeError, match="preempted"):
        model.fit(ds, epochs=4, steps_per_epoch=5, verbose=0, callbacks=cbs + [Stop()])
    assert (tmp_path / "ckpt.keras").exists()
    saved = [v.numpy() for v in model.trainable_variables]
    history = model.fit(ds, epochs=4, steps_per_epoch=5, verbose=0, callbacks=cbs)
    assert len(history.history["loss"]) == 2                  # epochs 2 and 3 only: resumed
    assert not (tmp_path / "backup").exists()                 # deleted after a finished fit
    assert not all(np.array_equal(a, v.numpy()) for a, v in zip(saved, model.trainable_variables))


def test_sidecar_evaluator_evaluates_each_checkpoint_once(tmp_path):
    x, y = _data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(tf.keras.optimizers.SGD(0.05), loss="mse")
    model.build((None, 4))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), str(tmp_path), 5)
    manager.save()
    model.fit(x, y, epochs=2, verbose=0)
    manager.save()
    eval_model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    eval_model.compile(loss="mse")
    eval_model.build((None, 4))
    data = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
    sidecar = tf.keras.utils.SidecarEvaluator(model=eval_model, data=data,
                                              checkpoint_dir=str(tmp_path), steps=None,
                                              max_evaluations=None)
    results = sidecar.start()
    assert len(results) == 2
    assert results[1][1]["loss"] < results[0][1]["loss"]   # the trained checkpoint is better
    assert sidecar.start() == results                       # nothing new: nothing re-evaluated
