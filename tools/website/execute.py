"""Run the course notebooks for the website, keeping their figures.

The committed notebooks keep text outputs only (tools/build_notebooks.py drops images so git stays
small), and a website needs the figures, so the site build runs each lesson and exercise solution
once more, in parallel, and caches the result in build/site/executed/ under a key made of the
notebook's inputs and every file of the ``sim`` package: a rebuild with nothing changed runs
nothing. A widget cannot run in a static page; it is replaced by what it drew when it was first
shown (the figure its Output widget holds), which is the static fallback the lessons describe.
"""
from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat

from tools.notebook_execution import WIDGET_VIEW, coalesce_streams
from tools.website import EXECUTED, LANGS, ROOT

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
FALLBACK_TAG = "widget-fallback"  # outputs that stand in for a widget carry it in their metadata
# Figures at twice their pixels, shown at their usual size (IPython's "retina" PNG says so in its
# metadata): sharp on a phone's screen, and legible when a reader enlarges one (course.js).
RETINA = ["--InlineBackend.figure_formats=retina"]


@dataclass(frozen=True)
class Job:
    source: Path   # the committed notebook
    target: Path   # its executed copy under build/site/executed
    key: str


def code_digest() -> str:
    """A digest of every file the notebooks' outputs can depend on besides their own inputs."""
    h = hashlib.sha256()
    for path in sorted((ROOT / "sim").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(path.relative_to(ROOT).as_posix().encode())
            h.update(path.read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


def inputs_digest(nb: nbformat.NotebookNode) -> str:
    cells = [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in nb.cells]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode()).hexdigest()


def notebooks_to_run() -> list[Path]:
    """Every lesson and exercise solution, in every language."""
    found = []
    for lang in LANGS:
        found += sorted((ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))
        found += sorted((ROOT / "exercises" / lang / "solutions").glob("[0-9][0-9]_*.ipynb"))
    return found


def target_of(source: Path) -> Path:
    rel = source.relative_to(ROOT)          # notebooks/en/NN.ipynb or exercises/en/solutions/NN.ipynb
    kind = "lessons" if rel.parts[0] == "notebooks" else "solutions"
    return EXECUTED / rel.parts[1] / kind / rel.name


def plan() -> list[Job]:
    code = code_digest()
    jobs = []
    for source in notebooks_to_run():
        nb = nbformat.read(source, as_version=4)
        jobs.append(Job(source, target_of(source), f"{code}:{inputs_digest(nb)}"))
    return jobs


def is_fresh(job: Job) -> bool:
    if not job.target.exists():
        return False
    return nbformat.read(job.target, as_version=4).metadata.get("site", {}).get("key") == job.key


def widget_outputs(model_id: str, state: dict, seen: set | None = None) -> list:
    """The outputs held by the Output widgets inside a widget (its children, recursively)."""
    seen = set() if seen is None else seen
    if model_id in seen or model_id not in state:
        return []
    seen.add(model_id)
    model = state[model_id].get("state", {})
    found = list(model.get("outputs", [])) if model.get("_model_name") == "OutputModel" else []
    for child in model.get("children", []):
        if isinstance(child, str) and child.startswith("IPY_MODEL_"):
            found += widget_outputs(child[len("IPY_MODEL_"):], state, seen)
    return found


def replace_widgets(nb: nbformat.NotebookNode) -> None:
    """Each widget view becomes the figures and text it showed first (then drop widget state:
    a static page has no kernel, and MyST-NB would load the widgets' JavaScript from the web)."""
    state = nb.metadata.pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.outputs:
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                outputs.append(output)
                continue
            for shown in widget_outputs(view["model_id"], state):
                shown = nbformat.from_dict(shown)
                shown.setdefault("metadata", {})[FALLBACK_TAG] = True
                outputs.append(shown)
        cell.outputs = outputs


# A cell waits at most this long: the limit `make nbtest` gives every lesson cell (nbval's
# --nbval-cell-timeout 300, Makefile), so a lesson that passes there fits here. What runs into it
# is a client that lost the kernel's reply (seen at load 8: both kernels idle, nbclient waiting
# in select), and a second attempt of the notebook gets through.
CELL_TIMEOUT = 300
ATTEMPTS = 3


def is_transient(error: BaseException) -> bool:
    """Failures of the Jupyter plumbing, not of the lesson: worth running the notebook again.

    A kernel that dies before it answers kernel_info lost a race for a port (jupyter_client picks
    free ports, closes them, and the kernel binds them later; another process can take one between).
    """
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    if isinstance(error, (CellTimeoutError, DeadKernelError)):
        return True
    return isinstance(error, RuntimeError) and "Kernel died before replying" in str(error)


def executed(source: Path, log=print) -> nbformat.NotebookNode:
    """The notebook run top to bottom in a fresh kernel, again if the plumbing failed."""
    from nbclient import NotebookClient

    for attempt in range(1, ATTEMPTS + 1):
        nb = nbformat.read(source, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", record_timing=False,
                                store_widget_state=True,
                                extra_arguments=["--IPKernelApp.log_level=ERROR", *RETINA],
                                resources={"metadata": {"path": str(source.parent)}})
        try:
            client.execute()
            return nb
        except Exception as error:  # noqa: BLE001 - only the plumbing's failures are retried
            if attempt == ATTEMPTS or not is_transient(error):
                raise
            log(f"  again ({attempt + 1}/{ATTEMPTS}) {source.relative_to(ROOT).as_posix()}: "
                f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    raise AssertionError("unreachable")


def run(job: Job) -> str:
    """Execute one notebook in its own folder (as nbval and JupyterLab do) and save it."""
    nb = executed(job.source)
    replace_widgets(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.metadata.pop("execution", None)
            cell.outputs = coalesce_streams(cell.outputs)
    nb.metadata["site"] = {"key": job.key, "source": job.source.relative_to(ROOT).as_posix()}
    job.target.parent.mkdir(parents=True, exist_ok=True)
    tmp = job.target.with_suffix(".ipynb.tmp")
    nbformat.write(nb, tmp)
    tmp.replace(job.target)
    return job.source.relative_to(ROOT).as_posix()


def execute_all(workers: int | None = None, log=print) -> int:
    """Run every stale notebook, ``workers`` at a time (default: one per core); return how many."""
    stale = [job for job in plan() if not is_fresh(job)]
    if not stale:
        return 0
    workers = workers or os.cpu_count() or 1
    log(f"executing {len(stale)} notebooks, {workers} at a time")
    # One BLAS thread per kernel: the kernels already use every core between them.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for done in pool.map(run, stale):
            log(f"  ran {done}")
    return len(stale)
