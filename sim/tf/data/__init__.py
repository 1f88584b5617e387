"""``tf.data``: Dataset, Options, AUTOTUNE, the file readers (and ``tf.data.experimental``)."""
from __future__ import annotations

from sim.data import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset, Options  # noqa: F401
from sim.data.iterator import Iterator  # noqa: F401
from sim.data.transforms.windowing import DatasetSpec  # noqa: F401
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.data", ("experimental",), {
    "TFRecordDataset": "sim.data.files:TFRecordDataset",
    "TextLineDataset": "sim.data.files:TextLineDataset",
})
