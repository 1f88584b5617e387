"""The options of ``python -m sim launch --emit slurm|kubernetes|ssh SCRIPT``, read and checked.

``parse(argv)`` gives an ``EmitPlan`` or raises ``ValueError`` with one line in the course
language naming the mistake and the fix (the CLI prints it and exits 2). Each kind takes only
the options that mean something for it: ``--hosts`` only ssh, ``--image`` only kubernetes...
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from sim.i18n import t

KINDS = ("slurm", "kubernetes", "ssh")
# option -> (kinds that take it, an example value for messages)
OPTIONS = {
    "--nodes": (("slurm", "kubernetes"), "2"),
    "--tasks-per-node": (("slurm", "kubernetes"), "4"),
    "--gpus-per-node": (KINDS, "4"),
    "--cpus-per-task": (("slurm", "kubernetes"), "8"),
    "--mem": (("slurm", "kubernetes"), "32G"),
    "--time": (("slurm",), "02:00:00"),
    "--image": (("kubernetes",), "tensorflow/tensorflow:2.21.0-gpu"),
    "--namespace": (("kubernetes",), "default"),
    "--pvc": (("kubernetes",), "training:/train"),
    "--hosts": (("ssh",), "10.1.10.58,10.1.10.250"),
    "--port": (KINDS, "12345"),
    "--name": (KINDS, "mnist"),
    "--workdir": (KINDS, "/shared/train"),
    "--python": (KINDS, "python3"),
    "--out": (KINDS, "cluster_files"),
}
FLAGS = {"--chief": KINDS}
DEFAULT_PORT = {"slurm": 8888, "kubernetes": 2222, "ssh": 12345}   # TF's, the operator's, the seed's
MAX_TASKS = 4096
_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


@dataclass
class EmitPlan:
    """What to write: the kind, the cluster's shape and the words of the commands."""
    kind: str
    script: str
    args: list = field(default_factory=list)
    nodes: int = 2
    tasks_per_node: int | None = None
    gpus_per_node: int = 0
    cpus_per_task: int | None = None
    mem: str | None = None
    time: str | None = None
    image: str | None = None
    namespace: str = "default"
    pvc: tuple | None = None
    hosts: list | None = None
    port: int | None = None
    name: str | None = None
    workdir: str | None = None
    python: str = "python3"
    out: str = "."
    chief: bool = False

    @property
    def workers(self):
        """Training tasks in all (the chief counted)."""
        return self.nodes * self.tasks_per_node


def parse(argv):
    """``["slurm", "--nodes", "2", ..., "train.py", "args"...]`` (what follows ``--emit``)."""
    if not argv or argv[0].startswith("-"):
        raise ValueError(t("emit.no_kind", kinds="|".join(KINDS)))
    kind = argv[0]
    if kind not in KINDS:
        raise ValueError(t("emit.unknown_kind", kind=kind, kinds="|".join(KINDS)))
    values, i = {}, 1
    while i < len(argv) and argv[i].startswith("-"):
        name, eq, value = argv[i].partition("=")
        if name in FLAGS and not eq:
            values[name] = True
            i += 1
            continue
        if name not in OPTIONS:
            raise ValueError(t("emit.unknown_option", option=argv[i], kind=kind, known=_known(kind)))
        if not eq:
            if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                raise ValueError(t("launch.missing_value", option=name, example=OPTIONS[name][1]))
            value, i = argv[i + 1], i + 2
        else:
            i += 1
        values[name] = value
    for name in values:
        kinds = FLAGS.get(name) or OPTIONS[name][0]
        if kind not in kinds:
            raise ValueError(t("emit.not_for_kind", option=name, kind=kind,
                               kinds=", ".join(f"--emit {k}" for k in kinds)))
    if i >= len(argv):
        raise ValueError(t("emit.no_script", kind=kind))
    plan = EmitPlan(kind, argv[i], list(argv[i + 1:]))
    _fill(plan, values)
    return plan


def _known(kind):
    names = [n for n, (kinds, _) in OPTIONS.items() if kind in kinds]
    return ", ".join(names + [n for n, kinds in FLAGS.items() if kind in kinds])


def _count(values, name, minimum, default):
    if name not in values:
        return default
    try:
        n = int(values[name])
    except ValueError:
        n = None
    if n is None or n < minimum:
        raise ValueError(t("launch.bad_count", option=name, minimum=minimum, value=values[name],
                           example=OPTIONS[name][1]))
    return n


def _fill(plan, v):
    if not os.path.isfile(plan.script):
        raise ValueError(t("launch.script_missing", path=plan.script))
    plan.chief = bool(v.get("--chief"))
    plan.gpus_per_node = _count(v, "--gpus-per-node", 0, 0)
    plan.cpus_per_task = _count(v, "--cpus-per-task", 1, None)
    plan.port = _count(v, "--port", 1, DEFAULT_PORT[plan.kind])
    if plan.kind == "ssh":
        if "--hosts" not in v:
            raise ValueError(t("emit.ssh_needs_hosts", example=OPTIONS["--hosts"][1]))
        plan.hosts = [h.strip() for h in v["--hosts"].split(",")]
        if any(not h or " " in h for h in plan.hosts):
            raise ValueError(t("emit.bad_hosts", value=v["--hosts"], example=OPTIONS["--hosts"][1]))
        plan.nodes, plan.tasks_per_node = len(plan.hosts), 1
    else:
        plan.nodes = _count(v, "--nodes", 1, 2)
        gpus = plan.gpus_per_node
        plan.tasks_per_node = _count(v, "--tasks-per-node", 1, gpus or 1)
        if gpus and (plan.tasks_per_node > gpus or gpus % plan.tasks_per_node):
            raise ValueError(t("emit.uneven_gpus", gpus=gpus, tasks=plan.tasks_per_node))
    if plan.port + plan.tasks_per_node - 1 > 65535:
        raise ValueError(t("emit.bad_port", port=plan.port, tasks=plan.tasks_per_node))
    if plan.workers > MAX_TASKS:
        raise ValueError(t("emit.too_many", n=plan.workers, most=MAX_TASKS))
    if plan.chief and plan.workers < 2:
        raise ValueError(t("emit.chief_alone"))
    plan.mem = _memory(v.get("--mem"))
    plan.time = _time(v.get("--time"))
    plan.name = v.get("--name") or _name_from(plan.script)
    if plan.kind == "kubernetes" and (not _DNS_LABEL.match(plan.name) or len(plan.name) > 40):
        raise ValueError(t("emit.bad_name", name=plan.name))
    plan.namespace = v.get("--namespace", "default")
    if not _DNS_LABEL.match(plan.namespace):
        raise ValueError(t("emit.bad_namespace", name=plan.namespace))
    default_image = "tensorflow/tensorflow:2.21.0" + ("-gpu" if plan.gpus_per_node else "")
    plan.image = v.get("--image", default_image)
    plan.pvc = _pvc(v.get("--pvc"))
    for name in ("--image", "--python", "--workdir", "--out"):
        if name in v and (not v[name].strip() or "\n" in v[name]):
            raise ValueError(t("emit.empty_value", option=name, example=OPTIONS[name][1]))
    plan.workdir = v.get("--workdir") or (plan.pvc[1] if plan.pvc else None)
    plan.python, plan.out = v.get("--python", "python3"), v.get("--out", ".")


def _name_from(script):
    stem = os.path.splitext(os.path.basename(script))[0].lower()
    return re.sub(r"[^a-z0-9-]+", "-", stem).strip("-")[:40] or "train"


def _memory(value):
    """'32G' / '512M' (Slurm's units); Kubernetes gets the same size as '32Gi'."""
    if value is None:
        return None
    if not re.fullmatch(r"[1-9][0-9]*[MGT]", value):
        raise ValueError(t("emit.bad_mem", value=value))
    return value


def _time(value):
    if value is None:
        return None
    if not re.fullmatch(r"([0-9]+-)?[0-9]{1,2}:[0-5][0-9]:[0-5][0-9]", value):
        raise ValueError(t("emit.bad_time", value=value))
    return value


def _pvc(value):
    if value is None:
        return None
    claim, colon, mount = value.partition(":")
    if not colon or not _DNS_LABEL.match(claim) or not mount.startswith("/"):
        raise ValueError(t("emit.bad_pvc", value=value))
    return claim, mount
