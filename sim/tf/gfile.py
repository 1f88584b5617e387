"""``tf.io.gfile``: local-file helpers under TensorFlow's names (the simulator has only local files)."""
from __future__ import annotations

import glob as _glob
import os
import shutil

from sim.tf._lazy import module_getattr


def exists(path):
    return os.path.exists(path)


def isdir(path):
    return os.path.isdir(path)


def listdir(path):
    return sorted(os.listdir(path))


def glob(pattern):
    return sorted(_glob.glob(os.fspath(pattern)))


def makedirs(path):
    os.makedirs(path, exist_ok=True)


def mkdir(path):
    os.mkdir(path)


def remove(path):
    os.remove(path)


def rmtree(path):
    shutil.rmtree(path)


def rename(src, dst, overwrite=False):
    if not overwrite and os.path.exists(dst):
        from sim.engine.errors import AlreadyExistsError
        raise AlreadyExistsError(None, None, f"file already exists: {dst}")
    os.replace(src, dst)


def GFile(name, mode="r"):
    return open(name, mode)


__getattr__ = module_getattr("sim.tf.io.gfile", ())
