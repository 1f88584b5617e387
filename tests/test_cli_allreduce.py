"""python -m sim allreduce: nccl-tests-style table, --algorithm all, --json, --nodes."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sim.cli.allreduce import main, parse_size
from sim.collectives.compare import sizes_between
from sim.collectives.cost import busbw_factor


def test_parse_size():
    assert parse_size("8") == 8 and parse_size("64K") == 65536 and parse_size("1G") == 2**30
    assert parse_size("1M") == 2**20 and parse_size("2MB") == 2 * 2**20
    assert sizes_between(8, 64, 2) == [8, 16, 32, 64]


def test_table_has_nccl_tests_columns(capsys):
    assert main(["--machine", "dgx-a100", "--algorithm", "ring", "--minbytes", "8",
                 "--maxbytes", "1G", "--factor", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = out[1]
    for col in ("size", "count", "type", "redop", "time", "algbw", "busbw"):
        assert col in head
    rows = [l.split() for l in out if not l.startswith("#")]
    assert len(rows) == 28 and rows[0][0] == "8" and rows[-1][0] == str(2**30)
    size, t_us, algbw, busbw = int(rows[-1][0]), float(rows[-1][4]), float(rows[-1][5]), float(rows[-1][6])
    assert algbw == pytest.approx(size / (t_us * 1e-6) / 1e9, rel=0.01)
    assert busbw == pytest.approx(algbw * busbw_factor(8), rel=0.01)


def test_json_rows(capsys):
    assert main(["--algorithm", "all", "-b", "1K", "-e", "1M", "-f", "32", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {tuple(sorted(r)) for r in rows} == {("algbw_gbps", "algorithm", "busbw_gbps", "size_bytes", "time_us")}
    assert {r["algorithm"] for r in rows} >= {"ring", "reduce_to_one", "nccl", "double_binary_tree"}
    for r in rows:
        assert r["algbw_gbps"] == pytest.approx(r["size_bytes"] / r["time_us"] / 1e3, rel=1e-6)


def test_all_side_by_side_and_nodes(capsys):
    assert main(["--machine", "dgx-a100-cluster", "--nodes", "2", "--algorithm", "all",
                 "-b", "1M", "-e", "1M"]) == 0
    out = capsys.readouterr().out
    assert "16 " in out.splitlines()[0] and "fastest" in out and "hier" in out


def test_unknown_algorithm_lists_known(capsys):
    assert main(["--algorithm", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "bogus" in err and "ring" in err and "halving_doubling" in err


def test_module_entry_point():
    res = subprocess.run([sys.executable, "-m", "sim", "allreduce", "--algorithm", "ring",
                          "-b", "1M", "-e", "1M", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(res.stdout)[0]["algorithm"] == "ring"
