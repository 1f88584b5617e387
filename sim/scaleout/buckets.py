"""Tensor fusion: gradients grouped into buckets in the order backprop finishes them.

Horovod's fusion buffer (``HOROVOD_FUSION_THRESHOLD``, 64 MiB by default) and TensorFlow's
``CommunicationOptions(bytes_per_pack=...)`` (collectives.md §5.4: gradients reversed, then packed)
do the same thing: walk the gradients from the last layer to the first, add each to the open
bucket, and close the bucket once it holds at least ``bucket_bytes``. A bucket can be sent when
its last (earliest-layer) gradient exists. ``bucket_bytes=0`` sends every layer on its own.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bucket:
    """Gradients of ``layers`` (names, backward order); ``last`` is the index in the backward
    order of the layer whose gradient completes the bucket."""

    layers: tuple
    nbytes: int
    last: int


def buckets(workload, bucket_bytes: float) -> list:
    """The buckets of ``workload``'s gradients for a fusion threshold of ``bucket_bytes``."""
    out, names, size, last = [], [], 0, -1
    for i, layer in enumerate(workload.backward_order()):
        if layer.gradient_bytes == 0:
            continue
        names.append(layer.name)
        size, last = size + layer.gradient_bytes, i
        if size >= bucket_bytes:
            out.append(Bucket(tuple(names), size, last))
            names, size = [], 0
    if names:
        out.append(Bucket(tuple(names), size, last))
    return out
