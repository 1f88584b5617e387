"""Issue 36 (reliability probe 2): F6 ``sim plan`` and ``launch --gpus-per-worker`` take sizes
within limits shown in --help, refused in one line (exit 2) before any work; F13 ``scale`` refuses
the Horovod-only flags under another strategy and an empty --trace, as it refuses --ps/--async."""
import subprocess
import sys

import pytest

from sim.cli import limits, plan, scale


def _refused(main, argv, capsys, *words):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and all(w in err for w in words), err


@pytest.mark.parametrize("argv, words", [
    (["--nodes", "99999999999999999999"], ("--nodes", "1 to 1024")),
    (["--nodes", "100000"], ("--nodes",)),
    (["--ps", "99999999"], ("--ps", "1 to 1024")),
    (["--batch-per-device", "99999999999999999999"], ("--batch-per-device", "65536")),
    (["--gpus", "1000"], ("--gpus", "1 to 16")),
    (["--s-min", "0", "--b-crit", "1000"], ("--s-min",)),
    (["--s-min", "1e308", "--b-crit", "1e308"], ("--s-min",)),
    (["--s-min", "3000", "--b-crit", "0"], ("--b-crit",)),
    (["--nodes", ",".join(str(n) for n in range(1, 66))], ("--nodes (count)",)),
    (["--machines", "dgx1-p100,pascal-pcie-4gpu,big-basin,workstation-4gpu,dgx1-v100,dgx-a100,dgx-h100",
      "--networks", "10gbe,25gbe,25gbe-roce,50gbe,100gbe,edr-ib,hdr-ib,ndr-ib",
      "--strategies", "mirrored-nccl,mirrored-ring,mirrored-hierarchical,central-storage,ps-sync,ps-async"],
     ("candidates",)),
    (["--nodes", "512,1000", "--strategies", "ps-async"], ("3024 nodes",)),
])
def test_f6_plan_refuses_absurd_sizes_in_one_line(argv, words, capsys):
    def main(a):
        try:
            return plan.main(a)
        except SystemExit as e:          # argparse's own errors exit 2 too
            return e.code
    _refused(main, argv, capsys, *words)


def test_f6_plan_help_lists_the_limits():
    text = plan.parser().format_help()
    assert "limits:" in text and str(limits.PLAN_MAX_CANDIDATES) in text


def test_f6_plan_within_the_limits_still_plans(capsys):
    assert plan.main(["--nodes", "1,2", "--strategies", "mirrored-nccl", "--top", "2"]) == 0
    assert "mirrored" in capsys.readouterr().out.lower()


def test_f6_launch_refuses_a_huge_gpu_count(tmp_path):
    script = tmp_path / "main.py"
    script.write_text("print('ok')\n")
    run = subprocess.run([sys.executable, "-m", "sim", "launch", "--workers", "2",
                          "--gpus-per-worker", "99999999999999999999", str(script)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--gpus-per-worker" in run.stderr and "0 to 16" in run.stderr
    helped = subprocess.run([sys.executable, "-m", "sim", "launch", "--help"], capture_output=True,
                            text=True, timeout=60)
    assert "--gpus-per-worker 0 to 16" in helped.stdout


@pytest.mark.parametrize("argv, words", [
    (["--cycle-ms", "1e12"], ("--cycle-ms", "--strategy horovod")),
    (["--negotiation", "gather"], ("--negotiation", "--strategy horovod")),
    (["--trace", ""], ("--trace needs a file name",)),
])
def test_f13_scale_refuses_flags_it_would_ignore(argv, words, capsys):
    def main(a):
        try:
            return scale.main(a)
        except SystemExit as e:
            return e.code
    _refused(main, argv, capsys, *words)
