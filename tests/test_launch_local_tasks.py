"""The stand-in srun's exit status is real srun's: the highest of its tasks', a signal as 128 + n."""
import sys
import time

from sim.launch import local_tasks


class Ended:
    def __init__(self, code):
        self.code = code

    def poll(self):
        return self.code


def test_a_kill_is_not_hidden_by_a_peer_that_exits_1_because_of_it():
    # worker 0 exits 1 once its peer is gone; worker 1 was killed by SIGKILL: srun says 137
    assert local_tasks._wait([Ended(1), Ended(-9)], time.monotonic() + 5) == 137
    assert local_tasks._wait([Ended(-9), Ended(1)], time.monotonic() + 5) == 137


def test_the_highest_code_wins_and_success_is_zero():
    assert local_tasks._wait([Ended(2), Ended(0), Ended(3)], time.monotonic() + 5) == 3
    assert local_tasks._wait([Ended(0), Ended(0)], time.monotonic() + 5) == 0


def test_a_group_of_real_processes():
    py = sys.executable
    status, lines = local_tasks.run_group(
        [([py, "-c", "import time; time.sleep(0.3); print('peer lost'); raise SystemExit(1)"], None),
         ([py, "-c", "import os, signal; print('preempted', flush=True); os.kill(os.getpid(), signal.SIGKILL)"], None)],
        echo=False, timeout=30)
    assert status == 137
    assert (1, "preempted") in lines



def test_two_stand_ins_sharing_one_pipe_never_split_a_line(tmp_path):
    # Two ssh stand-ins echo their node's lines into the one pipe of start_on_nodes.sh, and
    # PYTHONUNBUFFERED=1 (set in CI) makes print() write a line and its newline apart.
    import os
    import shlex
    stand_in = tmp_path / "stand_in.py"
    stand_in.write_text(
        "import sys\nfrom sim.launch.local_tasks import run_group\n"
        "task = [sys.executable, '-c', f'for i in range(5000): print({sys.argv[1]!r} * 40)']\n"
        "run_group([(task, None)], label=False)\n")
    py, script = shlex.quote(sys.executable), shlex.quote(str(stand_in))
    shell = f"{py} {script} a & {py} {script} b & wait"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    status, lines = local_tasks.run_group([(["bash", "-c", shell], env)], echo=False, label=False,
                                          timeout=60)
    assert status == 0
    texts = [line for _, line in lines]
    assert sorted(set(texts)) == ["a" * 40, "b" * 40]
    assert len(texts) == 10000
