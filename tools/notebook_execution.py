"""Executing a generated notebook and keeping only what is deterministic (make notebooks).

Images are dropped (git stays small; nbval ignores them) except in cells tagged ``keep-image``
(lesson 02's animated GIF must play from the committed notebook); widget views are dropped (their
state is not saved); streams are joined (how a kernel splits them depends on timing).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import nbformat

from tools.notebook_metadata import kernel_metadata


KEEP_IMAGE_TAG = "keep-image"


# A widget's view lives only while its kernel does; its state is not saved, so a committed view
# would show "model not found" (and a new random model_id every build). The cell shows it when run.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def coalesce_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks into one output: how a kernel splits a stream
    depends on timing, so the committed outputs would otherwise change from run to run."""
    joined: list = []
    for output in outputs:
        if (output.get("output_type") == "stream" and joined
                and joined[-1].get("output_type") == "stream" and joined[-1]["name"] == output["name"]):
            joined[-1]["text"] = "".join(joined[-1]["text"]) + "".join(output["text"])
        else:
            joined.append(output)
    return joined


def execute(nb: nbformat.NotebookNode, cwd: Path, timeout: int = 600,
            claims_at: dict | None = None) -> tuple[nbformat.NotebookNode, list[dict]]:
    """Run a notebook, then keep only deterministic text outputs; judge its claims on the way
    (``claims_at``: {index of a cell: claims to judge before it runs}, from tools/claims.py)."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(cwd)}}, record_timing=False,
                            allow_errors=False)
    claims_at = claims_at or {}
    verdicts: list[dict] = []
    client.reset_execution_trackers()
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells + [None]):
            if index in claims_at:
                verdicts += _judge(client, claims_at[index], index)
            if cell is not None:
                client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        cell.outputs = coalesce_streams([o for o in cell.outputs if WIDGET_VIEW not in o.get("data", {})])
        keep_images = KEEP_IMAGE_TAG in cell.metadata.get("tags", ())
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data and not keep_images:
                for mime in [m for m in data if m.startswith("image/")]:
                    del data[mime]
            output.get("metadata", {}).clear() if "metadata" in output else None
    nb.metadata.pop("widgets", None)
    nb.metadata.update(copy.deepcopy(kernel_metadata()))
    return nb, verdicts


def _judge(client, claims: list, index: int) -> list[dict]:
    """Evaluate claims in the running kernel, unseen: no cell, no history, no execution count."""
    from tools.claims import judge_snippet

    probe = nbformat.v4.new_code_cell(judge_snippet(claims))
    at = min(index, len(client.nb.cells) - 1)
    held = client.nb.cells[at]                      # nbclient writes the probe over cell ``at``
    try:
        client.execute_cell(probe, at, store_history=False)
    finally:
        client.nb.cells[at] = held
        client.code_cells_executed -= 1
    text = "".join("".join(o.get("text", "")) for o in probe.outputs if o.get("output_type") == "stream")
    line = next((l for l in text.splitlines() if l.startswith("CLAIMS ")), None)
    if line is None:
        return [{"id": i, "expression": e, "ok": False, "detail": "not evaluated: " + text[-300:]}
                for i, e in claims]
    return json.loads(line[len("CLAIMS "):])
