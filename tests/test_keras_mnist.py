"""keras.datasets.mnist.load_data() over the shipped subset, and the tool that builds it."""
from __future__ import annotations

import zipfile

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n
from sim.keras.datasets import mnist
from tools import make_mnist_subset


def test_load_data_has_tensorflows_structure_shapes_and_dtypes():
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
    assert x_train.shape == (6000, 28, 28) and x_test.shape == (1000, 28, 28)
    assert y_train.shape == (6000,) and y_test.shape == (1000,)
    assert {a.dtype for a in (x_train, y_train, x_test, y_test)} == {np.dtype(np.uint8)}
    np.testing.assert_array_equal(np.bincount(y_train), [600] * 10)
    np.testing.assert_array_equal(np.bincount(y_test), [100] * 10)


def test_digits_look_like_mnist():
    (x_train, y_train), (x_test, _) = mnist.load_data()
    assert x_train.max() == 255 and x_train.min() == 0
    # MNIST's mean grey level is about 33 of 255; the 4-pixel border is nearly always blank
    assert 30 < x_train.mean() < 37
    assert x_train[:, :2].mean() < 0.5 and x_train[:, :, :2].mean() < 0.5
    # a 1 lights fewer pixels than a 0 (a classic MNIST fact)
    ink = (x_train > 127).sum(axis=(1, 2))
    assert ink[y_train == 1].mean() < 0.6 * ink[y_train == 0].mean()
    # no test digit is also a training digit, and the order is shuffled (not sorted by class)
    train_rows = {x.tobytes() for x in x_train}
    assert not any(x.tobytes() in train_rows for x in x_test)
    assert len(set(y_train[:30].tolist())) > 5


def test_the_file_holds_only_plain_arrays():
    with zipfile.ZipFile(mnist.SUBSET) as zf:
        assert sorted(zf.namelist()) == ["x_test.npy", "x_train.npy", "y_test.npy", "y_train.npy"]
    with np.load(mnist.SUBSET, allow_pickle=False) as data:
        assert all(data[k].dtype == np.uint8 for k in data.files)
    assert mnist.SUBSET.stat().st_size < 3_000_000


@pytest.mark.parametrize("lang,word", [("en", "subset"), ("zh", "子集"), ("pt", "subconjunto")])
def test_first_call_prints_a_subset_note_once_in_the_course_language(lang, word, capsys,
                                                                      monkeypatch):
    monkeypatch.setattr(mnist, "_noted", [False])
    old = i18n.get_language()
    i18n.set_language(lang)
    try:
        mnist.load_data()
        mnist.load_data()
    finally:
        i18n.set_language(old)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and word in out and "6000" in out and "1000" in out


def _fake_digits(count=12):
    rng = np.random.default_rng(0)
    return {d: rng.integers(0, 256, (count + d, 28, 28), dtype=np.uint8) for d in range(10)}


def test_tool_selects_balanced_disjoint_splits(monkeypatch):
    monkeypatch.setattr(make_mnist_subset, "TRAIN_PER_CLASS", 5)
    monkeypatch.setattr(make_mnist_subset, "TEST_PER_CLASS", 3)
    digits = _fake_digits()
    a = make_mnist_subset.select(digits)
    np.testing.assert_array_equal(np.bincount(a["y_train"]), [5] * 10)
    np.testing.assert_array_equal(np.bincount(a["y_test"]), [3] * 10)
    for split in ("train", "test"):
        for x, y in zip(a[f"x_{split}"], a[f"y_{split}"]):   # every image keeps its label
            assert any(np.array_equal(x, d) for d in digits[int(y)])
    train = {x.tobytes() for x in a["x_train"]}
    assert not any(x.tobytes() in train for x in a["x_test"])
    b = make_mnist_subset.select(digits)
    assert all(np.array_equal(a[k], b[k]) for k in a)       # a fixed selection


def test_tool_writes_the_same_bytes_every_run(tmp_path):
    arrays = {"x_train": np.zeros((2, 28, 28), np.uint8), "y_train": np.arange(2, dtype=np.uint8),
              "x_test": np.ones((1, 28, 28), np.uint8), "y_test": np.zeros(1, np.uint8)}
    one, two = tmp_path / "a.npz", tmp_path / "b.npz"
    make_mnist_subset.write_npz(one, arrays)
    make_mnist_subset.write_npz(two, arrays)
    assert one.read_bytes() == two.read_bytes()
    with np.load(one, allow_pickle=False) as data:
        assert all(np.array_equal(data[k], v) for k, v in arrays.items())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npz", "b.npz"]   # no temp left
