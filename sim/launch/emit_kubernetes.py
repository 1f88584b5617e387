"""A Kubeflow TFJob manifest, and the TF_CONFIG the training operator gives each of its pods.

``kubectl apply -f NAME-tfjob.yaml`` hands the job to Kubeflow's training operator, which starts
one pod per replica and a headless service per pod, and injects TF_CONFIG into each pod's
container named "tensorflow". What it injects is established from its source, kubeflow/
training-operator v1.9.0 (commit 6f74c7f6), pkg/controller.v1/tensorflow/tensorflow.go
(genTFConfigJSONStr, genClusterSpec), util.go (GetPortFromTFJob, isDistributed),
pkg/controller.v1/common/util.go (GenGeneralName) and pkg/apis/kubeflow.org/v1/
tensorflow_types.go (the port named "tfjob-port", 2222 by default): every replica type in
"cluster", lower-cased, each task at ``<job>-<type>-<index>.<namespace>.svc:<port>`` (plus
``.$CUSTOM_CLUSTER_DOMAIN`` when the operator has it), this pod's "task", and
``"environment": "cloud"``, marshalled by Go (keys of "cluster" sorted, no spaces). With a
"Chief" replica the chief is that pod; without one, worker 0 is (IsMasterRole).
"""
from __future__ import annotations

import json

from sim.launch import small_yaml

CONTAINER, PORT_NAME, DEFAULT_PORT = "tensorflow", "tfjob-port", 2222
TYPES = ("Chief", "Master", "PS", "Worker", "Evaluator")


def manifest(plan):
    """The TFJob as a dict (apiVersion kubeflow.org/v1)."""
    specs = {}
    if plan.chief:
        specs["Chief"] = _replicas(plan, 1)
    specs["Worker"] = _replicas(plan, plan.workers - int(plan.chief))
    return {"apiVersion": "kubeflow.org/v1", "kind": "TFJob",
            "metadata": {"name": plan.name, "namespace": plan.namespace},
            "spec": {"runPolicy": {"cleanPodPolicy": "None", "backoffLimit": 3},
                     "tfReplicaSpecs": specs}}


def _replicas(plan, count):
    container = {"name": CONTAINER, "image": plan.image,
                 "command": [plan.python, plan.script, *map(str, plan.args)],
                 "ports": [{"name": PORT_NAME, "containerPort": plan.port}]}
    if plan.workdir:
        container["workingDir"] = plan.workdir
    limits = {}
    if plan.gpus_per_node:
        limits["nvidia.com/gpu"] = plan.gpus_per_node // plan.tasks_per_node
    if plan.cpus_per_task:
        limits["cpu"] = str(plan.cpus_per_task)
    if plan.mem:
        limits["memory"] = plan.mem + "i"
    if limits:
        container["resources"] = {"limits": limits, "requests": dict(limits)}
    pod = {"containers": [container]}
    if plan.pvc:
        claim, mount = plan.pvc
        container["volumeMounts"] = [{"name": "shared", "mountPath": mount}]
        pod["volumes"] = [{"name": "shared", "persistentVolumeClaim": {"claimName": claim}}]
    # ExitCode: a pod killed by a signal (exit 128 and above: preemption, a lost node) is
    # started again; an error of the script (1-127) fails the job.
    return {"replicas": count, "restartPolicy": "ExitCode", "template": {"spec": pod}}


def files(plan, written_by):
    comments = [f"Written by: {written_by}",
                "The training operator (Kubeflow) injects TF_CONFIG into each pod's container"
                " named tensorflow.", f"Submit it with: kubectl apply -f {plan.name}-tfjob.yaml"]
    return {f"{plan.name}-tfjob.yaml": small_yaml.dump(manifest(plan), comments)}


def _port(replica):
    for container in replica["template"]["spec"].get("containers", []):
        if container.get("name") == CONTAINER:
            for port in container.get("ports", []):
                if port.get("name") == PORT_NAME:
                    return port["containerPort"]
    return DEFAULT_PORT


def operator_cluster(tfjob, cluster_domain=""):
    """genClusterSpec: {"worker": ["<name>-worker-0.<namespace>.svc:2222", ...], ...}."""
    name, namespace = tfjob["metadata"]["name"], tfjob["metadata"]["namespace"]
    cluster = {}
    for rtype, replica in tfjob["spec"]["tfReplicaSpecs"].items():
        job = rtype.lower()
        hosts = [f"{name}-{job}-{i}".replace("/", "-") + f".{namespace}.svc"
                 + (f".{cluster_domain}" if cluster_domain else "")
                 for i in range(replica.get("replicas", 1))]
        cluster[job] = [f"{host}:{_port(replica)}" for host in hosts]
    return cluster


def operator_tf_configs(tfjob, cluster_domain=""):
    """{(type, index): the TF_CONFIG text the operator injects}; {} for a one-pod job."""
    replicas = tfjob["spec"]["tfReplicaSpecs"]
    if sum(r.get("replicas", 1) for t, r in replicas.items() if t in TYPES) == 1:
        return {}
    cluster = operator_cluster(tfjob, cluster_domain)
    out = {}
    for rtype, replica in replicas.items():
        for i in range(replica.get("replicas", 1)):
            config = {"cluster": dict(sorted(cluster.items())),
                      "task": {"type": rtype.lower(), "index": i}, "environment": "cloud"}
            out[(rtype.lower(), i)] = json.dumps(config, separators=(",", ":"))
    return out


def chief_of(tfjob):
    """(type, index) of the pod that is the chief: the Chief (or Master) replica, else worker 0."""
    replicas = tfjob["spec"]["tfReplicaSpecs"]
    for rtype in ("Chief", "Master"):
        if rtype in replicas:
            return rtype.lower(), 0
    return "worker", 0
