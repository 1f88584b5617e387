"""MultiWorkerMirroredStrategy across real processes equals one device on the same global batch.

One launched cluster (2 workers x 2 GPUs, float64) runs a custom loop and Model.fit; each is
compared with the same code on one device, in this process (tolerance 1e-12).
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import sim.tf as tf
from sim.launch import launch

SCRIPTS = Path(__file__).with_name("launch_scripts")
sys.path.insert(0, str(SCRIPTS))
import mwms_custom_loop  # noqa: E402
import mwms_fit  # noqa: E402



@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    out = tmp_path_factory.mktemp("mwms") / "run"
    result = launch(SCRIPTS / "mwms_both.py", [out], workers=2, gpus_per_worker=2, echo=False,
                    timeout=100)
    assert result.returncode == 0, result.output
    saved = [dict(np.load(f"{out}_worker_{k}.npz")) for k in (0, 1)]
    return result, saved, out.parent


def test_custom_loop_equals_one_device(cluster):
    _, saved, _ = cluster
    w, b, losses = mwms_custom_loop.train(tf.distribute.OneDeviceStrategy("/gpu:0"))
    for s in saved:
        assert int(s["replicas"]) == 4
        np.testing.assert_allclose(s["w"], w, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s["b"], b, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s["losses"], losses, rtol=0, atol=1e-12)


def test_fit_equals_one_device(cluster):
    _, saved, _ = cluster
    weights, losses = mwms_fit.fit_model(tf.distribute.get_strategy())
    for s in saved:
        for i, v in enumerate(weights):
            np.testing.assert_allclose(s[f"fit_{i}"], v, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s["fit_losses"], losses, rtol=0, atol=1e-12)


def test_one_clock_for_the_cluster(cluster):
    result, saved, _ = cluster
    assert saved[0]["now"] == saved[1]["now"] > 0
    # every worker's timeline shows each cross-host all-reduce at the same simulated time
    events = [e for e in result.trace if e.name == "CollectiveAllReduce"]
    by_worker = {}
    for e in events:
        by_worker.setdefault("task:1" in e.where, []).append((e.start, e.end))
    assert set(by_worker) == {False, True}
    assert by_worker[False] == by_worker[True]
    assert len(result.collectives) >= len(by_worker[False])
    assert [e.where.count("GPU") for e in events[:2]] == [2, 2]


def test_outputs_prefixed_by_task(cluster):
    result, _, _ = cluster
    assert "[worker 0] replicas 4 chief True" in result.output
    assert "[worker 1] replicas 4 chief False" in result.output
    assert [r.returncode for r in result.tasks] == [0, 0]


def test_only_the_chief_keeps_its_checkpoint(cluster):
    """T30: the chief writes ckpt/model_3.weights.h5 (Keras 3's weights file: Keras 3 refuses
    a plain .h5 for weights); worker 1 writes ckpt/workertemp_1/... and removes it."""
    result, _, folder = cluster
    assert "[worker 0] saved ckpt/model_3.weights.h5" in result.output
    assert "[worker 1] saved ckpt/workertemp_1/model_3.weights.h5" in result.output
    files = sorted(p.name for p in (folder / "ckpt").iterdir())
    assert not any(name.startswith("workertemp") for name in files)
    assert [n for n in files if n.startswith("model_3")], files


def test_replica_ids_are_global_and_gather_spans_the_workers(cluster):
    result, _, _ = cluster
    for task in result.tasks:
        assert "gathered ids [0, 1, 2, 3]" in task.output
    assert "value ids [0, 1]" in result.task("worker", 0).output
    assert "value ids [2, 3]" in result.task("worker", 1).output
