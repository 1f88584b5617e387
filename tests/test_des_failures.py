"""Failures: what runs on a device or host that goes down fails, the rest carries on."""
import pytest

from sim.des import DeviceFailure, Failure, Simulator


def test_running_compute_fails_at_the_failure_time():
    sim = Simulator("workstation-4gpu", failures=[Failure(at=0.5, device="/gpu:1")])
    outcome = {}

    def work(g):
        try:
            yield sim.compute(f"/gpu:{g}", seconds=1.0, label=f"step{g}")
            outcome[g] = ("ok", sim.now)
        except DeviceFailure as err:
            outcome[g] = ("failed", sim.now, str(err))

    for g in range(2):
        sim.process(work(g))
    sim.run()
    assert outcome[0] == ("ok", 1.0)
    assert outcome[1][:2] == ("failed", 0.5) and "/gpu:1" in outcome[1][2]
    failed = [e for e in sim.trace if e.status == "failed"]
    assert {(e.kind, e.where, e.end) for e in failed} == {("failure", "/gpu:1", 0.5),
                                                          ("compute", "/gpu:1", 0.5)}


def test_work_after_the_failure_fails_at_once():
    sim = Simulator("workstation-4gpu", failures=[Failure(at=0.0, device="/gpu:2")])
    errors = []

    def later():
        yield sim.timeout(1.0)
        for ev in (sim.compute("/gpu:2", seconds=1.0), sim.transfer("/gpu:0", "/gpu:2", 1e6)):
            try:
                yield ev
            except DeviceFailure:
                errors.append(sim.now)

    sim.process(later())
    sim.run()
    assert errors == [1.0, 1.0]


def test_a_host_failure_kills_transfers_through_its_nics():
    m_name = "cpu-cluster"
    sim = Simulator(m_name, failures=[Failure(at=0.1, host=1)])
    result = {}

    def copy(dst):
        try:
            yield sim.transfer("/job:worker/task:0/cpu:0", f"/job:worker/task:{dst}/cpu:0", 1.25e9)
            result[dst] = ("ok", sim.now)
        except DeviceFailure:
            result[dst] = ("failed", sim.now)

    sim.process(copy(1))
    sim.process(copy(2))
    sim.run()
    assert result[1] == ("failed", pytest.approx(0.1))
    # task 2's copy shared the sender's NIC with task 1's until 0.1 s, then ran alone
    lat = 25e-6 + 1e-6
    half = (0.1 - lat) * 1.25e9 / 2
    assert result[2][0] == "ok"
    assert result[2][1] == pytest.approx(0.1 + (1.25e9 - half) / 1.25e9, rel=1e-9)


def test_unwaited_failure_stops_the_run_with_a_clear_error():
    sim = Simulator("workstation-4gpu", failures=[Failure(at=0.5, device="/gpu:0")])
    sim.compute("/gpu:0", seconds=1.0)
    with pytest.raises(DeviceFailure, match="went down at t = 0.5"):
        sim.run()


def test_a_batch_fails_when_one_of_its_copies_loses_its_device():
    sim = Simulator("workstation-4gpu", failures=[Failure(at=5e-3, device="/gpu:2")])
    outcome = []

    def ring():
        try:
            yield sim.transfers([(f"/gpu:{g}", f"/gpu:{(g + 1) % 4}", 120e6) for g in range(4)],
                                label="ring step")
            outcome.append("ok")
        except DeviceFailure as err:
            outcome.append((sim.now, "ring step" in str(err)))

    sim.process(ring())
    sim.run()
    assert outcome == [(pytest.approx(5e-3), True)]
    status = {e.where: (e.status, e.end) for e in sim.trace if e.kind == "transfer"}
    assert status["/gpu:1→/gpu:2"] == ("failed", pytest.approx(5e-3))
    assert status["/gpu:2→/gpu:3"] == ("failed", pytest.approx(5e-3))
    # the copies that do not touch GPU 2 run on, at full speed: 1 µs + 120 MB / 12 GB/s
    assert status["/gpu:0→/gpu:1"] == ("ok", pytest.approx(1e-6 + 0.01))
    assert status["/gpu:3→/gpu:0"] == ("ok", pytest.approx(1e-6 + 0.01))


def test_a_failure_during_the_latency_of_a_copy():
    # the copy is still paying its 25 µs of Ethernet latency when its destination host dies
    sim = Simulator("cpu-cluster", failures=[Failure(at=10e-6, host=1)])
    seen = []

    def copy():
        try:
            yield sim.transfer("/job:worker/task:0/cpu:0", "/job:worker/task:1/cpu:0", 1e6)
        except DeviceFailure:
            seen.append(sim.now)

    sim.process(copy())
    sim.run()
    assert seen == [pytest.approx(26e-6)]     # refused when its bytes would have started


def test_a_batch_touching_a_dead_device_fails_at_once_and_the_rest_still_runs():
    sim = Simulator("workstation-4gpu", failures=[Failure(at=0.0, device="/gpu:3")])
    seen = []

    def step():
        yield sim.timeout(1e-3)
        try:
            yield sim.transfers([("/gpu:0", "/gpu:1", 12e6), ("/gpu:2", "/gpu:3", 12e6)], "s")
        except DeviceFailure:
            seen.append(sim.now)

    sim.process(step())
    sim.run()
    assert seen == [1e-3]
    rows = {e.where: (e.status, e.end) for e in sim.trace if e.kind == "transfer"}
    assert rows["/gpu:2→/gpu:3"] == ("failed", 1e-3)
    assert rows["/gpu:0→/gpu:1"] == ("ok", pytest.approx(1e-3 + 1e-6 + 1e-3))


def test_a_host_failure_is_named_in_the_course_language():
    from sim import i18n

    before = i18n.get_language()
    try:
        i18n.set_language("zh")
        sim = Simulator("cpu-cluster", failures=[Failure(at=1e-3, host=1)])
        caught = []

        def work():
            try:
                yield sim.compute("/job:worker/task:1/cpu:0", seconds=1.0)
            except DeviceFailure as error:
                caught.append(str(error))

        sim.process(work())
        sim.run()
        assert caught and "主机 1" in caught[0]
    finally:
        i18n.set_language(before)
