"""``tf.train.Checkpoint``: save and restore the variables reachable from named objects.

Files (never pickles, written to a temporary name then renamed, see sim/storage/safe_io.py, so a kill
at any instant leaves the last good checkpoint): ``<prefix>.npz`` is the whole checkpoint, one
array per variable plus a ``__meta__`` entry mapping each variable's path of attribute names
(``model/dense/kernel``) to its array; the directory's ``checkpoint`` file (JSON) names the
latest prefix and the ones a CheckpointManager keeps, for ``latest_checkpoint``. A manager
records the new state before it deletes old checkpoints, as TensorFlow does, so a kill between
the two leaves one checkpoint too many (swept by the next save), never a state that names none.
"""
from __future__ import annotations

import json
import logging
import os

import numpy as np

from sim.storage import checkpoint_state, safe_io, tracking

_STATE = "checkpoint"
_FORMAT = "sim.tf.train.Checkpoint/2"
logger = logging.getLogger("tensorflow")


def _is_variable(x):
    return hasattr(x, "_as_tensor") or hasattr(x, "_engine_variable")


def _walk(obj, path, found, seen, alias=False, later=None):
    """Collect ``{path: variable}`` for every variable reachable through attributes. A variable
    a Checkpoint or its tracked lists and dicts name again (``alias``) is found at each name, as
    TensorFlow's object graph records every edge to it. A ``tracking.Later`` (an optimizer's
    list of the model's variables) is walked last: a variable keeps its owner's name."""
    if isinstance(obj, tracking.Later):
        return later.append((path, obj.value)) if later is not None else None
    if _is_variable(obj) and alias and path not in found:
        found[path] = obj
        seen.add(id(obj))
        return
    if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, bool)):
        return
    seen.add(id(obj))
    if _is_variable(obj):
        found.setdefault(path, obj)
        return
    tracked = isinstance(obj, (Checkpoint, tracking.ListWrapper, tracking.DictWrapper))
    if isinstance(obj, Checkpoint):   # a nested Checkpoint: its named objects, not its counter
        items = sorted(obj._objects.items())
    elif not isinstance(obj, type) and callable(getattr(obj, "_checkpoint_dependencies", None)) \
            and obj._checkpoint_dependencies() is not None:   # named as TensorFlow names them
        items = list(obj._checkpoint_dependencies().items())
    elif isinstance(obj, dict):
        items = [(str(k), v) for k, v in obj.items()]
    elif isinstance(obj, (list, tuple)):
        items = [(str(i), v) for i, v in enumerate(obj)]
    elif hasattr(obj, "__dict__") and not isinstance(obj, type) and type(obj).__module__.startswith(
            ("sim.", "__main__")) or hasattr(obj, "__dict__") and (
            _has_variables(obj) or hasattr(obj, "_checkpoint_name")):   # a Keras layer, anywhere
        # public attributes first (TensorFlow names a dependency by the attribute it was
        # assigned to: net/l1/kernel), then the private ones not reached through them
        attrs = sorted(vars(obj).items(), key=lambda kv: (kv[0].startswith("_"), kv[0]))
        namer = getattr(obj, "_checkpoint_name", None)   # a Keras layer's (keras3_tracking.py)
        items = [(namer(k) if namer else k.lstrip("_"), v) for k, v in attrs]
        items = [(k, v) for k, v in items if k is not None]
    else:
        return
    for name, value in items:
        _walk(value, f"{path}/{name}" if path else name, found, seen, tracked, later)


def _has_variables(obj):
    return any(_is_variable(v) for v in vars(obj).values())


class Checkpoint:
    """``tf.train.Checkpoint(**objects)``: ``save``, ``write``, ``restore``, ``read``."""

    def __init__(self, root=None, **kwargs):
        from sim.engine.variable import Variable
        from sim.engine import dtypes
        self._objects = dict(kwargs)
        self._deferred = {}
        if root is not None:
            self._objects["root"] = root
        object.__setattr__(self, "save_counter",
                           Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter"))
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __setattr__(self, name, value):
        """An attribute set later is a dependency too (``ckpt.listed = [...]``), lists and dicts
        wrapped to be tracked (tracking.py); it may complete a pending restore."""
        if name.startswith("_") or name == "save_counter":
            return object.__setattr__(self, name, value)
        value = tracking.wrap(value)
        object.__setattr__(self, name, value)
        self._objects[name] = value
        from sim.storage import deferred_restore
        deferred_restore.apply_pending()

    def _iterators(self):
        """The dataset iterators this checkpoint names (their position is saved too)."""
        return {k: v for k, v in self._objects.items() if hasattr(v, "_restore_position")}

    def _variables(self):
        found, seen, later = {}, set(), []
        for name in sorted(self._objects):
            _walk(self._objects[name], name, found, seen, True, later)
        while later:
            path, value = later.pop(0)
            _walk(value, path, found, seen, False, later)
        found["save_counter"] = self.save_counter
        return found

    def write(self, file_prefix, options=None):
        """Write ``<file_prefix>.npz`` (one atomic file) without numbering; returns ``file_prefix``."""
        file_prefix = os.fspath(file_prefix)
        variables = self._variables()
        arrays = {f"v{i}": np.asarray(v) for i, v in enumerate(variables.values())}
        meta = {"format": _FORMAT, "keys": dict(zip(variables, arrays)),
                "iterators": {k: int(it._checkpoint_position()) for k, it in self._iterators().items()}}
        safe_io.atomic_savez(file_prefix + ".npz", arrays, meta)
        return file_prefix

    def save(self, file_prefix, options=None):
        """Write ``<file_prefix>-<n>`` (n = 1, 2, ...) and record it as the latest checkpoint."""
        self.save_counter.assign_add(1)
        safe_io.remove_stale_temps(os.path.join(os.path.dirname(os.path.abspath(
            os.fspath(file_prefix))), _STATE))
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter.numpy())}")
        _write_state(os.path.dirname(os.path.abspath(path)), path)
        return path

    def read(self, save_path, options=None):
        return self.restore(save_path)

    def restore(self, save_path, options=None):
        """Assign every saved value to the variable at the same path. ``None`` does nothing.

        A missing checkpoint raises ``tf.errors.NotFoundError``; a damaged or foreign file
        ``tf.errors.DataLossError`` naming the file and the damage (sim/storage/safe_io.py)."""
        from sim.storage import deferred_restore as deferred
        if save_path is None:
            return deferred.NothingToRestore(self)
        save_path = os.fspath(save_path)
        if save_path.endswith(".npz"):
            save_path = save_path[:-4]
        file = save_path + ".npz"
        meta, data = safe_io.read_npz(file, required=("keys",))
        keys = meta["keys"]
        if not isinstance(keys, dict):
            raise safe_io.damaged(file, "bad_metadata")
        values = {path: safe_io.checked_array(data, key, file) for path, key in keys.items()}
        positions = meta.get("iterators") or {}
        for name, iterator in self._iterators().items():
            if name in positions:
                iterator._restore_position(positions[name])
        self._deferred = values          # assigned now or, for variables not made yet, when
        if self._apply_deferred(now=True):   # a layer builds them (deferred.py)
            deferred.defer(self)
        return deferred.RestoreStatus(self, keys)

    def _apply_deferred(self, now=False):
        """Assign the restored values whose variables exist; True while some still wait.

        A value of another shape: TensorFlow's ValueError at the restore, left unassigned after
        it (measured, TF 2.21: a [5] value, a [1, 5] variable appended to a restored list)."""
        waiting = getattr(self, "_deferred", None)
        if not waiting:
            return False
        for path, var in self._variables().items():
            if path not in waiting:
                continue
            value = waiting[path]
            if tuple(np.shape(value)) != tuple(var.shape):
                if now:
                    raise ValueError(
                        f"Received incompatible tensor with shape {tuple(np.shape(value))} when "
                        f"attempting to restore variable with shape {tuple(var.shape)} and name "
                        f"{var.name}.")
                continue
            var.assign(waiting.pop(path))
        return bool(waiting)


def _write_state(directory, latest, all_paths=None):
    state = {"model_checkpoint_path": os.path.basename(latest),
             "all_model_checkpoint_paths": [os.path.basename(p) for p in (all_paths or [latest])]}
    path = os.path.join(directory, _STATE)
    try:
        safe_io.atomic_write(path, lambda f: f.write(json.dumps(state).encode()))
    except IsADirectoryError as e:           # a directory named ``checkpoint`` is in the way
        raise checkpoint_state.write_refused(path, e) from None


def _read_state(checkpoint_dir, latest_filename=None):
    """The directory's state dict, or None (no file; unreadable, logged as TensorFlow does).

    A state naming no ``model_checkpoint_path`` (e.g. ``{}``) raises TensorFlow's ValueError."""
    from sim.engine.errors import DataLossError
    path = os.path.join(os.fspath(checkpoint_dir), latest_filename or _STATE)
    try:
        state = checkpoint_state.read(path)      # types checked; a FIFO is never opened
    except DataLossError as e:
        logger.warning("%s", e)
        logger.warning("%s: Checkpoint ignored", path)
        return None
    if state is None:
        return None
    if not isinstance(state, dict) or not state.get("model_checkpoint_path"):
        from sim.i18n import t
        raise ValueError(t("checkpoint.state_invalid", directory=os.fspath(checkpoint_dir),
                           path=path))
    return state


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint in ``checkpoint_dir``, or None."""
    state = _read_state(checkpoint_dir, latest_filename)
    if state is None:
        return None
    path = os.path.join(os.fspath(checkpoint_dir), str(state["model_checkpoint_path"]))
    if os.path.exists(path + ".npz"):
        return path
    logger.error("Couldn't match files for checkpoint %s", path)
    return None


def _delete_checkpoint(prefix):
    for file in (prefix + ".npz", prefix + ".json"):     # .json: the metadata of format 1
        try:
            os.remove(file)
        except FileNotFoundError:
            pass


class CheckpointManager:
    """``tf.train.CheckpointManager``: numbered saves in a directory, keeping ``max_to_keep``.

    A restarted manager takes over the checkpoints its directory's state lists, so the
    ones beyond ``max_to_keep`` are deleted by its next save, as in TensorFlow."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, "
                             f"got {max_to_keep}.")
        self._checkpoint, self.directory = checkpoint, os.fspath(directory)
        self._max, self._name = max_to_keep, checkpoint_name
        self._checkpoints = []
        self._latest = None
        state = _read_state(self.directory)
        if state is not None:
            listed = state.get("all_model_checkpoint_paths") or []
            for name in list(listed) + [state["model_checkpoint_path"]]:
                path = os.path.join(self.directory, str(name))
                if path not in self._checkpoints and os.path.exists(path + ".npz"):
                    self._checkpoints.append(path)
            latest = os.path.join(self.directory, str(state["model_checkpoint_path"]))
            self._latest = latest if latest in self._checkpoints else None

    @property
    def latest_checkpoint(self):
        return self._latest

    @property
    def checkpoints(self):
        return list(self._checkpoints)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Write the next checkpoint, record it, then delete the oldest beyond ``max_to_keep``."""
        prefix = os.path.join(self.directory, self._name)
        safe_io.remove_stale_temps(os.path.join(self.directory, _STATE))
        if self._latest is not None:      # a restart after a kill mid-sweep: finish that sweep first,
            self._sweep(self._latest)     # so the directory never holds more than max_to_keep + 1
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = f"{prefix}-{number}"
        if path not in self._checkpoints:
            _delete_checkpoint(path)      # an unrecorded file of an interrupted save: replaced now
        self._checkpoint.write(path)
        if path in self._checkpoints:     # overwritten: it becomes the newest
            self._checkpoints.remove(path)
        self._checkpoints.append(path)
        self._latest = path
        # TensorFlow's order: record first (a kill while deleting still finds the new one),
        # sweep, then record again without the deleted checkpoints.
        _write_state(self.directory, path, self._checkpoints)
        self._sweep(path)
        return path

    def _sweep(self, latest):
        """Delete the oldest checkpoints beyond ``max_to_keep``, then record what is left."""
        if self._max is not None and len(self._checkpoints) > self._max:
            while len(self._checkpoints) > self._max:
                _delete_checkpoint(self._checkpoints.pop(0))
            _write_state(self.directory, latest, self._checkpoints)
