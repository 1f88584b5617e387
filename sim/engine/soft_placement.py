"""Soft device placement for ``tf.device``: where work goes when the named device does not exist.

TensorFlow 2 places eagerly with soft placement on (``tf.config.set_soft_device_placement``):
a local device that does not exist (``/gpu:99`` on a 4-GPU machine, ``/cpu:3``) loses its type
and index and the best device left is used, the highest-priority type first (GPU:0 on a
machine with GPUs, else CPU:0: ``EagerContext::SelectDevice``, checked on TensorFlow 2.21).
With soft placement off the same name raises TensorFlow's InvalidArgumentError,
"Could not satisfy device specification ...". Names of other jobs (``/job:worker/task:1``)
are the cluster's business and pass unchanged.
"""
from __future__ import annotations

_soft = [True]
# tf.config's logical devices (sim.distribute.device_config sets this when it loads: below it,
# the engine cannot import it). None: no device was split, so none but the machine's exist.
logical_devices = None


def set_enabled(enabled) -> None:
    _soft[0] = bool(enabled)


def enabled() -> bool:
    return _soft[0]


def place(full_name: str) -> str:
    """``full_name`` if the current machine has it; else where TensorFlow would place it."""
    if not full_name.startswith("/job:localhost/") or _exists(full_name):
        return full_name
    from sim.engine import device
    if _soft[0]:
        return device.default_device_name()
    from sim.engine.errors import InvalidArgumentError
    from sim.runtime import current_machine
    every = ", ".join(d.name for d in current_machine().devices if d.host == 0)
    raise InvalidArgumentError(None, None, (
        f"Could not satisfy device specification '{full_name}'. enable_soft_placement=0. "
        f"All available devices [{every}]."))


def _exists(full_name):
    try:
        from sim.runtime import current_machine
        current_machine().device(full_name)
        return True
    except ValueError:
        pass
    except Exception:  # noqa: BLE001 - no machine to ask: keep the name
        return True
    if logical_devices is None:
        return False
    try:                 # a logical device the learner split off (tf.config)
        short = full_name.split("/device:", 1)[1]
        return any(d.name.endswith(short) for d in logical_devices())
    except Exception:  # noqa: BLE001
        return True
