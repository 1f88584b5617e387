"""Bad input to the simulator gets an error that names the mistake."""
import pytest

from sim.des import Failure, Simulator, Slowdown


def test_unknown_device_in_a_transfer_lists_the_devices():
    sim = Simulator("workstation-4gpu")
    with pytest.raises(ValueError, match=r"no device '/gpu:9'.*/gpu:0"):
        sim.transfer("/gpu:0", "/gpu:9", 1e6)


def test_negative_or_nan_bytes():
    sim = Simulator("workstation-4gpu")
    with pytest.raises(ValueError, match="-5.0 bytes"):
        sim.transfer("/gpu:0", "/gpu:1", -5.0)
    with pytest.raises(ValueError, match="bytes"):
        sim.transfers([("/gpu:0", "/gpu:1", 1.0), ("/gpu:0", "/gpu:1", float("nan"))])


def test_compute_needs_seconds_or_flops():
    sim = Simulator("workstation-4gpu")
    with pytest.raises(ValueError, match="exactly one of seconds"):
        sim.compute("/gpu:0")
    with pytest.raises(ValueError, match="exactly one of seconds"):
        sim.compute("/gpu:0", seconds=1, flops=1)
    with pytest.raises(ValueError, match="seconds must be"):
        sim.compute("/gpu:0", seconds=-1)


def test_unknown_dtype_lists_known_ones():
    sim = Simulator("workstation-4gpu")
    with pytest.raises(ValueError, match="bfloat16.*float16, float32, float64"):
        sim.compute("/gpu:0", flops=1e9, dtype="bfloat16")


def test_unknown_preset_name_in_simulator():
    with pytest.raises(ValueError, match="Known presets: workstation-4gpu"):
        Simulator("my-laptop")


@pytest.mark.parametrize("kw", [{"factor": 0}, {"sigma": -1}, {"hiccup_prob": 2}])
def test_bad_slowdown(kw):
    with pytest.raises(ValueError, match="factor > 0"):
        Slowdown(**kw)


def test_bad_failures():
    with pytest.raises(ValueError, match="exactly one of device"):
        Failure(at=1.0)
    with pytest.raises(ValueError, match="failure time"):
        Failure(at=-1.0, device="/gpu:0")
    with pytest.raises(ValueError, match="no host 7"):
        Simulator("cpu-cluster", failures=[Failure(at=1.0, host=7)])
