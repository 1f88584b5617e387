"""Reading HDF5 weights without following the file anywhere else, as Keras 3's saving_lib does.

An HDF5 file can point outside itself: a soft or external link names another object or another
file, and a dataset with *external storage* or a *virtual* dataset takes its bytes from other
files (an SSH key, the cluster secret). Keras 3 refuses all four (``safe_get_h5_group`` /
``safe_get_h5_dataset``: ``ValueError: Not allowed: H5 file with ...``); every HDF5 reader here
goes through this module, under either Keras (tf-keras would follow them: sim does not).

A dataset can also declare a huge shape while storing nothing (chunked, compressed, only a fill
value). Keras's bomb check refuses one that declares far more than it stores; here a dataset is
moreover compared with the variable it is meant for *before* it is read, so no read allocates
more than the model already holds.
"""
from __future__ import annotations

import math
import os
import stat

import h5py
import numpy as np

BOMB_FLOOR_BYTES = 1 << 32       # Keras 3's _H5_DATASET_BOMB_FLOOR_BYTES (4 GiB)
MAX_EXPANSION = 1000             # Keras 3's _H5_DATASET_MAX_EXPANSION
_LINKS = (h5py.ExternalLink, h5py.SoftLink)


def readable_size(size) -> str:
    """Keras's ``readable_memory_size``: ``2.00 GB``."""
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _link_class(parent, name):
    try:
        return parent.get(name, default=None, getclass=True, getlink=True)
    except (KeyError, RuntimeError, OSError, ValueError):
        return None


def child(parent, name):
    """``parent[name]`` one path part at a time, refusing soft and external links."""
    current = parent
    for part in str(name).split("/"):
        if not part:
            raise ValueError(f"Invalid path in H5 file: {name}")
        try:
            present = part in current
        except (RuntimeError, OSError, TypeError) as e:   # a damaged B-tree or link table
            raise ValueError(f"Invalid H5 file: cannot look up {name!r} ({e})") from None
        if not present:
            raise KeyError(name)
        link = _link_class(current, part)
        if link in _LINKS:
            raise ValueError(f"Not allowed: H5 file with {link.__name__}")
        try:
            current = current[part]
        except (RuntimeError, OSError) as e:        # a damaged object header
            raise ValueError(f"Invalid H5 file: cannot open {name!r} ({e})") from None
    return current


def get_group(parent, name, missing_ok=False):
    """The group at ``name``; ``{}`` when absent and ``missing_ok`` (as Keras reads it)."""
    try:
        node = child(parent, name)
    except KeyError:
        if missing_ok:
            return {}
        raise
    if not isinstance(node, h5py.Group):
        raise ValueError(f"Invalid H5 file, expected Group but received {type(node)}")
    return node


def get_dataset(group, name):
    """The dataset at ``name``, refused when its bytes live elsewhere or it is a shape bomb."""
    node = child(group, name)
    if not isinstance(node, h5py.Dataset):
        raise ValueError(f"Invalid H5 file, expected Dataset, received {type(node)}")
    if node.external:
        raise ValueError(f"Not allowed: H5 file with external Dataset: {node.external}")
    if node.is_virtual:
        raise ValueError("Not allowed: H5 file with virtual Dataset")
    declared = math.prod(node.shape or ()) * node.dtype.itemsize
    stored = node.id.get_storage_size()
    if declared > BOMB_FLOOR_BYTES and declared > MAX_EXPANSION * stored:
        raise ValueError(
            f"Not allowed: H5 dataset '{name}' declares {readable_size(declared)} but only "
            f"{readable_size(stored)} are stored on disk; refusing to load a potential "
            "decompression/shape bomb.")
    return node


def read(dataset, shape_error=None):
    """The dataset's values; ``shape_error(declared_shape)`` is called first (it raises when the
    variable the values are for has another shape), so a wrong shape is never allocated."""
    if shape_error is not None:
        shape_error(tuple(dataset.shape or ()))
    try:
        return np.asarray(dataset[()])
    except (OSError, RuntimeError, TypeError) as e:     # h5py's own, on damaged data
        raise ValueError(f"Invalid H5 file: cannot read dataset {dataset.name!r} ({e})") from None


def regular_file(path, refuse):
    """``refuse(reason)`` (an exception) unless ``path`` is a regular file: a FIFO would block
    the reader, a device such as /dev/zero never ends."""
    try:
        info = os.stat(path)
    except OSError:
        return                          # missing: the caller's own error says so
    if not stat.S_ISREG(info.st_mode):
        raise refuse("a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file")
