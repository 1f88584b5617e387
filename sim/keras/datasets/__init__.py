"""``tf.keras.datasets``: data sets shipped inside the package (the course runs offline)."""
from __future__ import annotations

from sim.keras.datasets import mnist

__all__ = ["mnist"]
