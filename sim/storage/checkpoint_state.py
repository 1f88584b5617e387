"""The ``checkpoint`` state file of a checkpoint directory, read strictly.

The file (JSON, written atomically by sim/storage/checkpoint.py) names the latest checkpoint
(``model_checkpoint_path``) and the ones a CheckpointManager keeps
(``all_model_checkpoint_paths``). ``read(path)`` returns it as a dict whose fields have those
types, None when there is no file, or raises TensorFlow's DataLossError naming the file and
what is wrong: not a regular file (a FIFO would block, ``/dev/zero`` never ends), larger than
any state file (1 MB), not UTF-8, not JSON, not one object, a field of the wrong type.
``latest_checkpoint`` and CheckpointManager log that error and carry on, as TensorFlow does
with an unreadable state; SidecarEvaluator, which would otherwise evaluate nothing, raises it.
"""
from __future__ import annotations

import json
import os
import stat

MAX_BYTES = 1 << 20
NAME = "checkpoint"


def read(path):
    """The state dict at ``path``, None if there is none; DataLossError if it is damaged."""
    path = os.fspath(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise _damaged(path, "state_unreadable", reason=e.strerror or str(e)) from None
    if not stat.S_ISREG(info.st_mode):
        raise _damaged(path, "state_not_regular")
    if info.st_size > MAX_BYTES:
        raise _damaged(path, "state_too_big", size=info.st_size, limit=MAX_BYTES)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise _damaged(path, "state_unreadable", reason=e.strerror or str(e)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _damaged(path, "state_not_utf8") from None
    try:
        state = json.loads(text)
    except (ValueError, RecursionError):
        raise _damaged(path, "state_not_json") from None
    if not isinstance(state, dict):
        raise _damaged(path, "state_not_object", kind=_json_kind(state))
    latest = state.get("model_checkpoint_path")
    if latest is not None and not isinstance(latest, str):
        raise _damaged(path, "state_latest_type", kind=_json_kind(latest))
    listed = state.get("all_model_checkpoint_paths", [])
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        kind = _json_kind(listed) if not isinstance(listed, list) else "array of " + ", ".join(
            sorted({_json_kind(n) for n in listed if not isinstance(n, str)}))
        raise _damaged(path, "state_list_type", kind=kind)
    return state


def _json_kind(value):
    """JSON's name for the type of ``value`` (null, boolean, number, string, array, object)."""
    for kind, types in (("null", type(None)), ("boolean", bool), ("number", (int, float)),
                        ("string", str), ("array", list), ("object", dict)):
        if isinstance(value, types):
            return kind
    return type(value).__name__


def _damaged(path, key, **fields):
    from sim.engine import errors
    from sim.i18n import t
    problem = t("checkpoint." + key, **fields)
    return errors.DataLossError(None, None, t("checkpoint.state_damaged", path=path,
                                              problem=problem))


def write_refused(path, error):
    """TensorFlow's FailedPreconditionError when the state file cannot be written because a
    directory holds its name (TensorFlow: '<dir>/checkpoint.tmp…; Is a directory'), naming the
    path and the fix; other OS errors pass through."""
    if not isinstance(error, IsADirectoryError):
        return error
    from sim.engine import errors
    from sim.i18n import t
    return errors.FailedPreconditionError(
        None, None, f"{path}; Is a directory\n" + t("checkpoint.state_is_directory", path=path))
