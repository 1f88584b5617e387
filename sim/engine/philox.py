"""TensorFlow's counter-based random bits (Philox4x32-10) and its distributions, in NumPy.

Written from TensorFlow's source, so a key and a counter give TensorFlow's numbers:
tensorflow/core/lib/random/philox_random.h (the rounds, Skip), random_distributions.h and
random_distributions_utils.h (Uint32ToFloat, Uint64ToDouble, BoxMullerFloat/Double, the
truncated normal's rejection), random_op_cpu.h's FillPhiloxRandom (group ``i`` of an output uses
counter ``+ i``; a distribution that takes a variable number of samples starts group ``i`` at
counter ``+ 64 * group size * i``) and stateless_random_ops.cc's GenerateKey (a seed pair scrambled into a key
and a counter). glibc's logf/sincosf are correctly rounded here by taking them in float64.
"""
from __future__ import annotations

import numpy as np

W32A, W32B = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
M4x32A, M4x32B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_MASK32 = np.uint64(0xFFFFFFFF)


def counters(counter, n):
    """``n`` successive 128-bit counters from ``counter`` (4 uint32, low word first): (n, 4)."""
    lo = (int(counter[0]) | int(counter[1]) << 32)
    hi = (int(counter[2]) | int(counter[3]) << 32)
    start = lo | hi << 64
    values = [(start + i) % (1 << 128) for i in range(n)] if n < 64 else None
    if values is None:   # vectorised: carry into the high half only where the low half wraps
        i = np.arange(n, dtype=np.uint64)
        low = np.uint64(lo) + i
        carry = (low < np.uint64(lo)).astype(np.uint64)
        high = np.uint64(hi) + carry
        return np.stack([low & _MASK32, low >> np.uint64(32), high & _MASK32,
                         high >> np.uint64(32)], axis=1).astype(np.uint32)
    return np.array([[v & 0xFFFFFFFF, v >> 32 & 0xFFFFFFFF, v >> 64 & 0xFFFFFFFF, v >> 96 & 0xFFFFFFFF]
                     for v in values], dtype=np.uint32).reshape(n, 4)


def philox(ctr, key):
    """Philox4x32-10 of each row of ``ctr`` (n, 4) under ``key`` (2 uint32): (n, 4) uint32."""
    c = ctr.astype(np.uint64)
    k0, k1 = np.uint32(key[0]), np.uint32(key[1])
    for r in range(10):
        p0 = M4x32A * c[:, 0]
        p1 = M4x32B * c[:, 2]
        c = np.stack([(p1 >> np.uint64(32)) ^ c[:, 1] ^ np.uint64(k0), p1 & _MASK32,
                      (p0 >> np.uint64(32)) ^ c[:, 3] ^ np.uint64(k1), p0 & _MASK32], axis=1)
        if r < 9:
            k0, k1 = np.uint32((int(k0) + int(W32A)) & 0xFFFFFFFF), np.uint32((int(k1) + int(W32B)) & 0xFFFFFFFF)
    return c.astype(np.uint32)


def skip(counter, n):
    """The counter ``n`` steps further (PhiloxRandom::Skip): 4 uint32."""
    v = sum(int(counter[i]) << (32 * i) for i in range(4)) + int(n)
    return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(4)]


def bits(key, counter, groups):
    """The uint32 words of ``groups`` successive Philox calls: (groups, 4)."""
    return philox(counters(counter, groups), key)


def _floats(words):
    """Uint32ToFloat: 23 random mantissa bits under exponent 127, minus 1 -> [0, 1)."""
    return ((words & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1)


def _doubles(hi, lo):
    """Uint64ToDouble: 20 + 32 mantissa bits under exponent 1023, minus 1 -> [0, 1)."""
    man = (hi.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32) | lo.astype(np.uint64)
    return (man | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _box_muller_float(x0, x1):
    """BoxMullerFloat: v1 = float(2.0f * M_PI * u) is double arithmetic rounded once; logf and
    sincosf correctly rounded; sqrtf and the products in float32."""
    u1 = np.maximum(_floats(x0), np.float32(1e-7))
    v1 = (2.0 * np.pi * _floats(x1).astype(np.float64)).astype(np.float32).astype(np.float64)
    u2 = np.sqrt(np.float32(-2.0) * np.log(u1.astype(np.float64)).astype(np.float32))
    return np.sin(v1).astype(np.float32) * u2, np.cos(v1).astype(np.float32) * u2


def _box_muller_double(x0, x1, x2, x3):
    u1 = np.maximum(_doubles(x0, x1), 1e-7)
    v1 = 2 * np.pi * _doubles(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def _per_call(dtype):
    """How many values one Philox call gives (a distribution's kResultElementCount)."""
    return 2 if np.dtype(dtype).itemsize == 8 else 4


def _groups(size, dtype):
    return -(-size // _per_call(dtype))


def uniform(key, counter, size, dtype):
    """UniformDistribution of floats in [0, 1)."""
    w = bits(key, counter, _groups(size, dtype))
    v = _doubles(w[:, 0::2], w[:, 1::2]) if np.dtype(dtype) == np.float64 else _floats(w)
    return v.reshape(-1)[:size].astype(dtype)


def normal(key, counter, size, dtype):
    """NormalDistribution: Box-Muller on word pairs (float) or quadruples (double)."""
    w = bits(key, counter, _groups(size, dtype))
    if np.dtype(dtype) == np.float64:
        a, b = _box_muller_double(w[:, 0], w[:, 1], w[:, 2], w[:, 3])
        v = np.stack([a, b], axis=1)
    else:
        a0, b0 = _box_muller_float(w[:, 0], w[:, 1])
        a1, b1 = _box_muller_float(w[:, 2], w[:, 3])
        v = np.stack([a0, b0, a1, b1], axis=1)
    return v.reshape(-1)[:size].astype(dtype)


def truncated_normal(key, counter, size, dtype):
    """TruncatedNormalDistribution: group ``g`` (4 floats or 2 doubles) draws single words from
    counter + 64 * group size * g (256 reserved samples per output) and keeps Box-Muller values
    with |x| < 2 until the group is full."""
    per = _per_call(dtype)
    out = []
    for g in range(_groups(size, dtype)):
        start = skip(counter, 64 * per * g)
        words, used, got = bits(key, start, 64).reshape(-1), 0, []
        while len(got) < per:
            if used + (4 if per == 2 else 2) > words.size:
                words = np.concatenate([words, bits(key, skip(start, words.size // 4), 64).reshape(-1)])
            if per == 2:
                pair = _box_muller_double(*(words[used + i:used + i + 1] for i in range(4)))
                used += 4
            else:
                pair = _box_muller_float(words[used:used + 1], words[used + 1:used + 2])
                used += 2
            for x in pair:
                if abs(float(x[0])) < 2.0 and len(got) < per:
                    got.append(x[0])
        out.extend(got)
    return np.array(out[:size], dtype=dtype)


def full_int(key, counter, size, dtype):
    """UniformFullIntDistribution: the words themselves (32-bit) or two joined (64-bit)."""
    w = bits(key, counter, _groups(size, dtype))
    if np.dtype(dtype).itemsize == 8:
        v = w[:, 0::2].astype(np.uint64) | w[:, 1::2].astype(np.uint64) << np.uint64(32)
    else:
        v = w
    return v.reshape(-1)[:size].astype(dtype)


def uniform_int(key, counter, size, lo, hi, dtype):
    """UniformDistribution over [lo, hi): lo + (bits mod (hi - lo)) in unsigned arithmetic."""
    wide = np.dtype(dtype).itemsize == 8
    raw = full_int(key, counter, size, np.uint64 if wide else np.uint32)
    span = (int(hi) - int(lo)) % (1 << (64 if wide else 32))
    return np.array([int(lo) + int(b) % span for b in raw], dtype=dtype) if raw.size < 4096 else \
        (np.int64(lo) + (raw % np.uint64(span)).astype(np.int64)).astype(dtype)


def key_counter_from_seed(seed):
    """GenerateKey: a seed pair scrambled by one Philox call into (key, counter), 4+2 uint32."""
    s0, s1 = (int(x) % (1 << 64) for x in seed)
    ctr = np.array([[s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32]], dtype=np.uint32)
    mix = philox(ctr, [0x3EC8F720, 0x02461E29])[0]
    return [int(mix[0]), int(mix[1])], [0, 0, int(mix[2]), int(mix[3])]
