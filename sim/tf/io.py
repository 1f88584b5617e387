"""``tf.io``: TFRecord writing (``sim.data.tfrecord``) and the ``gfile`` file helpers."""
from __future__ import annotations

from sim.data.tfrecord import TFRecordOptions, TFRecordWriter  # noqa: F401
from sim.tf import gfile  # noqa: F401
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.io", ())
