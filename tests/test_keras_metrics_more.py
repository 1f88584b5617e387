"""Precision, Recall, AUC, MeanIoU and the top-k accuracies: Keras' documented examples, hand
computations of its formulas, and the same values under MirroredStrategy (each replica counts
its own examples; a read sums the counts before dividing)."""
import math

import numpy as np
import pytest

import sim.tf as tf

K = tf.keras.metrics


def _value(metric):
    return np.asarray(metric.result().numpy()).tolist()


def test_precision_documented_examples():
    m = K.Precision()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    assert _value(m) == pytest.approx(2 / 3)
    m.reset_state()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1], sample_weight=[0, 0, 1, 0])
    assert _value(m) == 1.0
    m = K.Precision(top_k=2)
    m.update_state([0, 0, 1, 1], [1, 1, 1, 1])
    assert _value(m) == 0.0
    m = K.Precision(top_k=4)
    m.update_state([0, 0, 1, 1], [1, 1, 1, 1])
    assert _value(m) == 0.5


def test_recall_documented_examples_and_thresholds_list():
    m = K.Recall()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    assert _value(m) == pytest.approx(2 / 3)
    m.reset_state()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1], sample_weight=[0, 0, 1, 0])
    assert _value(m) == 1.0
    m = K.Recall(thresholds=[0.2, 0.5, 0.8])  # a prediction equal to a threshold is negative
    m.update_state([1, 1, 1, 0], [0.2, 0.5, 0.9, 0.9])
    assert _value(m) == pytest.approx([2 / 3, 1 / 3, 1 / 3])


def test_precision_class_id_and_empty_reads_zero():
    m = K.Precision(class_id=1)
    assert _value(m) == 0.0  # divide_no_nan
    m.update_state([[0, 1], [1, 0], [0, 1]], [[0.2, 0.8], [0.3, 0.7], [0.9, 0.1]])
    assert _value(m) == 0.5
    assert [v.name.split(":")[0] for v in m.variables] == ["true_positives", "false_positives"]


def test_auc_documented_example():
    m = K.AUC(num_thresholds=3)
    m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    assert _value(m) == pytest.approx(0.75)
    np.testing.assert_allclose(m.true_positives.numpy(), [2, 1, 0])
    np.testing.assert_allclose(m.false_positives.numpy(), [2, 0, 0])
    m.reset_state()
    m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9], sample_weight=[1, 0, 0, 1])
    assert _value(m) == 1.0
    assert m.thresholds == pytest.approx([-1e-7, 0.5, 1 + 1e-7])


def test_auc_pr_interpolation_by_hand():
    m = K.AUC(num_thresholds=3, curve="PR")
    m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    # tp=[2,1,0], fp=[2,0,0], fn=[0,1,2]: Davis-Goadrich increments 1/3(1 + 2/3 ln 4)/2 and 1/2
    assert _value(m) == pytest.approx((1 + 2 / 3 * math.log(4)) / 6 + 0.5, rel=1e-6)
    m = K.AUC(num_thresholds=3, curve="PR", summation_method="minoring")
    m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    # recall x=[1, .5, 0], precision y=[.5, 1, 0]: minima .5, 0
    assert _value(m) == pytest.approx(0.25)


def test_auc_roc_approaches_the_exact_rank_statistic():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    p = np.clip(0.3 * y + rng.uniform(0, 0.7, 400), 0, 1).astype(np.float32)
    m = K.AUC(num_thresholds=2000)
    m.update_state(y, p)
    pos, neg = p[y == 1], p[y == 0]
    exact = ((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())
    assert _value(m) == pytest.approx(exact, abs=2e-3)


def test_mean_iou_documented_examples(monkeypatch):
    m = K.MeanIoU(num_classes=2)
    m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    assert _value(m) == pytest.approx(1 / 3)
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")  # tf-keras counts in float32
    m = K.MeanIoU(num_classes=2)
    m.update_state([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=[0.3, 0.3, 0.3, 0.1])
    assert _value(m) == pytest.approx(0.23809525)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_classes"):
        m.update_state([0, 2], [0, 1])


def test_top_k_documented_examples_and_tie_rule():
    m = K.TopKCategoricalAccuracy(k=1)
    m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    assert _value(m) == 0.5
    m.reset_state()
    m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]],
                   sample_weight=[0.7, 0.3])
    assert _value(m) == pytest.approx(0.3)
    m = K.SparseTopKCategoricalAccuracy(k=1)
    m.update_state([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    assert _value(m) == 0.5
    m.reset_state()
    m.update_state([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], sample_weight=[0.7, 0.3])
    assert _value(m) == pytest.approx(0.3)
    m = K.SparseTopKCategoricalAccuracy(k=1)  # in_top_k: a tie at the boundary is a hit
    m.update_state([[0], [1]], [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0]])
    assert _value(m) == 1.0


def test_metric_names_resolve_in_compile_lookup():
    assert isinstance(K.get("AUC"), K.AUC) and isinstance(K.get("precision"), K.Precision)
    assert K.get("sparse_top_k_categorical_accuracy") is K.sparse_top_k_categorical_accuracy


def _make_metrics():
    return [K.Precision(), K.Recall(), K.AUC(num_thresholds=50), K.MeanIoU(num_classes=2),
            K.SparseTopKCategoricalAccuracy(k=1)]


def _update(metrics, y, p):
    probs = tf.concat([1 - p[:, None], p[:, None]], axis=1)
    metrics[0].update_state(y, p)
    metrics[1].update_state(y, p)
    metrics[2].update_state(y, p)
    metrics[3].update_state(y, tf.cast(p > 0.5, tf.int64))
    metrics[4].update_state(y, probs)


@pytest.mark.parametrize("replicas", [2, 4])
def test_metrics_under_mirrored_strategy_equal_one_device(replicas):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 24).astype(np.int64)
    p = np.clip(0.4 * y + rng.uniform(0, 0.6, 24), 0, 1).astype(np.float32)
    reference = _make_metrics()
    _update(reference, tf.constant(y), tf.constant(p))

    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(replicas)])
    with strategy.scope():
        metrics = _make_metrics()
    ds = tf.data.Dataset.from_tensor_slices((y, p)).batch(8)
    inside = []

    def step(batch):
        _update(metrics, *batch)
        inside.append(metrics[0].result())  # read in a replica: every replica sees the sum

    for batch in strategy.experimental_distribute_dataset(ds):
        strategy.run(step, args=(batch,))
    for got, want in zip(metrics, reference):
        assert _value(got) == pytest.approx(_value(want), rel=1e-6), got.name
    per_replica = metrics[0].true_positives.values
    assert len(per_replica) == replicas
    assert sum(float(v.numpy()[0]) for v in per_replica) == float(
        reference[0].true_positives.numpy()[0])
    assert float(inside[-1].numpy()) == pytest.approx(_value(reference[0]), rel=1e-6)


def _fit_history(strategy):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = (x[:, 0] > 0).astype("float32")
    tf.random.set_seed(1)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
        model.compile("sgd", "binary_crossentropy", metrics=[K.Precision(), K.AUC(), "recall"])
    return model.fit(x, y, batch_size=16, epochs=2, verbose=0).history


def test_fit_logs_the_same_metrics_on_two_replicas_as_on_one():
    one = _fit_history(tf.distribute.OneDeviceStrategy("/gpu:0"))
    two = _fit_history(tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"]))
    assert set(one) == {"loss", "precision", "auc", "recall"}
    for key in ("precision", "auc", "recall"):
        np.testing.assert_allclose(two[key], one[key], rtol=1e-6)
