"""The metadata every generated notebook carries, so JupyterLab opens it unmodified.

JupyterLab copies the kernel's spec and its kernel_info reply into a notebook's metadata when it
opens it, and marks the notebook modified only when they differ; so the build writes exactly
those (``kernel_metadata``). Cell ids are derived from the source, so rebuilds keep them.
"""
from __future__ import annotations

import copy
import hashlib
from functools import lru_cache


@lru_cache(maxsize=None)
def kernel_metadata() -> dict:
    """The ``kernelspec`` and ``language_info`` JupyterLab writes for this environment's python3
    kernel: the spec's name/display_name/language, and ipykernel's kernel_info language_info."""
    from ipykernel.ipkernel import IPythonKernel
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    return {"kernelspec": {"display_name": spec.display_name, "language": spec.language,
                           "name": "python3"},
            "language_info": copy.deepcopy(dict(IPythonKernel.language_info))}


def notebook_metadata(course: dict) -> dict:
    return {**copy.deepcopy(kernel_metadata()), "course": course}


def _cell_id(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:12]
