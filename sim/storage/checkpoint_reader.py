"""``tf.train.load_checkpoint`` and ``tf.train.list_variables``: what a checkpoint holds, by key.

Keys are TensorFlow's: a variable's path of dependency names with ``/.ATTRIBUTES/VARIABLE_VALUE``
(``net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE``), a dataset iterator's with
``/.ATTRIBUTES/ITERATOR_STATE``, and ``_CHECKPOINTABLE_OBJECT_GRAPH`` (TensorFlow's serialized
object graph; here the file's JSON table of paths), so the checkpoint guide's listing reads the
same. A directory means its latest checkpoint.
"""
from __future__ import annotations

import json
import os

import numpy as np

from sim.storage import safe_io

VALUE = "/.ATTRIBUTES/VARIABLE_VALUE"
ITERATOR = "/.ATTRIBUTES/ITERATOR_STATE"
GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"


class CheckpointReader:
    """``tf.train.load_checkpoint``'s reader: shapes, dtypes and values by key."""

    def __init__(self, prefix):
        file = prefix + ".npz"
        meta, data = safe_io.read_npz(file, required=("keys",))
        self._values = {p + VALUE: safe_io.checked_array(data, k, file) for p, k in meta["keys"].items()}
        for path in meta.get("iterators", {}):
            self._values[path + ITERATOR] = np.array(json.dumps(meta["iterators"][path]).encode(), dtype=object)
        self._values[GRAPH] = np.array(json.dumps(meta["keys"]).encode(), dtype=object)

    def get_variable_to_shape_map(self):
        return {k: list(np.shape(v)) for k, v in self._values.items()}

    def get_variable_to_dtype_map(self):
        from sim.engine import dtypes
        return {k: dtypes.string if np.asarray(v).dtype.kind == "O" else dtypes.as_dtype(np.asarray(v).dtype)
                for k, v in self._values.items()}

    def has_tensor(self, key):
        return key in self._values

    def get_tensor(self, key):
        if key not in self._values:
            from sim.engine.errors import NotFoundError
            raise NotFoundError(None, None, f"Key {key} not found in checkpoint")
        v = self._values[key]
        return v[()] if np.ndim(v) == 0 and np.asarray(v).dtype.kind == "O" else np.array(v)


def _prefix(ckpt_dir_or_file):
    from sim.storage.checkpoint import latest_checkpoint
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        found = latest_checkpoint(path)
        if found is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory "
                             f"{path}")
        return found
    return path[:-4] if path.endswith(".npz") else path


def load_checkpoint(ckpt_dir_or_file):
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """``tf.train.list_variables``: sorted (key, shape) pairs."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(k, shapes[k]) for k in sorted(shapes)]
