"""Counted words in what a learner reads pick their plural by the count (sim/i18n/plural.py):
strategies' and DistributedDataset's reprs, the Machine repr, in en/zh/pt; and no catalogue text or
repr writes "worker(s)" / "servidor(es)" (GLOSSARY.md). TensorFlow's and Keras's own texts
(auto_shard's "file(s)", "Argument(s) not recognized", "saved weight(s)") are kept verbatim."""
import json
import re
from pathlib import Path

import pytest

import sim
import sim.tf as tf
from sim.hardware.presets import workstation_4gpu
from tests.ps_cluster import Resolver

CATALOGS = Path(sim.__file__).parent / "i18n" / "catalogs"
HEDGED = re.compile(r"\w\((s|es|ões)\)")


@pytest.fixture
def lang(request):
    sim.setup(request.param, seed=0)
    yield request.param
    sim.setup("en", seed=0)


def _reprs():
    one, two = tf.distribute.MirroredStrategy(["/gpu:0"]), tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    return [repr(one), repr(two),
            repr(tf.distribute.experimental.ParameterServerStrategy(Resolver(workers=1, ps=1))),
            repr(tf.distribute.experimental.ParameterServerStrategy(Resolver(workers=3, ps=2))),
            repr(tf.distribute.MultiWorkerMirroredStrategy()),
            repr(one.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))),
            repr(workstation_4gpu(gpus=1))]


EXPECTED = {
    "en": ["<tf.distribute.MirroredStrategy on 1 device>", "<tf.distribute.MirroredStrategy on 2 devices>",
           "<tf.distribute.ParameterServerStrategy with 1 worker and 1 parameter server>",
           "<tf.distribute.ParameterServerStrategy with 3 workers and 2 parameter servers>",
           "<tf.distribute.MultiWorkerMirroredStrategy with 4 replicas on 1 worker>",
           "<tf.distribute.DistributedDataset over 1 replica>",
           "Machine('workstation-4gpu': 2 devices, 2 links, 1 host)"],
    "pt": ["<tf.distribute.MirroredStrategy em 1 dispositivo>",
           "<tf.distribute.MirroredStrategy em 2 dispositivos>",
           "<tf.distribute.ParameterServerStrategy com 1 worker e 1 servidor de parâmetros>",
           "<tf.distribute.ParameterServerStrategy com 3 workers e 2 servidores de parâmetros>",
           "<tf.distribute.MultiWorkerMirroredStrategy com 4 réplicas em 1 worker>",
           "<tf.distribute.DistributedDataset sobre 1 réplica>",
           "Machine('workstation-4gpu': 2 dispositivos, 2 enlaces, 1 host)"],
    "zh": ["<tf.distribute.MirroredStrategy，1 个设备>", "<tf.distribute.MirroredStrategy，2 个设备>",
           "<tf.distribute.ParameterServerStrategy，1 个工作进程，1 个参数服务器>",
           "<tf.distribute.ParameterServerStrategy，3 个工作进程，2 个参数服务器>",
           "<tf.distribute.MultiWorkerMirroredStrategy，4 个副本，分布在 1 个工作进程上>",
           "<tf.distribute.DistributedDataset，分给 1 个副本>",
           "Machine('workstation-4gpu'：2 个设备，2 条链路，1 台主机)"],
}


@pytest.mark.parametrize("lang", ["en", "zh", "pt"], indirect=True)
def test_reprs_say_one_worker_and_two_workers(lang):
    got = _reprs()
    assert got == EXPECTED[lang]
    assert not [r for r in got if HEDGED.search(r)]


def test_no_catalogue_text_hedges_a_plural():
    hedged = [f"{p.name}:{lang}:{key}" for p in sorted(CATALOGS.glob("*.json"))
              for lang, entries in json.loads(p.read_text("utf-8")).items()
              for key, text in entries.items() if isinstance(text, str) and HEDGED.search(text)]
    assert hedged == []
    assert HEDGED.search("worker(s)") and HEDGED.search("servidor(es)")   # the check can fail
