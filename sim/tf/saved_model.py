"""``tf.saved_model``: not simulated; use tf.train.Checkpoint."""
from __future__ import annotations

from sim.tf._lazy import unsupported


def save(*args, **kwargs):
    raise unsupported("tf.saved_model.save (use tf.train.Checkpoint)")


def load(*args, **kwargs):
    raise unsupported("tf.saved_model.load (use tf.train.Checkpoint)")


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    raise unsupported(f"tf.saved_model.{name}")
