"""A machine file's ``[fabric]`` table: the leaf-spine network between its nodes
(``sim.hardware.leaf_spine``), checked field by field with the machine file's one-line errors."""
from __future__ import annotations

from sim.hardware.machine_file import _fail, _number, _table, _text
from sim.i18n import join_list

FABRIC_FIELDS = ("leaf_ports", "spines", "oversubscription", "routing", "placement", "wiring",
                 "seed")


def read_fabric(where: str, table, nics: int):
    """``[fabric]``: the leaf-spine network between the nodes (sim/hardware/leaf_spine.py)."""
    from sim.hardware.leaf_spine import PLACEMENTS, ROUTINGS, WIRINGS, LeafSpine
    _table(where, "fabric", table, FABRIC_FIELDS)
    for key, example in (("leaf_ports", "leaf_ports = 16"), ("spines", "spines = 8")):
        if key not in table:
            _fail(where, f"fabric.{key}", "missing", example=example)
    ports = _number(where, "fabric.leaf_ports", table["leaf_ports"], whole=True)
    spines = _number(where, "fabric.spines", table["spines"], whole=True)
    over = _number(where, "fabric.oversubscription", table.get("oversubscription", 1), low=1,
                   strict=False)
    seed = _number(where, "fabric.seed", table.get("seed", 0), strict=False, whole=True)
    choices = {}
    for key, known in (("routing", ROUTINGS), ("placement", PLACEMENTS), ("wiring", WIRINGS)):
        if key in table:
            value = _text(where, f"fabric.{key}", table[key]).lower()
            if value not in known:
                _fail(where, f"fabric.{key}", "want_choice", value=value, known=join_list(known))
            choices[key] = value
    fabric = LeafSpine(ports, spines, over, seed=seed, **choices)
    if not fabric.takes(max(nics, 1)):
        _fail(where, "fabric.leaf_ports", "leaf_too_small", ports=ports, nics=nics)
    return fabric
