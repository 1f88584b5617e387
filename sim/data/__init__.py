"""``tf.data``: datasets as chains of Python generators over engine tensors.

``dataset.py`` holds the Dataset API and its inspection hooks for the distribute layer,
``sources.py`` the sources, ``files.py`` the file readers and ``list_files`` (``tfrecord.py``
the TFRecord format, ``masked_crc.py`` its checksum), ``transforms/`` the transformations (a module
per family), ``options.py`` ``tf.data.Options`` and ``AutoShardPolicy``.
"""
from __future__ import annotations

from sim.data.dataset import Dataset  # noqa: F401
from sim.data.iterator import Iterator, Optional  # noqa: F401
from sim.data.options import (AUTOTUNE, INFINITE_CARDINALITY, SHARD_HINT,  # noqa: F401
                              UNKNOWN_CARDINALITY, AutoShardPolicy, DistributeOptions, Options)
