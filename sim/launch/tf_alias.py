"""Make ``import sim.tf as tf`` give real TensorFlow, inside one ``--engine tensorflow`` task.

The launcher's chosen mechanism for running a script unedited on both engines: the task's runner
(``sim.launch.tf_task``) installs ``install()`` before the script starts, and from then on every
name under ``sim.tf`` (``sim.tf``, ``sim.tf.keras``, ``sim.tf.keras.layers`` ...) imports as a thin
module that forwards each attribute to the same name under ``tensorflow``. The script's code,
``tf.distribute.MultiWorkerMirroredStrategy()`` etc., then runs on TensorFlow's own objects. The
rest of ``sim`` is untouched, and without the runner (a plain ``python script.py``, or the
simulated launch) ``sim.tf`` is the simulator as always.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types

PREFIX = "sim.tf"


def tensorflow_object(name):
    """``sim.tf.keras.layers`` -> ``tensorflow.keras.layers`` (a module or a lazily loaded attribute)."""
    parts = name.split(".")[2:]
    obj = importlib.import_module("tensorflow")
    for i, part in enumerate(parts):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(".".join(["tensorflow"] + parts[:i + 1]))
    return obj


class _Forward(types.ModuleType):
    """A module whose attributes are the TensorFlow object's of the same path."""

    def __init__(self, name, target):
        super().__init__(name, getattr(target, "__doc__", None))
        self.__dict__["_target"] = target
        self.__path__ = []          # a package, so ``sim.tf.keras.layers`` can be imported too

    def __getattr__(self, attr):
        return getattr(self.__dict__["_target"], attr)

    def __dir__(self):
        return dir(self.__dict__["_target"])


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return _Forward(spec.name, tensorflow_object(spec.name))

    def exec_module(self, module):
        pass


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == PREFIX or fullname.startswith(PREFIX + "."):
            return importlib.util.spec_from_loader(fullname, _Loader(), is_package=True)
        return None


def install():
    """Route ``sim.tf`` and everything under it to TensorFlow in this process (idempotent)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    for name in [n for n in sys.modules if n == PREFIX or n.startswith(PREFIX + ".")]:
        del sys.modules[name]        # a sim.tf imported earlier would shadow the swap
    import sim
    if "tf" in sim.__dict__:
        del sim.__dict__["tf"]
