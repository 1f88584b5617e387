"""The trace exports to Chrome JSON and draws as a Gantt chart in the course language."""
import json

import matplotlib
import pytest

matplotlib.use("Agg")

from sim import i18n  # noqa: E402
from sim.course import plots  # noqa: E402
from sim.des import Failure, Simulator         # noqa: E402
from sim.course.plots import timeline                 # noqa: E402


def small_run():
    sim = Simulator("workstation-4gpu", failures=[Failure(at=2e-3, device="/gpu:3")])

    def worker(g):
        yield sim.compute(f"/gpu:{g}", seconds=1e-3, label="forward")
        yield sim.transfer(f"/gpu:{g}", "/cpu:0", 12e6, label="grads")

    for g in range(3):
        sim.process(worker(g))
    return sim


def test_chrome_json_follows_the_trace_event_format(tmp_path):
    sim = small_run()
    sim.run()
    doc = sim.trace.to_chrome_json(tmp_path / "trace.json")
    assert json.loads((tmp_path / "trace.json").read_text()) == doc
    complete = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    assert len(complete) == len(sim.trace) == 7          # 3 compute + 3 transfers + 1 failure
    for ev in complete:
        assert {"name", "ph", "ts", "dur", "pid", "tid"} <= set(ev)
        assert isinstance(ev["pid"], int) and isinstance(ev["tid"], int) and ev["dur"] >= 0
    grads = [e for e in complete if e["name"] == "grads"]
    # three copies share the 12 GB/s uplink: 1 µs + 3 x 12 MB / 12 GB/s = 3001 µs each
    assert all(e["ts"] == pytest.approx(1000.0) for e in grads)
    assert all(e["dur"] == pytest.approx(3001.0) for e in grads)
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M"}
    assert {"compute", "transfer", "/gpu:0", "/gpu:0→/cpu:0"} <= names


@pytest.mark.parametrize("lang,word", [("en", "simulated time (ms)"), ("zh", "模拟时间（ms）"),
                                       ("pt", "tempo simulado (ms)")])
def test_timeline_speaks_the_course_language(lang, word):
    before = i18n.get_language()
    try:
        i18n.set_language(lang)
        plots.setup_fonts()
        sim = small_run()
        sim.run()
        fig = timeline.draw(sim.trace)
        ax = fig.axes[0]
        assert ax.get_xlabel() == word
        assert [l.get_text() for l in ax.get_yticklabels()][:3] == ["/gpu:0", "/gpu:1", "/gpu:2"]
        assert len(ax.get_legend().get_texts()) == 3
        fig.canvas.draw()
        matplotlib.pyplot.close(fig)
    finally:
        i18n.set_language(before)


def test_draw_on_a_given_axes_and_empty_trace():
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    assert timeline.draw([], ax=ax) is fig
    plt.close(fig)


def test_full_tensorflow_device_names_are_shortened():
    from sim.course.plots.timeline import short_where

    assert short_where("/job:localhost/replica:0/task:0/device:GPU:1") == "/gpu:1"
    assert short_where("/job:localhost/replica:0/task:0/device:GPU:0→"
                       "/job:localhost/replica:0/task:0/device:CPU:0") == "/gpu:0→/cpu:0"
    assert short_where("/job:worker/replica:0/task:1/device:GPU:0") == "worker:1/gpu:0"
    assert short_where("pcie-switch") == "pcie-switch"


def test_draw_names_the_mistake_when_given_no_trace():
    import pytest
    from sim.course.plots.timeline import draw
    with pytest.raises(TypeError, match="last_step_trace"):
        draw(3.0)
