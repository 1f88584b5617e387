"""``tf.keras.layers.StringLookup``: strings -> integer ids through a fixed vocabulary.

Index layout (Keras' IndexLookup): the mask token first (if any), then ``num_oov_indices`` OOV
ids, then the vocabulary in the order given. With ``mask_token=None`` and one OOV index,
``["a", "b"]`` maps "a" -> 1, "b" -> 2 and anything else -> 0; ``get_vocabulary()`` returns
``["[UNK]", "a", "b"]``. Several OOV ids are chosen by a stable hash of the string (FarmHash in
Keras; here crc32, so ids differ from Keras only when ``num_oov_indices > 1``). With
``num_oov_indices=0`` an unknown string is an error. ``invert=True`` maps ids back to strings.
"""
from __future__ import annotations

import zlib

import numpy as np

import sim.tf as tf
from sim.keras.layers.base import Layer


class StringLookup(Layer):
    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, encoding="utf-8", invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, **kwargs):
        kwargs.pop("dtype", None)
        super().__init__(**kwargs)
        if output_mode != "int":
            raise NotImplementedError(f"StringLookup(output_mode={output_mode!r}): only 'int' "
                                      "is simulated.")
        if num_oov_indices < 0:
            raise ValueError("`num_oov_indices` must be greater than or equal to 0. "
                             f"Received: num_oov_indices={num_oov_indices}")
        self.num_oov_indices, self.mask_token, self.oov_token = num_oov_indices, mask_token, oov_token
        self.invert, self.max_tokens = invert, max_tokens
        self._vocab: list = []
        self._table: dict = {}
        self._output_dtype = "string" if invert else "int64"
        if vocabulary is not None:
            self.set_vocabulary(vocabulary)

    # -- vocabulary ---------------------------------------------------------------------------
    def set_vocabulary(self, vocabulary, idf_weights=None):
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\n") for line in f]
        vocab = [v.decode() if isinstance(v, bytes) else str(v)
                 for v in np.asarray(vocabulary, dtype=object).ravel()]
        if len(set(vocab)) != len(vocab):
            repeated = sorted({v for v in vocab if vocab.count(v) > 1})
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are {repeated}")
        self._vocab = vocab
        start = self._first_vocab_index()
        self._table = {v: start + i for i, v in enumerate(vocab)}
        if self.mask_token is not None:
            self._table[self.mask_token] = 0

    def _first_vocab_index(self):
        return (1 if self.mask_token is not None else 0) + self.num_oov_indices

    def get_vocabulary(self, include_special_tokens=True):
        if not include_special_tokens:
            return list(self._vocab)
        head = ([self.mask_token] if self.mask_token is not None else []) + \
            [self.oov_token] * self.num_oov_indices
        return head + list(self._vocab)

    def vocabulary_size(self):
        return len(self.get_vocabulary())

    # -- lookup -------------------------------------------------------------------------------
    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs):
        arr = np.asarray(inputs.numpy() if hasattr(inputs, "numpy") else inputs, dtype=object)
        if self.invert:
            vocab = self.get_vocabulary()
            out = np.vectorize(lambda i: vocab[i] if 0 <= i < len(vocab) else self.oov_token,
                               otypes=[object])(arr.astype(np.int64)) if arr.size else arr
            return tf.constant(out, dtype=tf.string)
        flat = [self._lookup(x) for x in arr.ravel()]
        return tf.constant(np.array(flat, dtype=np.int64).reshape(arr.shape), dtype=tf.int64)

    def _lookup(self, x):
        key = x.decode() if isinstance(x, bytes) else str(x)
        idx = self._table.get(key)
        if idx is not None:
            return idx
        if self.num_oov_indices == 0:
            raise tf.errors.InvalidArgumentError(
                None, None, f"StringLookup: the input {key!r} is not in the vocabulary and "
                "num_oov_indices=0 leaves no id for unknown strings.")
        first = 1 if self.mask_token is not None else 0
        return first + (zlib.crc32(key.encode()) % self.num_oov_indices)

    def get_config(self):
        config = super().get_config()
        config.update({"num_oov_indices": self.num_oov_indices, "mask_token": self.mask_token,
                       "oov_token": self.oov_token, "vocabulary": list(self._vocab),
                       "invert": self.invert, "max_tokens": self.max_tokens})
        return config
