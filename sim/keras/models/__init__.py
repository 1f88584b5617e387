"""``tf.keras.models``: Model, Sequential, load_model, clone_model."""
from __future__ import annotations

from sim.keras.models.functional import Functional
from sim.keras.saving import load_model
from sim.keras.models.sequential import Sequential
from sim.keras.training import Model

__all__ = ["Model", "Sequential", "Functional", "load_model"]
