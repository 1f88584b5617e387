"""``tf.train.Checkpoint``: save and restore the variables reachable from named objects.

Files (never pickles, written to a temporary name then renamed, so a crash leaves the last
good checkpoint): ``<prefix>.npz`` holds one array per variable, keyed by its path of
attribute names from the checkpoint (``model/dense/kernel``); ``<prefix>.json`` lists them;
the directory's ``checkpoint`` file (JSON) names the latest prefix, for ``latest_checkpoint``.
"""
from __future__ import annotations

import json
import os

import numpy as np

_STATE = "checkpoint"


def _is_variable(x):
    return hasattr(x, "_as_tensor") or hasattr(x, "_engine_variable")


def _walk(obj, path, found, seen):
    """Collect ``{path: variable}`` for every variable reachable through attributes."""
    if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, bool)):
        return
    seen.add(id(obj))
    if _is_variable(obj):
        found.setdefault(path, obj)
        return
    if isinstance(obj, dict):
        items = [(str(k), v) for k, v in obj.items()]
    elif isinstance(obj, (list, tuple)):
        items = [(str(i), v) for i, v in enumerate(obj)]
    elif hasattr(obj, "__dict__") and not isinstance(obj, type) and type(obj).__module__.startswith(
            ("sim.", "__main__")) or hasattr(obj, "__dict__") and _has_variables(obj):
        items = [(k.lstrip("_"), v) for k, v in sorted(vars(obj).items())]
    else:
        return
    for name, value in items:
        _walk(value, f"{path}/{name}" if path else name, found, seen)


def _has_variables(obj):
    return any(_is_variable(v) for v in vars(obj).values())


class _Status:
    """What ``restore`` returns: checks on how much of the checkpoint was used."""

    def __init__(self, missing, unused):
        self._missing, self._unused = missing, unused

    def assert_consumed(self):
        if self._missing or self._unused:
            raise AssertionError(f"Unresolved objects in checkpoint: {sorted(self._unused)}; "
                                 f"not restored: {sorted(self._missing)}")
        return self

    def assert_existing_objects_matched(self):
        if self._missing:
            raise AssertionError(f"Objects not restored from the checkpoint: {sorted(self._missing)}")
        return self

    def expect_partial(self):
        return self

    def assert_nontrivial_match(self):
        return self


class Checkpoint:
    """``tf.train.Checkpoint(**objects)``: ``save``, ``write``, ``restore``, ``read``."""

    def __init__(self, root=None, **kwargs):
        from sim.engine.variable import Variable
        from sim.engine import dtypes
        self._objects = dict(kwargs)
        if root is not None:
            self._objects["root"] = root
        self.save_counter = Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter")
        for k, v in kwargs.items():
            setattr(self, k, v)

    def _variables(self):
        found, seen = {}, set()
        for name in sorted(self._objects):
            _walk(self._objects[name], name, found, seen)
        found["save_counter"] = self.save_counter
        return found

    def write(self, file_prefix, options=None):
        """Write without numbering; returns ``file_prefix``."""
        variables = self._variables()
        arrays = {f"v{i}": np.asarray(v) for i, v in enumerate(variables.values())}
        meta = {"format": "sim.tf.train.Checkpoint/1", "keys": dict(zip(variables, arrays))}
        d = os.path.dirname(os.path.abspath(file_prefix))
        os.makedirs(d, exist_ok=True)
        _atomic(file_prefix + ".npz", lambda f: np.savez(f, **arrays))
        _atomic(file_prefix + ".json", lambda f: f.write(json.dumps(meta, indent=1).encode()))
        return file_prefix

    def save(self, file_prefix, options=None):
        """Write ``<file_prefix>-<n>`` (n = 1, 2, ...) and record it as the latest checkpoint."""
        self.save_counter.assign_add(1)
        path = self.write(f"{file_prefix}-{int(self.save_counter.numpy())}")
        _write_state(os.path.dirname(os.path.abspath(path)), path)
        return path

    def read(self, save_path, options=None):
        return self.restore(save_path)

    def restore(self, save_path, options=None):
        """Assign every saved value to the variable at the same path. ``None`` does nothing."""
        if save_path is None:
            return _Status(set(), set())
        from sim.i18n import t
        try:
            meta = json.loads(open(save_path + ".json", encoding="utf-8").read())
            data = np.load(save_path + ".npz", allow_pickle=False)
        except (OSError, ValueError) as e:
            from sim.engine.errors import NotFoundError
            raise NotFoundError(None, None, f"Failed to restore from {save_path}: {e}. "
                                + t("engine.checkpoint_bad", path=save_path)) from None
        variables = self._variables()
        keys = meta["keys"]
        for path, var in variables.items():
            if path in keys:
                var.assign(data[keys[path]])
        return _Status(set(variables) - set(keys), set(keys) - set(variables))


def _atomic(path, write):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        write(f)
    os.replace(tmp, path)


def _write_state(directory, latest, all_paths=None):
    state = {"model_checkpoint_path": os.path.basename(latest),
             "all_model_checkpoint_paths": [os.path.basename(p) for p in (all_paths or [latest])]}
    _atomic(os.path.join(directory, _STATE), lambda f: f.write(json.dumps(state).encode()))


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint in ``checkpoint_dir``, or None."""
    try:
        state = json.loads(open(os.path.join(checkpoint_dir, latest_filename or _STATE),
                                encoding="utf-8").read())
    except (OSError, ValueError):
        return None
    path = os.path.join(checkpoint_dir, state["model_checkpoint_path"])
    return path if os.path.exists(path + ".npz") else None


class CheckpointManager:
    """``tf.train.CheckpointManager``: numbered saves in a directory, keeping ``max_to_keep``."""

    def __init__(self, checkpoint, directory, max_to_keep, checkpoint_name="ckpt", **kwargs):
        self._checkpoint, self.directory = checkpoint, directory
        self._max, self._name = max_to_keep, checkpoint_name
        self.checkpoints = []
        latest = latest_checkpoint(directory)
        if latest:
            self.checkpoints.append(latest)

    @property
    def latest_checkpoint(self):
        return self.checkpoints[-1] if self.checkpoints else None

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        prefix = os.path.join(self.directory, self._name)
        if checkpoint_number is None:
            path = self._checkpoint.save(prefix)
        else:
            path = self._checkpoint.write(f"{prefix}-{int(checkpoint_number)}")
        self.checkpoints.append(path)
        while self._max is not None and len(self.checkpoints) > self._max:
            old = self.checkpoints.pop(0)
            for ext in (".npz", ".json"):
                if os.path.exists(old + ext):
                    os.remove(old + ext)
        _write_state(self.directory, path, self.checkpoints)
        return path
