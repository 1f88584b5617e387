"""Exercise 01 (predict a transfer time): the solution passes, the stub and the usual mistakes
get a verdict that names them."""
import pytest

from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.course.exercises import lesson01_transfer_time as ex

pytestmark = pytest.mark.lesson01


def test_reference_passes_and_matches_the_simulator():
    assert ex.check_transfer_time(ex.reference_transfer_time) is None
    for case in ex.cases():
        assert ex.reference_transfer_time(*case.args) == pytest.approx(case.expected, rel=1e-12)


def test_stub_is_reported_as_not_done(capsys):
    def transfer_time(machine, src, dst, nbytes):
        raise NotImplementedError()
    with pytest.raises(ExerciseNotDone) as failure:
        ex.check_transfer_time(transfer_time)
    assert "Not done yet" in str(failure.value)


def _hops(m, s, d):
    return m.route(s, d)


MISTAKES = {
    "hint_no_latency": lambda m, s, d, n: n / min(l.bandwidth for l, _ in _hops(m, s, d)),
    "hint_one_latency": lambda m, s, d, n: _hops(m, s, d)[0][0].latency
    + n / min(l.bandwidth for l, _ in _hops(m, s, d)),
    "hint_not_bottleneck": lambda m, s, d, n: sum(l.latency for l, _ in _hops(m, s, d))
    + n / max(l.bandwidth for l, _ in _hops(m, s, d)),
    "hint_bits": lambda m, s, d, n: sum(l.latency for l, _ in _hops(m, s, d))
    + 8 * n / min(l.bandwidth for l, _ in _hops(m, s, d)),
    "hint_store_forward": lambda m, s, d, n: sum(l.latency + n / l.bandwidth
                                                 for l, _ in _hops(m, s, d)),
}


@pytest.mark.parametrize("hint", sorted(MISTAKES))
def test_usual_mistakes_are_named(hint, capsys):
    from sim.i18n import t
    with pytest.raises(ExerciseFailed) as failure:
        ex.check_transfer_time(MISTAKES[hint])
    assert t(f"lesson01.{hint}") in str(failure.value)
