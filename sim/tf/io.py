"""``tf.io``: TFRecord writing (``sim.data.tfrecord``), ``decode_raw`` and the ``gfile`` helpers."""
from __future__ import annotations

import numpy as np

from sim.data.tfrecord import TFRecordOptions, TFRecordWriter  # noqa: F401
from sim.tf import gfile  # noqa: F401
from sim.tf._lazy import module_getattr


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """The bytes of each string as numbers of ``out_type``: a string gives a vector, a vector of
    equal-length strings a matrix (``tf.io.decode_raw``)."""
    from sim.engine import dtypes
    from sim.engine.errors import InvalidArgumentError
    from sim.engine.tensor import Tensor, convert_to_tensor
    dtype = dtypes.as_dtype(out_type)
    np_dtype = np.dtype(dtype.as_numpy_dtype).newbyteorder("<" if little_endian else ">")
    value = input_bytes.numpy() if hasattr(input_bytes, "numpy") else input_bytes
    items = np.asarray(value, dtype=object)
    rows = []
    for item in items.reshape(-1):
        raw = item if isinstance(item, bytes) else str(item).encode("utf-8")
        if fixed_length is not None:
            raw = raw[:int(fixed_length)].ljust(int(fixed_length), b"\0")
        if len(raw) % np_dtype.itemsize:
            raise InvalidArgumentError(None, None, f"Input to DecodeRaw has length {len(raw)} that "
                                       f"is not a multiple of {np_dtype.itemsize}, the size of "
                                       f"{dtype.name}")
        rows.append(np.frombuffer(raw, np_dtype).astype(dtype.as_numpy_dtype))
    if len({len(r) for r in rows}) > 1:
        raise InvalidArgumentError(None, None, "DecodeRaw requires input strings to all be the "
                                   f"same size, but element 1 has size {len(rows[1])} != "
                                   f"{len(rows[0])}")
    width = len(rows[0]) if rows else 0
    out = np.stack(rows) if rows else np.zeros((0, width), dtype.as_numpy_dtype)
    return Tensor(out.reshape(items.shape + (width,)), dtype) if items.shape else convert_to_tensor(
        out[0], dtype=dtype)


__getattr__ = module_getattr("sim.tf.io", ())
