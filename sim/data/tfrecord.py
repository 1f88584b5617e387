"""The TFRecord file format: records framed as TensorFlow writes and reads them.

Each record is ``uint64 length | uint32 masked_crc32c(length) | data | uint32
masked_crc32c(data)``, little-endian (TensorFlow's record_writer.cc). Files may be compressed
whole with GZIP or ZLIB (``compression_type``). ``TFRecordWriter`` is ``tf.io.TFRecordWriter``;
``read_records`` checks both checksums and raises DataLossError on a damaged record, as
TensorFlow's reader does.
"""
from __future__ import annotations

import gzip
import os
import struct
import zlib

from sim.data.masked_crc import masked_crc32c

_COMPRESSION = {None: "", "": "", "NONE": "", "GZIP": "GZIP", "ZLIB": "ZLIB"}


def compression(compression_type):
    """TensorFlow's compression names ("" / None, "GZIP", "ZLIB"), checked."""
    if isinstance(compression_type, TFRecordOptions):
        return compression_type.compression_type
    key = compression_type.upper() if isinstance(compression_type, str) else compression_type
    if key not in _COMPRESSION:
        from sim.i18n import t
        raise ValueError(f"Unsupported compression type: {compression_type}. "
                         + t("datafiles.compression_type", value=repr(compression_type)))
    return _COMPRESSION[key]


class TFRecordOptions:
    """``tf.io.TFRecordOptions``: only ``compression_type`` changes what the simulator writes."""

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.compression_type = compression(compression_type)
        self.compression_level = compression_level


def frame(record: bytes) -> bytes:
    """One record with its length, checksums and data, as bytes on disk."""
    length = struct.pack("<Q", len(record))
    return (length + struct.pack("<I", masked_crc32c(length)) + record
            + struct.pack("<I", masked_crc32c(record)))


def _open_write(path, kind, level):
    if kind == "GZIP":
        return gzip.open(path, "wb", compresslevel=9 if level is None else level)
    return open(path, "wb")


class TFRecordWriter:
    """Write records to a TFRecord file (``tf.io.TFRecordWriter(path, options=None)``)."""

    def __init__(self, path, options=None):
        self._path = os.fspath(path)
        opts = options if isinstance(options, TFRecordOptions) else TFRecordOptions(options)
        self._kind = opts.compression_type
        self._zlib = zlib.compressobj(opts.compression_level if opts.compression_level is not None else 6) \
            if self._kind == "ZLIB" else None
        self._file = _open_write(self._path, self._kind, opts.compression_level)

    def write(self, record):
        """Append one record (bytes, or a str encoded as UTF-8)."""
        if self._file is None:
            from sim.engine.errors import FailedPreconditionError
            raise FailedPreconditionError(None, None, "File is closed.")
        if isinstance(record, str):
            record = record.encode("utf-8")
        elif hasattr(record, "numpy"):
            record = record.numpy()
        data = frame(bytes(record))
        self._file.write(self._zlib.compress(data) if self._zlib else data)

    def flush(self):
        if self._file is not None:
            if self._zlib:
                self._file.write(self._zlib.flush(zlib.Z_SYNC_FLUSH))
            self._file.flush()

    def close(self):
        if self._file is not None:
            if self._zlib:
                self._file.write(self._zlib.flush())
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def read_file(path, compression_type=""):
    """The whole (decompressed) content of ``path``; NotFoundError if it does not exist."""
    from sim.engine.errors import DataLossError, NotFoundError
    path = os.fspath(path.decode() if isinstance(path, bytes) else path)
    kind = compression(compression_type)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        from sim.engine.errors import FailedPreconditionError
        raise FailedPreconditionError(None, None, f"{path}; Is a directory") from None
    try:
        if kind == "GZIP":
            return gzip.decompress(raw)
        if kind == "ZLIB":
            return zlib.decompress(raw)
    except (OSError, zlib.error, EOFError) as e:
        raise DataLossError(None, None, f"{path}: not {kind} data ({e})") from None
    return raw


def read_records(path, compression_type=""):
    """The records of one TFRecord file, each checked against its two checksums."""
    from sim.engine.errors import DataLossError
    data = read_file(path, compression_type)
    pos, n = 0, len(data)
    while pos < n:
        if n - pos < 12:
            raise DataLossError(None, None, f"truncated record at {pos}' failed with Read less "
                                f"bytes than requested")
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        if crc != masked_crc32c(header):
            raise DataLossError(None, None, f"corrupted record at {pos}")
        start, end = pos + 12, pos + 12 + length
        if end + 4 > n:
            raise DataLossError(None, None, f"truncated record at {pos}' failed with Read less "
                                f"bytes than requested")
        record = data[start:end]
        (crc,) = struct.unpack("<I", data[end:end + 4])
        if crc != masked_crc32c(record):
            raise DataLossError(None, None, f"corrupted record at {pos}")
        yield record
        pos = end + 4


def read_lines(path, compression_type=""):
    """The lines of a text file without their line ends ("\\n", "\\r\\n"), as TextLineDataset."""
    data = read_file(path, compression_type)
    if not data:
        return
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    for line in lines:
        yield line[:-1] if line.endswith(b"\r") else line
