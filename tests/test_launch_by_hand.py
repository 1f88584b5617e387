"""Tasks started by hand, as TensorFlow's multi-worker Keras tutorial starts them (TF_CONFIG, then
one background ``python main.py`` per worker): they meet at the addresses their TF_CONFIG names
(worker 0 hosts the fabric), train with the numbers a launch gives on the same simulated clock,
refuse any address off this machine, and join only with the secret they share."""
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sim.launch.tf_configs import loopback as free_loopback
from sim.fabric import by_hand, cluster_secret
from sim.launch import launch
from sim.launch.launcher import one_blas_thread_each

TUTORIAL = Path(__file__).with_name("launch_scripts") / "keras_tutorial"
SHORT = {"EPOCHS": "1", "STEPS": "2"}
ROOT = Path(__file__).resolve().parents[1]


def _tutorial_lines(text):
    return sorted(ln.split("] ", 1)[-1] for ln in text.splitlines() if "TUTORIAL " in ln)


def test_the_keras_tutorials_own_start_trains_with_the_numbers_a_launch_gives(tmp_path):
    launched = launch(TUTORIAL / "main.py", workers=2, echo=False, env=SHORT, timeout=300)
    assert launched.returncode == 0, launched.output
    ports = [t.address.rsplit(":", 1)[1] for t in free_loopback(2)]
    workers = json.dumps([f"localhost:{p}" for p in ports])
    # The tutorial's cells: TF_CONFIG for worker 0, `python main.py &> job_0.log &`, then worker 1.
    start = f"""
cd {TUTORIAL}
export TF_CONFIG='{{"cluster": {{"worker": {workers}}}, "task": {{"type": "worker", "index": 0}}}}'
python main.py &> {tmp_path}/job_0.log &
export TF_CONFIG='{{"cluster": {{"worker": {workers}}}, "task": {{"type": "worker", "index": 1}}}}'
python main.py &> {tmp_path}/job_1.log
wait
"""
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, **SHORT, HOME=str(home),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    for var in ("SIM_LAUNCH_FABRIC", "SIM_LAUNCH_SECRET", "SIM_CLUSTER_SECRET", "SIM_CLUSTER_SECRET_FILE"):
        env.pop(var, None)
    # The launcher gives each task one BLAS thread (launcher.one_blas_thread_each); by hand the two
    # workers get the same, as OpenBLAS's matmul (0.3.31, Haswell kernels) rounds differently with
    # 2 threads than with 1: the losses agree, the last bits of the weights would not.
    one_blas_thread_each(env)
    subprocess.run(["bash", "-c", start], env=env, timeout=300, check=True)
    logs = "".join((tmp_path / f"job_{k}.log").read_text() for k in (0, 1))
    assert _tutorial_lines(logs) == _tutorial_lines(launched.output), logs[-3000:]
    assert len(_tutorial_lines(logs)) == 2
    secret = home / ".config" / "sim" / "cluster-secret"       # made once, for the user only
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert stat.S_IMODE(secret.parent.stat().st_mode) == 0o700


@pytest.mark.parametrize("address, expected", [("localhost:12345", ("127.0.0.1", 12345)),
                                               ("127.0.0.2:2222", ("127.0.0.2", 2222)),
                                               ("[::1]:2222", ("127.0.0.1", 2222))])   # issue 36 F12
def test_loopback_addresses_are_accepted(address, expected):
    assert by_hand.loopback("worker:0", address) == expected


@pytest.mark.parametrize("address, words", [
    ("10.0.0.5:2222", "not on this machine"), ("host1.example.com:2222", "not on this machine"),
    ("[2001:db8::1]:2222", "not on this machine"), ("0.0.0.0:2222", "not on this machine"),
    ("localhost:70000", "no valid port"), ("localhost:0", "no valid port"),
    ("localhost", "no valid port"), ("localhost:abc", "no valid port"), ("", "no valid port")])
def test_any_other_address_is_refused_naming_the_task_and_the_fix(address, words):
    with pytest.raises(ValueError) as e:
        by_hand.loopback("worker:1", address)
    assert str(e.value).startswith(f"TF_CONFIG names worker 1 at {address}, which ")
    assert words in str(e.value) and '"localhost:12345"' in str(e.value)


def test_a_secret_file_others_can_read_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "secret"
    path.write_text("not so secret, from a file\n")
    path.chmod(0o644)
    monkeypatch.delenv(cluster_secret.ENV_SECRET, raising=False)
    monkeypatch.setenv(cluster_secret.ENV_SECRET_FILE, str(path))
    with pytest.raises(ValueError, match=f"can be read by others .*chmod 600 {path}"):
        cluster_secret.read()
    path.chmod(0o600)
    from_file = cluster_secret.read()
    monkeypatch.setenv(cluster_secret.ENV_SECRET, "not so secret, from a file")     # the variable comes first
    assert len(from_file) == 32 and cluster_secret.read() == from_file


def test_tasks_with_different_secrets_do_not_join(tmp_path):
    """Worker 0 hosts with one secret; worker 1 holds another: it is refused, with the fix."""
    ports = [t.address.rsplit(":", 1)[1] for t in free_loopback(2)]
    cluster = {"worker": [f"localhost:{p}" for p in ports]}
    procs = []
    script = TUTORIAL.parent / "tiny_by_hand.py"
    for k, secret in ((0, "one secret of 16+ chars"), (1, "two secret of 16+ chars")):
        task = {"type": "worker", "index": k}
        env = dict(os.environ, TF_CONFIG=json.dumps({"cluster": cluster, "task": task}),
                   SIM_CLUSTER_SECRET=secret, SIM_LAUNCH_CONNECT_TIMEOUT="5",
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        env.pop("SIM_LAUNCH_FABRIC", None)
        procs.append(subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
    out1 = procs[1].communicate(timeout=120)[0]
    procs[0].kill()
    procs[0].communicate(timeout=30)
    assert procs[1].returncode == 1
    assert "worker 1 reached 127.0.0.1:%s but could not join the cluster there" % ports[0] in out1
    assert "share one secret" in out1


def test_a_chief_hosts_the_cluster_it_names_first(tmp_path):
    """With a chief in TF_CONFIG the chief hosts the fabric; every task sees the same sums."""
    ports = [t.address.rsplit(":", 1)[1] for t in free_loopback(2)]
    cluster = {"chief": [f"127.0.0.1:{ports[0]}"], "worker": [f"localhost:{ports[1]}"]}
    procs = []
    for kind in ("worker", "chief"):           # the worker first: it waits for its host
        task = {"type": kind, "index": 0}
        env = dict(os.environ, TF_CONFIG=json.dumps({"cluster": cluster, "task": task}),
                   SIM_CLUSTER_SECRET="ours, long enough to keep", HOME=str(tmp_path),
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        env.pop("SIM_LAUNCH_FABRIC", None)
        procs.append(subprocess.Popen([sys.executable, str(TUTORIAL.parent / "tiny_by_hand.py")],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True))
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert outs[0] == outs[1] == "16.0\n16.0\n"          # 2 workers x 4 GPUs x ones(2) summed
    assert not (tmp_path / ".config").exists()          # the variable's secret: no file made


def test_a_launched_task_that_cannot_reach_its_launcher_says_so(monkeypatch):
    """The launcher's address in the environment, but nothing listens there any more."""
    import sim.fabric.client as fabric_client
    from sim.engine.errors import UnavailableError
    address = free_loopback(1)[0].address.replace("localhost", "127.0.0.1")
    monkeypatch.setenv(fabric_client.ENV_ADDRESS, address)
    monkeypatch.setenv(fabric_client.ENV_SECRET, "00" * 32)
    monkeypatch.setenv("SIM_LAUNCH_CONNECT_TIMEOUT", "0.3")
    monkeypatch.setattr(fabric_client, "_client", None)
    with pytest.raises(UnavailableError, match=f"^worker 1 could not reach the launcher's fabric at "
                                               f"{address} within 0.3 s"):
        by_hand.join_launch("worker", 1)
