"""One script, two engines: run it on sim.tf and on real TensorFlow, and set the numbers side by side.

Lesson 10's machinery, also used by ``tools/record_two_engines.py``, which stores a run on
TensorFlow 2.21 in ``two_engines_record.json`` beside this file so that the lesson can show the
comparison where TensorFlow is not installed. Two comparisons:

- ``one_import``: ``ONE_IMPORT_SCRIPT`` (a small Keras regression, its start fixed by NumPy) as
  ``python script.py``, once as written (``import sim.tf as tf``) and once with that one line
  changed to ``import tensorflow as tf``;
- ``seed_mwms``: the seed chapter's MultiWorkerMirroredStrategy script
  (tests/seed_scripts/seed002_mwms_mnist.py) as 2 local workers through the launcher on each
  engine, from the same start (``SIM_SAME_START``, sim/launch/same_start.py): the simulated run
  records the initial weights, the TensorFlow run starts from them.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

RECORD = Path(__file__).with_name("two_engines_record.json")
ROOT = Path(__file__).resolve().parents[2]
SEED_SCRIPT = ROOT / "tests" / "seed_scripts" / "seed002_mwms_mnist.py"
SEED_SAMPLES = 512            # 4 global batches of 128 per epoch: 12 steps for the script's 3 epochs
SIM_IMPORT, TF_IMPORT = "import sim.tf as tf", "import tensorflow as tf"
# Below this the two engines' difference is float32 rounding (a float32 holds about 7 significant
# digits): its exact size depends on the CPU (the order in which its BLAS adds up), so the lesson
# prints it as a bound that every machine shares.
ROUNDING_BOUND = 1e-6

ONE_IMPORT_SCRIPT = '''\
import json
import numpy as np
import sim.tf as tf

rng = np.random.RandomState(0)
x = rng.normal(size=(256, 8)).astype("float32")
y = (x @ rng.normal(size=(8, 1)) + 0.1 * rng.normal(size=(256, 1))).astype("float32")

model = tf.keras.Sequential([tf.keras.Input(shape=(8,)),
                             tf.keras.layers.Dense(16, activation="relu"),
                             tf.keras.layers.Dense(1)])
model.set_weights([rng.normal(0, 0.3, w.shape).astype("float32") for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.05), loss="mse")
history = model.fit(x, y, batch_size=32, epochs=5, shuffle=False, verbose=0)
print("RESULT", json.dumps(history.history["loss"]))
'''


def tensorflow_python(python=None):
    """The Python that has TensorFlow (``python``, else SIM_TF_PYTHON, else this one), or None."""
    from sim.launch.tf_engine import check_engine
    try:
        return check_engine("tensorflow", python)
    except ValueError:
        return None


def tensorflow_versions(python):
    """{"tensorflow": ..., "tf_keras": ..., "keras": ...} as installed for ``python``."""
    code = ("import json, importlib.metadata as m; print(json.dumps({n.replace('-', '_'): m.version(n) "
            "for n in ('tensorflow', 'tf-keras', 'keras')}))")
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout)


def _env(**extra):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.update(extra)
    return env


def run_one_import(engine, python=None):
    """The losses per epoch of ``ONE_IMPORT_SCRIPT`` on ``engine`` ("sim" or "tensorflow")."""
    text = ONE_IMPORT_SCRIPT if engine == "sim" else ONE_IMPORT_SCRIPT.replace(SIM_IMPORT, TF_IMPORT)
    with tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "train.py")
        with open(script, "w") as f:
            f.write(text)
        exe = sys.executable if engine == "sim" else python
        p = subprocess.run([exe, script], cwd=work, env=_env(), capture_output=True, text=True, timeout=300)
    lines = [x for x in p.stdout.splitlines() if x.startswith("RESULT ")]
    if p.returncode != 0 or not lines:
        raise RuntimeError(f"train.py on {engine} failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return {"loss": json.loads(lines[-1][len("RESULT "):])}


def run_seed(engine, weights, python=None, samples=SEED_SAMPLES):
    """The seed script as 2 workers on ``engine`` from the start in ``weights`` (recorded there by
    the first run): worker 0's History, and for sim the simulated seconds the run took."""
    from sim.i18n import get_language
    from sim.launch import launch
    env = {"SIM_SAME_START": str(weights), "SIM_SAME_START_SAMPLES": str(samples),
           "SIM_LANG": get_language(), "TF_CPP_MIN_LOG_LEVEL": "2"}
    options = {"gpus_per_worker": 1} if engine == "sim" else {"engine": "tensorflow", "python": python}
    result = launch(SEED_SCRIPT, workers=2, echo=False, timeout=600, env=env, **options)
    out = result.task("worker", 0).output
    lines = [x for x in out.splitlines() if x.startswith("SAME-START-HISTORY ")]
    if result.returncode != 0 or not lines:
        raise RuntimeError(f"the seed script on {engine} failed:\n{result.output[-3000:]}")
    history = json.loads(lines[-1][len("SAME-START-HISTORY "):])
    if engine == "sim":
        history["simulated_seconds"] = max(e.end for e in result.trace)
    return history


def compare(python):
    """Both comparisons, live: sim here, TensorFlow under ``python``."""
    with tempfile.TemporaryDirectory() as work:
        weights = Path(work) / "seed002_start.npz"
        seed_sim = run_seed("sim", weights)
        seed_tf = run_seed("tensorflow", weights, python)
    return {"one_import": {"sim": run_one_import("sim"), "tensorflow": run_one_import("tensorflow", python)},
            "seed_mwms": {"workers": 2, "samples": SEED_SAMPLES, "sim": seed_sim, "tensorflow": seed_tf}}


def load_record():
    """The comparison recorded by tools/record_two_engines.py (with its provenance)."""
    with open(RECORD, encoding="utf-8") as f:
        return json.load(f)


def difference(value, lang=None):
    """``value`` in the language's format (``3.0e-05``), or ``< 1e-6`` when it is within
    float32's rounding, whose last bits change from one CPU to another."""
    from sim.i18n import number, t
    if value < ROUNDING_BOUND:
        return t("lesson10.within_rounding", lang=lang)
    return number(value, ".1e", lang)


def side_by_side(sim_values, tf_values, digits=4):
    """Rows (epoch, sim, tensorflow, |difference|) with the values rounded to ``digits``."""
    return [(i, round(a, digits), round(b, digits), abs(a - b))
            for i, (a, b) in enumerate(zip(sim_values, tf_values), 1)]
