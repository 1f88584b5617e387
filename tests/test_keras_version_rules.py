"""The Keras-version differences of docs/keras_versions.md, each under both selections (the
switch is read on every use, so one process can set TF_USE_LEGACY_KERAS per test; the
two-process test is tests/test_keras_version.py). Values are those TensorFlow 2.21 printed."""
import numpy as np
import pytest

import sim.tf as tf
from keras_selection import keras  # noqa: F401  (the fixture)




Y_TRUE, Y_PRED = np.array([[1.0], [2.0]], np.float32), np.zeros((2, 1), np.float32)  # mean 2.5


def test_sum_over_batch_size_loss_inside_strategy_run(keras):
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    loss = tf.keras.losses.MeanSquaredError()
    explicit = tf.keras.losses.MeanSquaredError(reduction="sum_over_batch_size")
    summed = tf.keras.losses.MeanSquaredError(reduction="sum")
    assert float(loss(Y_TRUE, Y_PRED)) == 2.5  # no strategy: the mean, in both versions

    def step():
        return loss(Y_TRUE, Y_PRED), explicit(Y_TRUE, Y_PRED), summed(Y_TRUE, Y_PRED)
    if keras == "tf-keras":
        with pytest.raises(ValueError, match="Please use `tf.keras.losses.Reduction.SUM`"):
            strategy.run(step)
        with strategy.scope(), pytest.raises(ValueError, match="Please use"):
            loss(Y_TRUE, Y_PRED)
        return
    results = [[float(v) for v in strategy.experimental_local_results(r)] for r in strategy.run(step)]
    assert results == [[1.25, 1.25], [1.25, 1.25], [5.0, 5.0]]  # mean / num_replicas_in_sync
    with strategy.scope():
        assert float(loss(Y_TRUE, Y_PRED)) == 1.25
    one = tf.distribute.OneDeviceStrategy("/gpu:0")
    assert float(one.run(lambda: loss(Y_TRUE, Y_PRED))) == 2.5  # one replica: nothing to scale


def _dense():
    return tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])


def test_metrics_names(keras):
    x, y = np.ones((4, 2), np.float32), np.ones((4, 1), np.float32)
    model = _dense()
    assert model.metrics_names == []
    model.compile(loss="mse", optimizer="sgd")
    assert model.metrics_names == (["loss"] if keras == "keras3" else [])
    model.fit(x, y, verbose=0)
    assert model.metrics_names == ["loss"]
    model.compile(loss="mse", optimizer="sgd", metrics=["mae"])
    after_compile = model.metrics_names
    values = model.evaluate(x, y, verbose=0)
    if keras == "keras3":
        assert after_compile == model.metrics_names == ["loss", "compile_metrics"]
    else:
        assert after_compile == [] and model.metrics_names == ["loss", "mae"]
    assert len(values) == 2 and values[1] == pytest.approx(np.abs(model.predict(x, verbose=0) - y).mean())


def test_learning_rate_is_a_float32_variable_named_as_each_version_names_it(keras):
    opt = tf.keras.optimizers.SGD(learning_rate=0.01)
    rate = opt.learning_rate
    assert float(rate) == float(np.float32(0.01)) == 0.009999999776482582
    if keras == "keras3":
        assert rate.name == "learning_rate" and rate.path.endswith("/learning_rate")
        assert repr(rate).startswith("<Variable path=sgd") and "value=0.009999999776482582>" in repr(rate)
    else:
        assert rate.name == "learning_rate:0"
        assert repr(rate) == "<tf.Variable 'learning_rate:0' shape=() dtype=float32, numpy=0.01>"
    v = tf.Variable([1.0, 2.0])
    rate.assign(0.5)                      # the variable is the rate the optimizer uses
    opt.apply_gradients([(tf.constant([0.5, -1.0]), v)])
    assert v.numpy().tolist() == [0.75, 2.5]
    opt.learning_rate = 0.25              # setting it assigns the same variable
    assert opt.learning_rate is rate and float(rate) == 0.25


def test_learning_rate_under_a_schedule(keras):
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    opt = tf.keras.optimizers.SGD(learning_rate=schedule)
    v = tf.Variable([1.0])
    seen = [opt.learning_rate]
    for _ in range(2):
        opt.apply_gradients([(tf.constant([1.0]), v)])
        seen.append(opt.learning_rate)
    rates = [float(np.float32(0.1 * 0.5 ** (step / 10))) for step in range(3)]
    if keras == "keras3":   # the current step's rate, as a tensor
        assert [float(r) for r in seen] == pytest.approx(rates, rel=1e-7)
        assert not any(hasattr(r, "assign") for r in seen)
    else:                   # 'current_learning_rate:0': the rate of the last applied step
        assert [float(r) for r in seen] == pytest.approx([rates[0], rates[0], rates[1]], rel=1e-7)
        assert {r.name for r in seen} == {"current_learning_rate:0"}
    with pytest.raises(TypeError, match="hence its learning rate is not settable"):
        opt.learning_rate = 0.5


def test_loss_reductions_each_version_accepts(keras):
    y_true, y_pred = np.array([[1.0], [2.0], [3.0]]), np.array([[0.0], [0.0], [1.0]])
    weights = np.array([1.0, 0.5, 0.0])   # squared errors 1, 4, 4
    default = tf.keras.losses.MeanSquaredError()
    assert default.reduction == ("sum_over_batch_size" if keras == "keras3" else "auto")
    assert float(default(y_true, y_pred)) == 3.0
    assert float(default(y_true, y_pred, sample_weight=weights)) == 1.0   # (1 + 2) / 3
    if keras == "keras3":
        mean = tf.keras.losses.MeanSquaredError(reduction="mean")
        by_weight = tf.keras.losses.MeanSquaredError(reduction="mean_with_sample_weight")
        unreduced = tf.keras.losses.MeanSquaredError(reduction=None)
        assert float(mean(y_true, y_pred, sample_weight=weights)) == 1.0
        assert float(by_weight(y_true, y_pred, sample_weight=weights)) == 2.0  # (1 + 2) / 1.5
        assert float(by_weight(y_true, y_pred)) == 3.0
        assert unreduced(y_true, y_pred).numpy().tolist() == [1.0, 4.0, 4.0]
        with pytest.raises(ValueError, match=r"Expected one of \{None, 'none'.*reduction=auto"):
            tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.AUTO)
    else:
        for rejected in ("mean", "mean_with_sample_weight", None):
            with pytest.raises(ValueError, match=f"Invalid Reduction Key: {rejected}"):
                tf.keras.losses.MeanSquaredError(reduction=rejected)


def test_mean_with_sample_weight_is_scaled_like_the_mean_under_a_strategy(keras):
    if keras != "keras3":
        pytest.skip("a Keras 3 reduction")
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    loss = tf.keras.losses.MeanSquaredError(reduction="mean_with_sample_weight")
    weights = tf.constant([1.0, 3.0])
    per_replica = strategy.run(lambda: loss(Y_TRUE, Y_PRED, sample_weight=weights))
    # (1 * 1 + 3 * 4) / (1 + 3) = 3.25 per replica, divided by 2 replicas
    assert [float(v) for v in strategy.experimental_local_results(per_replica)] == [1.625, 1.625]


def test_metric_variable_names(keras):
    first, second = tf.keras.metrics.Precision(), tf.keras.metrics.Precision()
    auc = tf.keras.metrics.AUC(num_thresholds=3)
    if keras == "keras3":
        assert [v.name for v in first.variables] == ["true_positives", "false_positives"]
        prefix = first.variables[0].path.split("/")[0]
        assert prefix.startswith("precision") and second.variables[0].path.split("/")[0] != prefix
        assert [v.name for v in auc.variables] == ["true_positives", "false_positives",
                                                   "true_negatives", "false_negatives"]
        strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
        with strategy.scope():
            recall = tf.keras.metrics.Recall()
        assert [v.name for v in recall.variables] == ["true_positives", "false_negatives"]
        assert recall.variables[0].path.endswith("/true_positives")
    else:
        assert [v.name for v in first.variables] == ["true_positives:0", "false_positives:0"]
        assert not hasattr(first.variables[0], "path")
        assert [v.name for v in auc.variables] == ["true_positives:0", "true_negatives:0",
                                                   "false_positives:0", "false_negatives:0"]


def test_keras_2_optimizer_arguments(keras):
    if keras == "keras3":
        with pytest.raises(ImportError, match="not supported in Keras 3.*TF_USE_LEGACY_KERAS=True"):
            tf.keras.optimizers.legacy.SGD(0.1)
        with pytest.raises(ValueError, match=r"Argument\(s\) not recognized: \{'lr': 0.1\}"):
            tf.keras.optimizers.SGD(lr=0.1)
        with pytest.warns(UserWarning, match="`decay` is no longer supported"):
            opt = tf.keras.optimizers.SGD(0.1, decay=0.5)
        assert not hasattr(opt, "lr")
        opt.lr = 0.5                                   # a plain attribute: the rate is unchanged
        assert opt.lr == 0.5 and float(opt.learning_rate) == pytest.approx(0.1)
        return
    with pytest.warns(UserWarning, match="The `lr` argument is deprecated"):
        legacy = tf.keras.optimizers.legacy.SGD(lr=0.1, decay=0.5)   # optimizer_v2 takes both
    assert float(legacy.learning_rate) == pytest.approx(0.1)
    with pytest.warns(UserWarning, match="`lr` is deprecated in TF-Keras optimizer"):
        opt = tf.keras.optimizers.SGD(lr=0.1)             # the new optimizer ignores `lr`
    assert float(opt.learning_rate) == pytest.approx(0.01)
    with pytest.raises(ValueError, match="decay is deprecated in the new TF-Keras optimizer"):
        tf.keras.optimizers.SGD(0.1, decay=0.5)
    opt.lr = 0.5                                          # an alias of learning_rate
    assert float(opt.learning_rate) == 0.5 and opt.lr is opt.learning_rate
