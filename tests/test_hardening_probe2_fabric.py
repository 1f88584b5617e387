"""Issue 36 (reliability probe 2): the fabric and the launcher under a careless or hostile
classmate. F4 weak secrets refused, wrong answers slowed and the refused peer named; F10 helpers
detached by a script cost no fixed wait per task, a second Ctrl-C ends at once; F11 a host names
the task that never joined; F12 a duplicate index and a foreign secret file are told the truth;
F13 SIM_LAUNCH_NOTICE_SECONDS=abc is one line."""
import hashlib
import hmac
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sim.fabric import cluster_secret
from sim.fabric.server import Fabric
from sim.launch.tf_configs import loopback as free_loopback

ROOT = Path(__file__).resolve().parents[1]


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               **extra)
    for k in ("SIM_LAUNCH_FABRIC", "SIM_CLUSTER_SECRET", "SIM_CLUSTER_SECRET_FILE"):
        if k not in extra:
            env.pop(k, None)
    return env


# ------------------------------------------------------------------ F4

@pytest.mark.parametrize("weak", ["7391", "class", "fifteen chars!!"])
def test_f4_a_weak_secret_is_refused_with_the_fix(monkeypatch, weak):
    monkeypatch.setenv(cluster_secret.ENV_SECRET, weak)
    with pytest.raises(ValueError, match=f"has {len(weak)} characters, fewer than the 16") as e:
        cluster_secret.read()
    assert "secrets.token_hex(16)" in str(e.value)


def test_f4_a_short_secret_file_is_refused_too(tmp_path, monkeypatch):
    path = tmp_path / "secret"
    path.write_text("1234\n")
    path.chmod(0o600)
    monkeypatch.delenv(cluster_secret.ENV_SECRET, raising=False)
    monkeypatch.setenv(cluster_secret.ENV_SECRET_FILE, str(path))
    with pytest.raises(ValueError, match="fewer than the 16"):
        cluster_secret.read()


def test_f4_the_default_is_a_generated_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(cluster_secret.ENV_SECRET, raising=False)
    monkeypatch.delenv(cluster_secret.ENV_SECRET_FILE, raising=False)
    assert len(cluster_secret.read()) == 32
    made = tmp_path / ".config" / "sim" / "cluster-secret"
    assert len(made.read_text().strip()) == 64 and (made.stat().st_mode & 0o777) == 0o600


def _guess(port, secret_text):
    key = hashlib.sha256(b"sim cluster secret\0" + secret_text.encode()).digest()
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)

    def recv():
        n = struct.unpack("!i", s.recv(4, socket.MSG_WAITALL))[0]
        return s.recv(n, socket.MSG_WAITALL)
    try:
        challenge = recv()[len(b"#CHALLENGE#"):]
        digest = hmac.new(key, challenge, "md5").digest()
        s.sendall(struct.pack("!i", len(digest)) + digest)
        return recv()
    except OSError:
        return b"cut"
    finally:
        s.close()


def test_f4_wrong_answers_are_slowed_and_the_refused_peer_is_named():
    said = []
    secret = cluster_secret._key(b"a secret of thirty-two characters")
    fabric = Fabric(["worker:0", "worker:1"], secret, say=said.append)
    try:
        port = fabric.address[1]
        answers = []
        start = time.monotonic()
        threads = [threading.Thread(target=lambda i=i: answers.append(_guess(port, f"{i:04d}")))
                   for i in range(8)]                          # 8 guessers at once
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
        took = time.monotonic() - start
        assert answers == [b"#FAILURE#"] * 8
        assert took >= 3.0, took                   # one wrong answer per 0.5 s, in all
        assert len(said) == 1 and "refused a connection from 127.0.0.1:" in said[0]
        assert f"pid {os.getpid()}" in said[0], said  # the guesser's process, named
        good = time.monotonic()
        assert _guess(port, "a secret of thirty-two characters") == b"#WELCOME#"
        assert time.monotonic() - good < 1.0       # a right answer is never delayed
    finally:
        fabric.close()


# ------------------------------------------------------------------ F10

_HELPER = 'import subprocess\nsubprocess.Popen(["setsid", "sleep", "120"])\nprint("started a helper")\n'


def _helpers_left(mark):
    out = subprocess.run(["pgrep", "-f", f"sleep {mark}"], capture_output=True, text=True).stdout
    return out.split()


def test_f10_detached_helpers_cost_no_fixed_wait_per_task(tmp_path):
    script = tmp_path / "helper.py"
    script.write_text(_HELPER.replace("120", "121"))
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "sim", "launch", "--workers", "8", str(script)],
                         capture_output=True, text=True, timeout=120, env=_env(), cwd=tmp_path)
    took = time.monotonic() - start
    assert run.returncode == 0, run.stdout + run.stderr
    assert "launch finished: 8 tasks" in run.stdout
    assert took < 12, took                         # it was 16.5 s: 2 s per task
    assert _helpers_left(121) == []


def test_f10_a_second_ctrl_c_ends_at_once(tmp_path):
    script = tmp_path / "slow.py"
    script.write_text("import signal, subprocess, time\nsubprocess.Popen(['setsid', 'sleep', '122'])\n"
                      "signal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('up', flush=True)\n"
                      "time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-m", "sim", "launch", "--workers", "4", str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env(),
                            cwd=tmp_path, start_new_session=True)
    try:
        seen = 0
        while seen < 4:
            line = proc.stdout.readline()
            assert line, "the launch ended early"
            seen += "] up" in line
        proc.send_signal(signal.SIGINT)
        time.sleep(0.2)                            # the clean-up waits for SIGTERM-proof tasks
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        assert time.monotonic() - start < 1.5
        assert proc.returncode == 130
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    time.sleep(0.5)
    assert _helpers_left(122) == []


# ------------------------------------------------------------------ F11 / F12

_MAIN = "import sim.tf as tf\ns = tf.distribute.MultiWorkerMirroredStrategy()\n" \
        "with s.scope():\n    v = tf.Variable(1.0)\nimport time; time.sleep({sleep})\nprint('ok', flush=True)\n"
SECRET = "a secret shared by the tasks"


def _config(ports, index):
    return json.dumps({"cluster": {"worker": [f"localhost:{p}" for p in ports]},
                       "task": {"type": "worker", "index": index}})


def test_f11_a_host_names_the_task_that_never_joined(tmp_path):
    (tmp_path / "main.py").write_text(_MAIN.format(sleep=0))
    ports = [t.address.rsplit(":", 1)[1] for t in free_loopback(2)]
    proc = subprocess.Popen([sys.executable, "main.py"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=_env(SIM_CLUSTER_SECRET=SECRET, SIM_LAUNCH_NOTICE_SECONDS="1",
                                     TF_CONFIG=_config(ports, 0), HOME=str(tmp_path)))
    try:
        out, _ = proc.communicate(timeout=6)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    assert "Waiting for 1/2 tasks to connect.\nExample stragglers:\n/job:worker/replica:0/task:1" in out
    assert "worker 0 has waited 1 s for worker 1" in out


def test_f12_a_duplicate_index_is_told_the_truth_and_the_cluster_goes_on(tmp_path):
    (tmp_path / "main.py").write_text(_MAIN.format(sleep=3))
    ports = [t.address.rsplit(":", 1)[1] for t in free_loopback(2)]
    env = lambda i: _env(SIM_CLUSTER_SECRET=SECRET, TF_CONFIG=_config(ports, i), HOME=str(tmp_path))
    real = [subprocess.Popen([sys.executable, "main.py"], cwd=tmp_path, env=env(i), text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for i in (0, 1)]
    time.sleep(2.0)
    copy = subprocess.run([sys.executable, "main.py"], cwd=tmp_path, env=env(1), text=True,
                          capture_output=True, timeout=60)
    outs = [p.communicate(timeout=60)[0] for p in real]
    assert outs == ["ok\n", "ok\n"], outs
    assert "AlreadyExistsError" in copy.stderr
    assert "another process already joined the cluster as worker 1" in copy.stderr
    assert "Training stops on every worker" not in copy.stderr


def test_f12_a_secret_file_of_another_user_names_chown(tmp_path, monkeypatch):
    path = tmp_path / "secret"
    path.write_text("x" * 40)
    path.chmod(0o600)
    real = os.fstat

    def other_owner(fd):
        info = real(fd)
        return os.stat_result((info.st_mode, info.st_ino, info.st_dev, info.st_nlink,
                               info.st_uid + 1, info.st_gid, info.st_size, 0, 0, 0))
    monkeypatch.setattr(os, "fstat", other_owner)
    monkeypatch.delenv(cluster_secret.ENV_SECRET, raising=False)
    monkeypatch.setenv(cluster_secret.ENV_SECRET_FILE, str(path))
    with pytest.raises(ValueError, match="belongs to another user") as e:
        cluster_secret.read()
    assert "chown" in str(e.value) and "chmod 600" not in str(e.value).split("chown")[1]


# ------------------------------------------------------------------ F13

def test_f13_a_notice_that_is_not_a_number_is_one_line(tmp_path):
    (tmp_path / "main.py").write_text("print('ok')\n")
    run = subprocess.run([sys.executable, "-m", "sim", "launch", "--workers", "2", "main.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env=_env(SIM_LAUNCH_NOTICE_SECONDS="abc"))
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "SIM_LAUNCH_NOTICE_SECONDS='abc'" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout


def test_f4_a_closed_connection_with_the_same_port_does_not_hide_the_peer():
    from sim.fabric.refusals import socket_row
    # sl local rem st tx:rx tr:when retrnsmt uid timeout inode: a TIME_WAIT row first (inode 0)
    time_wait = "0: 0100007F:A0E2 0100007F:1F90 06 00:00 03:01 0 0 0 0".split()
    other_door = "1: 0100007F:A0E2 0100007F:1F91 01 00:00 00:00 0 1000 0 777".split()
    guesser = "2: 0100007F:A0E2 0100007F:1F90 01 00:00 00:00 0 1001 0 4242".split()
    assert socket_row([time_wait, other_door, guesser], 0xA0E2, 0x1F90) == ("4242", "1001")
    assert socket_row([time_wait], 0xA0E2, 0x1F90) is None
