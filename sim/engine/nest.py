"""``tf.nest``: flatten and rebuild nested lists, tuples, dicts and namedtuples.

Dicts are flattened in sorted key order, as TensorFlow does, so structures line up.
"""
from __future__ import annotations


def is_nested(x):
    return isinstance(x, (list, tuple, dict))


def flatten(structure, expand_composites=False):
    if not isinstance(structure, (list, tuple, dict)):
        return [structure]
    out = []
    _flatten(structure, out)
    return out


def _flatten(s, out):
    if isinstance(s, dict):
        for k in sorted(s):
            _flatten(s[k], out)
    elif isinstance(s, (list, tuple)):
        for x in s:
            _flatten(x, out)
    else:
        out.append(s)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    it = iter(flat_sequence)
    result = _pack(structure, it)
    return result


def _pack(s, it):
    if isinstance(s, dict):
        vals = {k: _pack(s[k], it) for k in sorted(s)}
        return type(s)((k, vals[k]) for k in s) if type(s) is not dict else {k: vals[k] for k in s}
    if isinstance(s, tuple) and hasattr(s, "_fields"):
        return type(s)(*[_pack(x, it) for x in s])
    if isinstance(s, (list, tuple)):
        return type(s)(_pack(x, it) for x in s)
    return next(it)


def map_structure(func, *structures, **kwargs):
    flats = [flatten(s) for s in structures]
    n = len(flats[0])
    for f in flats[1:]:
        if len(f) != n:
            raise ValueError("The two structures don't have the same nested structure.")
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)])


def assert_same_structure(a, b, check_types=True, expand_composites=False):
    if len(flatten(a)) != len(flatten(b)):
        raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                         f"First structure: {a}\n\nSecond structure: {b}")
