"""Datasets read from files: ``TFRecordDataset``, ``TextLineDataset`` and ``list_files``.

A reader is a node over a dataset of file names (its ``_input``), so the auto-shard rewrite
can shard the names, as TensorFlow's FILE policy does. One file name or a list becomes
``from_tensor_slices(names)``; a dataset of scalar strings (``list_files``) is used as is.
Files are read in order; with ``num_parallel_reads`` they are interleaved one record at a
time, like TensorFlow's deterministic parallel interleave.
"""
from __future__ import annotations

import glob as _glob
import os

import numpy as np

from sim.data.dataset import Dataset
from sim.data.tfrecord import compression, read_lines, read_records
from sim.engine import dtypes
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor

READER_KINDS = ("TFRecordDataset", "TextLineDataset")


def _string(value: bytes) -> Tensor:
    # An object array keeps trailing NUL bytes that NumPy's fixed-width bytes would drop.
    return Tensor(np.array(value, dtype=object), dtypes.string)


def _name(tensor):
    value = tensor.numpy() if hasattr(tensor, "numpy") else tensor
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def filenames_dataset(filenames, reader):
    """File names as a dataset of scalar strings (TensorFlow's check and conversion)."""
    from sim.i18n import t
    if isinstance(filenames, Dataset):
        spec = filenames.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype is dtypes.string and spec.shape.rank == 0):
            raise TypeError("`filenames` must be a `tf.data.Dataset` of scalar `tf.string` "
                            "elements. " + t("datafiles.filenames", reader=reader))
        return filenames
    if isinstance(filenames, (str, bytes, os.PathLike)):
        filenames = [filenames]
    names = list(np.asarray(filenames.numpy(), dtype=object).reshape(-1)) if hasattr(
        filenames, "numpy") else list(filenames)
    if not all(isinstance(n, (str, bytes, os.PathLike)) for n in names):
        raise TypeError("`filenames` must be a `tf.Tensor` of `tf.string` elements. "
                        + t("datafiles.filenames", reader=reader))
    names = [os.fsencode(n) if not isinstance(n, bytes) else n for n in names]
    return Dataset.from_tensor_slices(np.array(names, dtype=object))


class _ReaderDataset(Dataset):
    """Records of the files named by the input dataset, file after file (or interleaved)."""

    def __init__(self, filenames, kind, read, compression_type, num_parallel_reads, spec):
        self._kind, self._read = kind, read
        self._compression = compression(compression_type)
        self._parallel = None if num_parallel_reads is None else int(num_parallel_reads)
        super().__init__(filenames_dataset(filenames, kind), spec)

    def is_file_based(self):
        return True

    def _records(self, name):
        for record in self._read(_name(name), self._compression):
            yield _string(record)

    def _iterate(self):
        if not self._parallel or self._parallel == 1:
            for name in self._input._iterate():
                yield from self._records(name)
            return
        from sim.data.transforms.interleaving import interleave_iterators
        yield from interleave_iterators(self._input._iterate(), self._records, self._parallel, 1)


def TFRecordDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None,
                    name=None):
    """``tf.data.TFRecordDataset``: the records (scalar strings) of one or more TFRecord files."""
    return _ReaderDataset(filenames, "TFRecordDataset", read_records, compression_type,
                          num_parallel_reads, TensorSpec([], dtypes.string))


def TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None,
                    name=None):
    """``tf.data.TextLineDataset``: the lines (without line ends) of one or more text files."""
    return _ReaderDataset(filenames, "TextLineDataset", read_lines, compression_type,
                          num_parallel_reads, TensorSpec([], dtypes.string))


def list_files(file_pattern, shuffle=None, seed=None, name=None):
    """``Dataset.list_files``: the files matching the pattern(s), sorted, then shuffled unless
    ``shuffle=False`` (with ``seed``, the same order every time)."""
    patterns = [file_pattern] if isinstance(file_pattern, (str, bytes, os.PathLike)) else (
        list(np.asarray(file_pattern.numpy(), dtype=object).reshape(-1)) if hasattr(file_pattern, "numpy")
        else list(file_pattern))
    patterns = [os.fsdecode(p) for p in patterns]
    matches = sorted(m for p in patterns for m in _glob.glob(p) if os.path.isfile(m))
    if not matches:
        from sim.engine.errors import InvalidArgumentError
        from sim.i18n import t
        raise InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' "
                                   "to be true. Summarized data: b'No files matched pattern: "
                                   f"{', '.join(patterns)}'\n"
                                   + t("datafiles.no_match", pattern=", ".join(patterns)))
    ds = Dataset.from_tensor_slices(np.array([os.fsencode(m) for m in matches], dtype=object))
    if shuffle is None or shuffle:
        ds = ds.shuffle(max(len(matches), 1), seed=seed)
    return ds
