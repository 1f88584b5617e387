"""What a learner opens: committed notebooks open clean in JupyterLab (their kernelspec and
language_info are what JupyterLab writes back), and their outputs hold no machine path and no
traceback frame (errors are shown as ``Type: message``, see sim.course.error_display)."""
import json
import re

import pytest

from tools import build_notebooks as build

COMMITTED = sorted(p for lang in build.LANGS
                   for p in [*(build.ROOT / "notebooks" / lang).glob("*.ipynb"),
                             *(build.ROOT / "exercises" / lang).glob("*.ipynb"),
                             *(build.ROOT / "exercises" / lang / "solutions").glob("*.ipynb")])
IDS = [p.relative_to(build.ROOT).as_posix() for p in COMMITTED]

ANSI = re.compile(r"\x1b\[[0-9;]*m")
FRAME = re.compile(r"Traceback \(most recent call last\)"      # Python's header
                   r"|^\s*File \S.*(?:, line \d+|:\d+)"         # a frame (plain or IPython 8)
                   r"|^\s*Cell In\s*\[\d*\], line \d+"          # IPython's notebook-cell frame
                   r"|^-*> ?\d+ ",                              # IPython's current-line arrow
                   re.M)
MACHINE_PATH = re.compile(r"(?<![\w.:/])/(?:home|work|Users|tmp|root|usr|opt|var|private|mnt)/"
                          r"|site-packages|dist-packages|\b[A-Za-z]:\\\\")


def traceback_frames(text: str) -> list[str]:
    """The traceback frames (or Python's traceback header) found in ``text``."""
    return FRAME.findall(ANSI.sub("", text))


def machine_paths(text: str) -> list[str]:
    return MACHINE_PATH.findall(ANSI.sub("", text))


def _shown(output: dict) -> str:
    """Everything an output puts on the screen, as text."""
    parts = [output.get("text", ""), "\n".join(output.get("traceback", [])),
             output.get("evalue", "")]
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/") or mime.endswith("json"):
            parts.append(value if isinstance(value, str) else json.dumps(value))
    return "\n".join("".join(p) if isinstance(p, list) else p for p in parts)


def test_the_detectors_catch_what_they_look_for():
    ipython = ("\x1b[0;31mValueError\x1b[0m  Traceback (most recent call last)\n"
               "Cell \x1b[0;32mIn[7], line 1\x1b[0m\n----> 1 strategy.reduce('SUM', 1.0)\n"
               "File \x1b[0;32m/work/x/sim/distribute/values.py:88\x1b[0m, in \x1b[0;36mreduce\x1b[0m")
    assert len(traceback_frames(ipython)) >= 3
    assert traceback_frames('  File "/usr/lib/python3.11/x.py", line 3, in f') != []
    assert machine_paths(ipython) and machine_paths("C:\\\\Users\\\\me") and \
        machine_paths("/usr/lib/python3/site-packages/numpy")
    clean = "ValueError: Summing one plain value over 4 replicas would count it 4 times.\n" \
            "/job:localhost/replica:0/task:0/device:GPU:0 -> pcie-switch: 0.5 µs"
    assert traceback_frames(clean) == [] and machine_paths(clean) == []


@pytest.mark.parametrize("path", COMMITTED, ids=IDS)
def test_outputs_hold_no_machine_path_and_no_traceback_frame(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for i, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            shown = _shown(output)
            assert traceback_frames(shown) == [], (i, shown[:400])
            assert machine_paths(shown) == [], (i, shown[:400])


@pytest.mark.parametrize("path", COMMITTED, ids=IDS)
def test_opening_the_notebook_leaves_its_metadata_unchanged(path):
    metadata = json.loads(path.read_text(encoding="utf-8"))["metadata"]
    wanted = build.kernel_metadata()
    assert metadata.get("kernelspec") == wanted["kernelspec"]
    assert metadata.get("language_info") == wanted["language_info"]


def test_kernel_metadata_is_what_jupyterlab_copies_from_the_kernel():
    """JupyterLab sets kernelspec to the running kernel's {name, display_name, language} and
    language_info to the kernel_info reply's; ipykernel's reply carries its class attribute."""
    from ipykernel.ipkernel import IPythonKernel
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    wanted = build.kernel_metadata()
    assert wanted["kernelspec"] == {"name": "python3", "display_name": spec.display_name,
                                    "language": spec.language}
    assert wanted["language_info"] == IPythonKernel.language_info
    assert wanted["language_info"]["version"].count(".") == 2


@pytest.mark.parametrize("path", COMMITTED, ids=IDS)
def test_no_dead_widget_view_is_committed(path):
    """A widget view without its saved state shows "model not found" until the cell is re-run."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    views = [i for i, cell in enumerate(nb["cells"]) for out in cell.get("outputs", [])
             if build.WIDGET_VIEW in out.get("data", {})]
    assert views == []
