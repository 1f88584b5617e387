"""``python -m sim launch --emit kubernetes``: a TFJob the operator's CRD accepts, and its TF_CONFIGs.

The manifest is validated with jsonschema against the TFJob CRD's openAPIV3Schema as Kubeflow's
training operator v1.9.0 publishes it (vendored in tests/data/tfjob_crd, source named there),
strictly: a field the schema does not name is an error, as kubectl's strict field validation
makes it. The TF_CONFIG each pod gets is the operator's (sim.launch.emit_kubernetes, from its
source); fed to local processes with loopback addresses in place of the service names, they train.
"""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from sim.launch import emit, emit_kubernetes, local_cluster

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "launch_scripts" / "cluster_files" / "train.py"
CRD = json.loads((ROOT / "tests" / "data" / "tfjob_crd" / "kubeflow.org_tfjobs.v1.schema.json").read_text())
EXPECTED_LOSS = "LOSS 8.29863 1.37948 0.35208"


def strict(schema):
    """The schema with unknown fields refused where it lists the known ones."""
    schema = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if ("properties" in node and "additionalProperties" not in node
                    and not node.get("x-kubernetes-preserve-unknown-fields")):
                node["additionalProperties"] = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema)
    return schema


VALIDATOR = jsonschema.Draft7Validator(strict(CRD["openAPIV3Schema"]))


@pytest.fixture
def job(tmp_path, monkeypatch):
    shutil.copy(SCRIPT, tmp_path / "train.py")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _manifest(args):
    paths = emit.emit(["kubernetes", *args, "train.py"])
    text = Path(paths[0]).read_text()
    return text, yaml.safe_load(text)


VARIANTS = [[], ["--chief", "--nodes", "3"],
            ["--nodes", "2", "--gpus-per-node", "4", "--cpus-per-task", "8", "--mem", "32G",
             "--pvc", "training:/train", "--image", "registry.example.com/me/train:1", "--port", "3333"],
            ["--gpus-per-node", "8", "--tasks-per-node", "2", "--namespace", "team-a", "--name", "resnet"]]


@pytest.mark.parametrize("args", VARIANTS, ids=lambda a: " ".join(a) or "defaults")
def test_the_manifest_validates_against_the_operators_crd(job, args):
    text, manifest = _manifest(args)
    assert sorted(VALIDATOR.iter_errors(manifest), key=str) == []
    assert manifest["apiVersion"] == "kubeflow.org/v1" and manifest["kind"] == "TFJob"
    container = manifest["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
    assert container["name"] == "tensorflow"          # the operator injects TF_CONFIG only there


@pytest.mark.parametrize("mistake, path", [
    (lambda m: m["spec"]["tfReplicaSpecs"]["Worker"].update(replicas="two"), "replicas"),
    (lambda m: m["spec"].update(tfReplicaSpec=m["spec"].pop("tfReplicaSpecs")), "tfReplicaSpecs"),
    (lambda m: m["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"].pop("containers"), "containers"),
    (lambda m: m["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0].pop("name"), "name"),
    (lambda m: m["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
     .update(resources={"limits": {"memory": "lots"}}), "memory"),
    (lambda m: m["spec"]["tfReplicaSpecs"]["Worker"].update(restartPolicy=1), "restartPolicy"),
])
def test_the_schema_catches_a_broken_manifest(job, mistake, path):
    """The check can fail: each of these edits is refused."""
    _, manifest = _manifest([])
    mistake(manifest)
    errors = list(VALIDATOR.iter_errors(manifest))
    assert errors and any(path in str(e.message) + str(list(e.path)) for e in errors), errors


def test_the_yaml_reads_back_as_the_manifest(job):
    text, manifest = _manifest(VARIANTS[2])
    plan, _ = emit.contents(["kubernetes", *VARIANTS[2], "train.py"])
    assert manifest == emit_kubernetes.manifest(plan)
    assert text.startswith("# Written by: python -m sim launch --emit kubernetes")


def test_the_operators_tf_config_for_each_pod(job):
    _, manifest = _manifest(["--chief", "--nodes", "3"])
    configs = emit_kubernetes.operator_tf_configs(manifest)
    cluster = ('{"chief":["train-chief-0.default.svc:2222"],"worker":["train-worker-0.default.svc:2222",'
               '"train-worker-1.default.svc:2222"]}')
    assert configs == {
        ("chief", 0): '{"cluster":%s,"task":{"type":"chief","index":0},"environment":"cloud"}' % cluster,
        ("worker", 0): '{"cluster":%s,"task":{"type":"worker","index":0},"environment":"cloud"}' % cluster,
        ("worker", 1): '{"cluster":%s,"task":{"type":"worker","index":1},"environment":"cloud"}' % cluster}
    assert emit_kubernetes.chief_of(manifest) == ("chief", 0)
    _, plain = _manifest([])
    assert emit_kubernetes.chief_of(plain) == ("worker", 0)
    ported = emit_kubernetes.operator_cluster(_manifest(VARIANTS[2])[1], cluster_domain="cluster.local")
    assert ported["worker"][7] == "train-worker-7.default.svc.cluster.local:3333"


def test_a_one_pod_job_gets_no_tf_config(job):
    _, manifest = _manifest(["--nodes", "1"])
    assert emit_kubernetes.operator_tf_configs(manifest) == {}


@pytest.mark.slow
def test_the_pods_tf_configs_train_here(job):
    _, manifest = _manifest(["--chief", "--nodes", "2"])
    configs = emit_kubernetes.operator_tf_configs(manifest)
    command = manifest["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["command"]
    local = local_cluster.loopback_configs(list(configs.values()))
    assert [json.loads(c)["task"] for c in local] == [json.loads(c)["task"] for c in configs.values()]
    status, lines = local_cluster.tf_configs(local, command, cwd=str(job), timeout=300, echo=False)
    assert status == 0, lines[-40:]
    done = sorted(line for _, line in lines if line.startswith("TASK "))
    assert done == sorted(f"TASK {t} {i} GPUS - {EXPECTED_LOSS}" for t, i in configs)
