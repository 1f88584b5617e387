"""Executing a generated notebook and keeping only what is deterministic (make notebooks).

Images are dropped (git stays small; nbval ignores them) except in cells tagged ``keep-image``
(lesson 02's animated GIF must play from the committed notebook); widget views are dropped (their
state is not saved); streams are joined (how a kernel splits them depends on timing).
"""
from __future__ import annotations

import copy
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


def execute(nb: nbformat.NotebookNode, cwd: Path, timeout: int = 600) -> nbformat.NotebookNode:
    """Run a notebook, then keep only deterministic text outputs."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(cwd)}}, record_timing=False,
                            allow_errors=False)
    client.execute()
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
    return nb
