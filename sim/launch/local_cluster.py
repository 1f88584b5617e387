"""Local stand-ins for a cluster's tools, so the files ``--emit`` writes run on this machine.

- ``sbatch(path)``: runs an sbatch script as Slurm would on an allocation of ONE node,
  ``localhost``, holding all of the script's tasks (``--nodes`` x ``--ntasks-per-node``; on one
  machine, two nodes would bind the same ports). It sets the job's SLURM_* variables and puts a
  stand-in ``srun`` first on PATH, which starts the step's tasks with the variables a real step
  gives each (SLURM_PROCID, SLURM_LOCALID, SLURM_STEP_NODELIST, SLURM_STEP_TASKS_PER_NODE...),
  and on GPU nodes CUDA_VISIBLE_DEVICES listing the node's GPUs.
- ``ssh_script(path)``: runs start_on_nodes.sh with a stand-in ``ssh`` that runs each node's
  command here (loopback hosts only).
- ``tf_configs(configs, command)``: one local process per TF_CONFIG (a TFJob's pods).

``engine="sim"`` gives the tasks' ``import tensorflow`` the simulator (a ``tensorflow`` module
that is ``sim.tf``, on PYTHONPATH); ``engine="tensorflow"`` leaves TensorFlow itself, under
``python``. ``python3``/``python`` on PATH are ``python``. Everything made lives in a temporary
folder removed at the end; the tasks are stopped at the end (local_tasks).
"""
from __future__ import annotations

import os
import re
import secrets
import shlex
import sys
import tempfile

from sim.launch import local_tasks
from sim.launch.free_ports import consecutive_free_ports, free_ports

_SHIM = "import sys\nimport sim.tf\n\nsys.modules[__name__] = sim.tf   # the simulator is tensorflow here\n"
_TOOL = "#!{python}\nimport sys\nfrom sim.launch.local_cluster import {main}\nsys.exit({main}(sys.argv[1:]))\n"


def directives(text):
    """{"nodes": "2", "ntasks-per-node": "4", ...} from the script's #SBATCH lines."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"#SBATCH\s+--([a-z-]+)(?:=(\S+))?", line)
        if match:
            found[match.group(1)] = match.group(2) or ""
    return found


class _Tools:
    """The temporary folder with the stand-in tools, python3 and (engine "sim") the shim."""

    def __init__(self, python, engine):
        self.dir = tempfile.TemporaryDirectory(prefix="sim-local-cluster-")
        root = self.dir.name
        self.bin = os.path.join(root, "bin")
        os.makedirs(self.bin)
        for name, main in (("srun", "srun_main"), ("ssh", "ssh_main")):
            path = os.path.join(self.bin, name)
            with open(path, "w") as f:
                f.write(_TOOL.format(python=sys.executable, main=main))
            os.chmod(path, 0o755)
        for name in ("python3", "python"):      # a wrapper, not a link: the venv stays the venv
            path = os.path.join(self.bin, name)
            with open(path, "w") as f:
                f.write(f'#!/bin/sh\nexec {shlex.quote(os.path.abspath(python))} "$@"\n')
            os.chmod(path, 0o755)
        self.secret = secrets.token_hex(16)     # these tasks' fabric only (engine "sim")
        self.shim = None
        if engine == "sim":
            self.shim = os.path.join(root, "shim")
            os.makedirs(os.path.join(self.shim, "tensorflow"))
            with open(os.path.join(self.shim, "tensorflow", "__init__.py"), "w") as f:
                f.write(_SHIM)

    def env(self, extra=None):
        env = dict(os.environ, **(extra or {}))
        env["PATH"] = self.bin + os.pathsep + env.get("PATH", "")
        if self.shim:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (self.shim, env.get("PYTHONPATH")) if p)
        env.setdefault("SIM_CLUSTER_SECRET", self.secret)
        for var in ("SIM_LAUNCH_FABRIC", "SIM_LAUNCH_SECRET", "TF_CONFIG"):
            env.pop(var, None)
        return env

    def close(self):
        self.dir.cleanup()


def sbatch(path, python=sys.executable, engine="sim", timeout=600, echo=True, env=None):
    """Run the sbatch script at ``path`` here; returns (exit status, [(task, line)])."""
    text = open(path).read()
    found = directives(text)
    ntasks = int(found.get("nodes", 1)) * int(found.get("ntasks-per-node", 1))
    tools = _Tools(python, engine)
    try:
        env = tools.env(env)
        env.update(SLURM_JOB_ID="1", SLURM_JOB_NAME=found.get("job-name", "job"),
                   SLURM_JOB_NODELIST="localhost", SLURM_NODELIST="localhost",
                   SLURM_JOB_NUM_NODES="1", SLURM_NNODES="1", SLURM_NTASKS=str(ntasks),
                   SLURM_NPROCS=str(ntasks), SLURM_NTASKS_PER_NODE=str(ntasks),
                   SLURM_TASKS_PER_NODE=str(ntasks), SLURM_SUBMIT_DIR=os.path.dirname(os.path.abspath(path)),
                   PORT_BASE=str(consecutive_free_ports(ntasks)), SIM_LOCAL_TIMEOUT=str(timeout))
        gpus = int(found.get("gpus-per-node", 0)) * int(found.get("nodes", 1))
        if gpus:
            env["CUDA_VISIBLE_DEVICES"] = ",".join(str(g) for g in range(gpus))
        cwd = found.get("chdir") or env["SLURM_SUBMIT_DIR"]
        return local_tasks.run_group([(["bash", os.path.abspath(path)], env)], cwd=cwd,
                                     timeout=timeout, echo=echo, label=False)
    finally:
        tools.close()


def srun_main(argv):
    """The stand-in srun: the job's tasks, all on this one node, with their step variables."""
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        i += 1
    command = argv[i:]
    ntasks = int(os.environ["SLURM_NTASKS"])
    tasks = []
    for rank in range(ntasks):
        env = dict(os.environ, SLURM_PROCID=str(rank), SLURM_LOCALID=str(rank), SLURM_NODEID="0",
                   SLURM_STEP_ID="0", SLURM_STEP_NUM_TASKS=str(ntasks), SLURM_STEP_NUM_NODES="1",
                   SLURM_STEP_NODELIST="localhost", SLURM_STEP_TASKS_PER_NODE=str(ntasks),
                   SLURMD_NODENAME="localhost")
        tasks.append((command, env))
    status, _ = local_tasks.run_group(tasks, timeout=float(os.environ.get("SIM_LOCAL_TIMEOUT", 600)))
    return status


def ssh_main(argv):
    """The stand-in ssh: ``ssh [-n] HOST COMMAND`` runs COMMAND here, for loopback hosts."""
    words = [w for w in argv if w != "-n"]
    host, command = words[0], " ".join(words[1:])
    if host != "localhost" and not host.startswith("127."):
        print(f"ssh stand-in: {host} is not this machine; use localhost or 127.0.0.x", file=sys.stderr)
        return 255
    # Each line whole, as one write: the nodes' outputs share the caller's terminal.
    status, _ = local_tasks.run_group([(["bash", "-c", command], dict(os.environ))], label=False,
                                      timeout=float(os.environ.get("SIM_LOCAL_TIMEOUT", 600)))
    return status


def ssh_script(path, python=sys.executable, engine="sim", timeout=600, echo=True, env=None):
    """Run start_on_nodes.sh here; returns (exit status, [(task, line)])."""
    tools = _Tools(python, engine)
    try:
        env = dict(tools.env(env), SIM_LOCAL_TIMEOUT=str(timeout))
        return local_tasks.run_group([(["bash", os.path.abspath(path)], env)],
                                     cwd=os.path.dirname(os.path.abspath(path)), timeout=timeout,
                                     echo=echo, label=False)
    finally:
        tools.close()


def tf_configs(configs, command, cwd, python=sys.executable, engine="sim", timeout=600, echo=True,
               env=None):
    """Run ``command`` (argv, its first word "python3" or "python") once per TF_CONFIG text."""
    tools = _Tools(python, engine)
    try:
        tasks = [(list(command), dict(tools.env(env), TF_CONFIG=config)) for config in configs]
        for argv, env in tasks:
            argv[0] = os.path.join(tools.bin, os.path.basename(argv[0]))
        return local_tasks.run_group(tasks, cwd=cwd, timeout=timeout, echo=echo)
    finally:
        tools.close()


def task_lines(lines):
    """{task number: [its lines]} from a run's lines labelled ``k: `` (srun's tasks)."""
    out = {}
    for _, line in lines:
        label, sep, text = line.partition(": ")
        if sep and label.isdigit():
            out.setdefault(int(label), []).append(text)
    return out


def loopback_configs(configs):
    """TF_CONFIG texts whose addresses (a TFJob's service names) become free loopback ports,
    all else kept: the same jobs, order, indices and fields."""
    import json
    loaded = [json.loads(c) for c in configs]
    names = [a for job in sorted(loaded[0]["cluster"]) for a in loaded[0]["cluster"][job]]
    local = dict(zip(names, (f"127.0.0.1:{p}" for p in free_ports(len(names)))))
    out = []
    for config in loaded:
        config["cluster"] = {job: [local[a] for a in addresses]
                             for job, addresses in config["cluster"].items()}
        out.append(json.dumps(config, separators=(",", ":")))
    return out

