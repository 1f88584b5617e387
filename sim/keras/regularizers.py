"""Weight regularizers L1, L2, L1L2 (``tf.keras.regularizers``).

A regularizer maps a weight to a scalar loss; layers collect these in ``model.losses`` and
the training loop adds them (divided by the replica count under a strategy, §4.4).
"""
from __future__ import annotations

import sim.tf as tf

from sim.keras import _errors


class Regularizer:
    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = float(l1)
        self.l2 = float(l2)

    def __call__(self, x):
        total = None
        if self.l1:
            total = self.l1 * tf.reduce_sum(tf.abs(x))
        if self.l2:
            term = self.l2 * tf.reduce_sum(tf.square(x))
            total = term if total is None else total + term
        return total if total is not None else tf.constant(0.0, dtype=x.dtype)

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    def __init__(self, l1=0.01, **kwargs):
        super().__init__(l1=kwargs.pop("l", l1))

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    def __init__(self, l2=0.01, **kwargs):
        super().__init__(l2=kwargs.pop("l", l2))

    def get_config(self):
        return {"l2": self.l2}


def l1_l2(l1=0.01, l2=0.01):
    return L1L2(l1=l1, l2=l2)


l1, l2 = L1, L2
_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": l1_l2, "L1": L1, "L2": L2, "L1L2": L1L2}


def get(identifier):
    if identifier is None:
        return None
    if callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    raise ValueError(_errors.msg(
        "unknown_name", f"Could not interpret regularizer identifier: {identifier}",
        kind="regularizer", name=identifier, known=_errors.known_list(_BY_NAME)))
