"""Block-style YAML for a manifest: dicts, lists, strings, whole numbers and booleans.

Kubernetes manifests are read as YAML by kubectl; this writes the usual indented form, keys in
the order given (a manifest reads apiVersion, kind, metadata, spec). A string that YAML would
read as something else (``"2"``, ``"true"``, ``"None"``, one with ``: `` or ``#``...) is written
double-quoted as JSON, which is also YAML; the tests read every file back with PyYAML.
"""
from __future__ import annotations

import json
import re

_PLAIN = re.compile(r"[A-Za-z_/.][A-Za-z0-9_./\-]*$")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "none", "~"}


def dump(value, comments=()):
    """The YAML text of ``value``, after ``comments`` (one ``# ...`` line each)."""
    lines = [f"# {c}" for c in comments]
    lines += _block(value, 0)
    return "\n".join(lines) + "\n"


def _scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if _PLAIN.match(value) and value.lower() not in _YAML_WORDS:
            return value
        return json.dumps(value)
    raise TypeError(f"small_yaml writes dicts, lists, str, int and bool, not {type(value).__name__}")


def _block(value, indent):
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return [pad + "{}"]
        out = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                out.append(f"{pad}{_scalar(key)}:")
                out += _block(item, indent + (0 if isinstance(item, list) else 2))
            else:
                out.append(f"{pad}{_scalar(key)}: {_inline(item)}")
        return out
    if isinstance(value, list):
        out = []
        for item in value:
            if isinstance(item, (dict, list)) and item:
                inner = _block(item, indent + 2)
                out.append(f"{pad}- {inner[0].lstrip()}")
                out += inner[1:]
            else:
                out.append(f"{pad}- {_inline(item)}")
        return out
    return [pad + _scalar(value)]


def _inline(value):
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return _scalar(value)
