"""What lessons 05 and 06 now say TensorFlow does, checked on TensorFlow 2.21 (issue 32).

Run from the TensorFlow venv (tests/tf_crosscheck/README or test_crosscheck.py's docstring):
``.venv-tf/bin/python -m pytest tests/tf_crosscheck/test_lessons_tf_behaviour.py``. Each TensorFlow
run is a subprocess; sim runs in this process.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from sim.launch.free_ports import free_ports

pytest.importorskip("tensorflow")

ENV = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")


def _free_port():
    return free_ports(1)[0]     # below the ephemeral range: no other connection takes it first


def _tf(script, timeout=300):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=ENV, capture_output=True,
                          text=True, timeout=timeout)
    line = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")]
    assert line, proc.stderr[-3000:]
    return json.loads(line[-1][7:])


def test_mwms_with_a_ps_job_waits_on_tensorflow_and_sim_says_so_without_claiming_an_error():
    """Lesson 06: TensorFlow accepts a "ps" job in MultiWorkerMirroredStrategy's TF_CONFIG and
    blocks, waiting for that task; sim stops with its own ValueError, which says TF waits."""
    worker, ps = f"localhost:{_free_port()}", f"localhost:{_free_port()}"
    config = {"cluster": {"worker": [worker], "ps": [ps]}, "task": {"type": "worker", "index": 0}}
    script = ("import os, json; os.environ['TF_CONFIG'] = " + repr(json.dumps(config)) +
              "\nimport tensorflow as tf\ns = tf.distribute.MultiWorkerMirroredStrategy()\nprint('CREATED', flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(40)
        still_running = proc.poll() is None
    finally:
        proc.kill()
        out, err = proc.communicate()
    assert still_running and "CREATED" not in out, (out, err[-2000:])
    assert "Traceback" not in err

    import sim
    sim.setup("en")
    import sim.tf as tf
    os.environ["TF_CONFIG"] = json.dumps(config)
    try:
        with pytest.raises(ValueError) as error:
            tf.distribute.MultiWorkerMirroredStrategy()
    finally:
        del os.environ["TF_CONFIG"]
    text = str(error.value)
    assert "TensorFlow accepts it" in text and f"waits, with no message and no end, for the \"ps\" task at {ps}" in text
    assert "sim stops here instead of hanging" in text


FILES = """
import os, tempfile, json
import numpy as np, tensorflow as tf
from tensorflow.python.data.experimental.ops import distribute as dist
folder = tempfile.mkdtemp()
for k in range(4):
    with tf.io.TFRecordWriter(os.path.join(folder, f"part-{k}.tfrecord")) as w:
        for e in range(4 * k, 4 * k + 4):
            w.write(np.int64(e).tobytes())
def parse(record):
    return tf.io.decode_raw(record, tf.int64)[0]
files = tf.data.Dataset.list_files(os.path.join(folder, "*.tfrecord"), seed=0)
ds = files.interleave(tf.data.TFRecordDataset, cycle_length=1).map(parse)
out = {"first order": [int(v) for v in ds.as_numpy_iterator()], "8 workers": []}
for w in range(8):
    opts = tf.data.Options()
    opts.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.FILE
    sh = dist._AutoShardDataset(ds, 8, w, num_replicas=8).with_options(opts)
    try:
        out["8 workers"].append(len(list(sh.as_numpy_iterator())))
    except tf.errors.InvalidArgumentError as e:
        m = str(e)
        out["8 workers"].append(m[m.index("Could not apply"):m.index(" [Op:")])
print("RESULT " + json.dumps(out))
"""


def test_file_sharding_with_too_few_files_as_tensorflow(tmp_path):
    """Lesson 06: 4 files, 8 workers: workers 0-3 raise 'only has w + 1 file(s)' with TF's whole
    text, 4-7 read nothing. The first shuffled order of list_files(seed=0) is TF's own and not
    sim's (the lesson says so): only that it is a permutation of whole files is shared."""
    ref = _tf(FILES)
    import numpy as np
    import sim
    sim.setup("en")
    import sim.tf as tf
    from sim.distribute.auto_shard import auto_shard, fresh_copy
    for k in range(4):
        with tf.io.TFRecordWriter(str(tmp_path / f"part-{k}.tfrecord")) as w:
            for e in range(4 * k, 4 * k + 4):
                w.write(np.int64(e).tobytes())
    files = tf.data.Dataset.list_files(str(tmp_path / "*.tfrecord"), seed=0)
    ds = files.interleave(tf.data.TFRecordDataset, cycle_length=1).map(
        lambda r: tf.io.decode_raw(r, tf.int64)[0])
    got = []
    for w in range(8):
        try:
            got.append(len(list(auto_shard(fresh_copy(ds), 8, w))))
        except tf.errors.InvalidArgumentError as e:
            got.append(str(e).split("\n")[0])
    assert got == ref["8 workers"]
    order = [int(v) for v in ds.as_numpy_iterator()]
    assert sorted(order) == sorted(ref["first order"]) == list(range(16))
    assert all(order[i] % 4 == 0 and order[i:i + 4] == list(range(order[i], order[i] + 4)) for i in (0, 4, 8, 12))
