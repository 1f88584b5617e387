"""The seed chapter's MultiWorkerMirroredStrategy script (seed 002, unchanged but for its imports:
tests/seed_scripts/seed002_mwms_mnist.py) runs as a 2-worker cluster under the launcher: each
worker finds TF_CONFIG, builds the strategy, trains the CNN on its shard of MNIST for the
script's 3 epochs, and both finish with the same logs (one model, kept identical)."""
import re
from pathlib import Path

from sim.launch import launch

SCRIPT = Path(__file__).with_name("seed_scripts") / "seed002_mwms_mnist.py"


def test_seed_script_trains_on_two_workers():
    result = launch(SCRIPT, workers=2, gpus_per_worker=2, echo=False, timeout=280,
                    env={"SIM_LANG": "en"})
    assert result.returncode == 0, result.output[-3000:]
    logs = {}
    for task in result.tasks:
        out = task.output
        assert "Number of devices: 4" in out
        assert "Starting training on 4 replicas..." in out
        assert out.rstrip().endswith("Training complete.")
        logs[task.task_id] = re.findall(r"loss: ([\d.]+) - accuracy: ([\d.]+)", out)
    assert len(logs[0]) == 3 and logs[0] == logs[1]          # three epochs, the same on both
    (first_loss, _), (last_loss, last_accuracy) = logs[0][0], logs[0][-1]
    assert float(last_accuracy) > 0.6 and float(last_loss) < float(first_loss)
