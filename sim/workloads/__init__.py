"""Well-known models as the scaling simulator sees them: per layer, gradient bytes and FLOPs.

``workload("resnet50")`` -> a ``Workload`` (``sim.workloads.base``); ``workload_names()`` lists
them. Each model family has its own module with the architecture's source.
"""
from __future__ import annotations

from functools import lru_cache

from .base import Layer, Workload

_BUILDERS = {
    "resnet50": ("resnet", "resnet", (50,)),
    "resnet101": ("resnet", "resnet", (101,)),
    "resnet152": ("resnet", "resnet", (152,)),
    "inception_v3": ("inception", "inception_v3", ()),
    "vgg16": ("vgg", "vgg16", ()),
    "alexnet": ("alexnet", "alexnet", ()),
    "bert_base": ("transformer", "bert", ("base",)),
    "bert_large": ("transformer", "bert", ("large",)),
    "bert_large_512": ("transformer", "bert", ("large", 512)),   # MLPerf BERT's sequences
    "gpt2_small": ("transformer", "gpt2_small", ()),
}


def workload_names() -> list[str]:
    return list(_BUILDERS)


@lru_cache(maxsize=None)
def workload(name: str) -> Workload:
    """The model called ``name`` (``workload_names()``; ``-`` and ``_`` are the same)."""
    key = str(name).strip().lower().replace("-", "_")
    if key not in _BUILDERS:
        from sim.i18n import join_list, t
        raise ValueError(t("scale.unknown_model", name=name, known=join_list(_BUILDERS)))
    import importlib
    module, function, args = _BUILDERS[key]
    return getattr(importlib.import_module(f"sim.workloads.{module}"), function)(*args)


__all__ = ["Layer", "Workload", "workload", "workload_names"]
