"""The map of tf.distribute: which training API each strategy supports.

Data from the overview table of TensorFlow's guide "Distributed training with TensorFlow"
(the zh and pt translations in ../shared/seeds/ carry the same table). Printed in the
course language so lesson 00 can show it as TensorFlow's documentation does.
"""
from __future__ import annotations

from sim.i18n import t

STRATEGIES = ("MirroredStrategy", "TPUStrategy", "MultiWorkerMirroredStrategy",
              "CentralStorageStrategy", "ParameterServerStrategy")

# (training API, one status per strategy above); statuses are catalogue keys.
SUPPORT = (
    ("Keras Model.fit", ("supported", "supported", "supported", "experimental", "experimental")),
    ("custom_loop", ("supported", "supported", "supported", "experimental", "experimental")),
    ("Estimator API", ("limited", "not_supported", "limited", "limited", "limited")),
)


def support(api: str, strategy: str) -> str:
    """The status key ("supported", "experimental", "limited", "not_supported")."""
    for name, statuses in SUPPORT:
        if name == api:
            return statuses[STRATEGIES.index(strategy)]
    raise ValueError(f"unknown training API {api!r}; known: {[n for n, _ in SUPPORT]}")


def table_rows() -> list[list[str]]:
    """The table in the course language, header first."""
    header = [t("strategy_map.training_api"), *STRATEGIES]
    rows = [header]
    for api, statuses in SUPPORT:
        label = t("strategy_map.custom_loop") if api == "custom_loop" else api
        rows.append([label, *(t(f"strategy_map.{s}") for s in statuses)])
    return rows


def show() -> None:
    """Print the table with aligned columns (each strategy on its own line, to fit a notebook)."""
    rows = table_rows()
    for column, strategy in enumerate(rows[0][1:], start=1):
        cells = t("strategy_map.cell_separator").join(
            t("strategy_map.cell", api=row[0], status=row[column]) for row in rows[1:])
        print(f"{strategy:<28} {cells}")
