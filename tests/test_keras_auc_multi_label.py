"""AUC(multi_label=True) and label_weights: per-label curves averaged (or weighted), against the
single-label AUC of each column and closed forms."""
import numpy as np
import pytest

import sim.tf as tf

RNG = np.random.default_rng(0)
Y_TRUE = (RNG.random((40, 3)) > 0.5).astype(np.float32)
Y_PRED = np.clip(Y_TRUE * 0.3 + RNG.random((40, 3)) * 0.7, 0, 1).astype(np.float32)


def _auc(y_true, y_pred, **kwargs):
    m = tf.keras.metrics.AUC(**kwargs)
    m.update_state(y_true, y_pred)
    return float(m.result())


def test_separable_and_reversed_labels_average_to_one_half():
    y_true = np.array([[1, 0], [0, 1]], np.float32)
    y_pred = np.array([[0.9, 0.8], [0.1, 0.2]], np.float32)   # label 0 perfect, label 1 reversed
    assert _auc(y_true, y_pred, multi_label=True) == pytest.approx(0.5)
    assert _auc(y_true, y_pred, multi_label=True, label_weights=[1.0, 0.0]) == pytest.approx(1.0)
    assert _auc(y_true, y_pred, multi_label=True, label_weights=[0.0, 1.0]) == pytest.approx(0.0)


@pytest.mark.parametrize("curve", ["ROC", "PR"])
def test_multi_label_is_the_mean_of_each_labels_auc(curve):
    per_label = [_auc(Y_TRUE[:, i], Y_PRED[:, i], curve=curve) for i in range(3)]
    assert _auc(Y_TRUE, Y_PRED, multi_label=True, curve=curve) == pytest.approx(np.mean(per_label), rel=1e-6)
    weights = np.array([0.5, 0.0, 2.0])
    assert _auc(Y_TRUE, Y_PRED, multi_label=True, curve=curve, label_weights=weights) == \
        pytest.approx(np.dot(per_label, weights) / weights.sum(), rel=1e-6)
    pooled = _auc(Y_TRUE, Y_PRED, curve=curve)   # one curve over every (example, label) pair
    assert pooled == pytest.approx(_auc(Y_TRUE.reshape(-1), Y_PRED.reshape(-1), curve=curve))


def test_label_weights_without_multi_label_weigh_each_labels_examples():
    weights = np.array([1.0, 0.0, 3.0], np.float32)
    got = _auc(Y_TRUE, Y_PRED, label_weights=weights)
    m = tf.keras.metrics.AUC()
    m.update_state(Y_TRUE, Y_PRED, sample_weight=np.broadcast_to(weights, Y_PRED.shape))
    assert got == pytest.approx(float(m.result()))
    with pytest.raises(ValueError, match="must be non-negative"):
        tf.keras.metrics.AUC(label_weights=[1.0, -1.0])


def test_counts_are_per_label_and_built_at_the_first_update():
    m = tf.keras.metrics.AUC(multi_label=True, num_thresholds=5)
    assert float(m.result()) == 0.0 and m.variables == []
    m.update_state(Y_TRUE, Y_PRED)
    assert [tuple(v.shape) for v in m.variables] == [(5, 3)] * 4
    assert m.get_config()["multi_label"] is True and m.get_config()["num_labels"] == 3
