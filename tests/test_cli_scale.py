"""python -m sim scale: the same rows as sim.scaleout.scale, JSON keys, plot/trace files, and one
clear line with exit status 2 for every bad argument."""
import json
import subprocess
import sys

import pytest

from sim.cli.scale import main
from sim.scaleout import scale


def test_json_rows_are_the_python_function(capsys):
    assert main(["--model", "resnet50", "--machine", "big-basin", "--nodes", "1,2",
                 "--network", "25gbe", "--bucket-mb", "16", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [set(r) for r in rows] == [{"nodes", "devices", "step_time_ms", "samples_per_s", "efficiency",
                                       "when", "mechanisms", "precision"}] * 2
    assert rows[1]["when"] == "per-pack" and "25gbe TCP" in rows[1]["mechanisms"]
    same = scale("resnet50", "big-basin", nodes=[1, 2], network="25gbe", bucket_mb=16)
    for got, want in zip(rows, same):
        for key in got:
            if key != "mechanisms":
                assert got[key] == pytest.approx(want[key]) if key != "when" else got[key] == want[key]
    assert [r["devices"] for r in rows] == [8, 16]
    assert rows[1]["efficiency"] < rows[0]["efficiency"] <= 1.0


def test_gpus_sweeps_devices_on_one_node(capsys):
    assert main(["--machine", "pascal-pcie-4gpu", "--nodes", "1", "--gpus", "1,2,4", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["devices"] for r in rows] == [1, 2, 4]
    assert rows[0]["efficiency"] == 1.0


@pytest.mark.parametrize("words", [["1,2,4"], ["1", "2", "4"], ["1,", "2,", "4"], ["1", "2,4"]])
def test_a_list_flag_takes_commas_or_spaces(words, capsys):
    assert main(["--machine", "pascal-pcie-4gpu", "--nodes", *words, "--gpus", "4", "--json"]) == 0
    assert [r["nodes"] for r in json.loads(capsys.readouterr().out)] == [1, 2, 4]


def test_table_plot_and_trace(tmp_path, capsys):
    png, trace = tmp_path / "curve.png", tmp_path / "step.json"
    assert main(["--model", "vgg16", "--nodes", "1,2", "--strategy", "parameter-server", "--ps", "2",
                 "--plot", str(png), "--trace", str(trace)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# vgg16") and len(out) == 4
    assert png.stat().st_size > 1000
    events = json.loads(trace.read_text())["traceEvents"]
    assert any("bucket" in e.get("name", "") for e in events)


@pytest.mark.parametrize("argv,needle", [
    (["--nodes", "1,x"], "--nodes"), (["--nodes", "0"], "--nodes"), (["--gpus", "9"], "--gpus"),
    (["--model", "resnet"], "resnet50"), (["--machine", "cpu-cluster"], "dgx1-p100"),
    (["--network", "5gbe"], "10gbe"), (["--ps", "0"], "--ps"), (["--strategy", "mpi"], "ring"),
    (["--bucket-mb", "-1"], "--bucket-mb"), (["--batch-per-device", "0"], "--batch-per-device"),
    (["--bucket-mb", "nan"], "--bucket-mb"),
    (["--single-stream-gbps", "20"], "--network 25gbe"),           # the default network is RDMA
    (["--network", "25gbe", "--single-stream-gbps", "0"], "--single-stream-gbps"),
    (["--network", "25gbe", "--single-stream-gbps", "20", "--socket-threads", "17"], "--socket-threads"),
    (["--socket-threads", "2"], "--single-stream-gbps")])
def test_bad_arguments_one_line_exit_2(argv, needle):
    run = subprocess.run([sys.executable, "-m", "sim", "scale", *argv], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m sim scale: error:")
    assert needle in lines[0] and "Traceback" not in run.stderr and not run.stdout


def test_errors_speak_the_course_language(capsys):
    from sim import i18n
    old = i18n.get_language()
    try:
        i18n.set_language("pt")
        assert main(["--ps", "0"]) == 2
        assert "pelo menos 1" in capsys.readouterr().err
    finally:
        i18n.set_language(old)


def test_table_numbers_follow_the_course_language(capsys):
    from sim import i18n
    from sim.cli.scale import render_table
    rows = [{"nodes": 2, "devices": 16, "step_time_ms": 1234.56, "samples_per_s": 829.5,
             "efficiency": 0.9275}]
    before = i18n.get_language()
    try:
        i18n.set_language("pt")
        assert render_table(rows).splitlines()[1].split() == ["2", "16", "1.234,6", "829,5", "92,8%"]
        i18n.set_language("en")
        assert render_table(rows).splitlines()[1].split() == ["2", "16", "1,234.6", "829.5", "92.8%"]
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_table_columns_line_up_in_every_language(lang):
    """Every header name ends where its column's numbers end, counting a CJK character as two
    terminal columns (the zh header used to drift right of its numbers)."""
    import re
    import unicodedata

    import sim
    from sim.cli.scale import render_table
    from sim.i18n import t
    sim.setup(lang)
    try:
        rows = scale("resnet50", "big-basin", nodes=[1, 2], network="25gbe")
        lines = render_table(rows).splitlines()
        names = t("scale.cli_column_names").split("|")
    finally:
        sim.setup("en")

    def width(text):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    def row_ends(line):                 # display column where each run of non-spaces ends
        return [width(line[:m.end()]) for m in re.finditer(r"\S+", line)]

    header = lines[0]
    name_ends, start = [], 0
    for name in names:
        start = header.index(name, start) + len(name)
        name_ends.append(width(header[:start]))
    assert all(row_ends(line)[:len(names)] == name_ends for line in lines[1:]), (lines, name_ends)
    assert all(line.split("  ")[-1] for line in lines[1:])     # then the mechanisms, in words


def test_trace_and_table_name_the_mechanisms(tmp_path, capsys):
    path = tmp_path / "step.json"
    assert main(["--model", "resnet50", "--machine", "dgx1-p100", "--nodes", "1,2",
                 "--strategy", "horovod", "--trace", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("Horovod cycle 1 ms") == 2 and "edr-ib RDMA" in out
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = [e.get("name", "") for e in events]
    assert any(n.startswith("Horovod cycle 1 ms") and "edr-ib RDMA" in n for n in names)
    assert "negotiate" in names
