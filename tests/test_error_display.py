"""sim.show_error(): a lesson's deliberate error shown as "Type: message", in the course language."""
import pytest

import sim
from sim import i18n


def test_an_error_is_printed_as_type_and_message(capsys):
    with sim.show_error():
        raise ValueError("bad value")
    assert capsys.readouterr().out == "ValueError: bad value\n"


def test_a_block_without_error_says_so_in_the_course_language(capsys):
    before = i18n.get_language()
    try:
        i18n.set_language("pt")
        with sim.show_error():
            pass
        assert capsys.readouterr().out.strip() == i18n.t("error_display.no_error", lang="pt")
    finally:
        i18n.set_language(before)


def test_an_error_of_another_type_propagates():
    with pytest.raises(KeyError):
        with sim.show_error(ValueError):
            raise KeyError("x")


def test_a_library_error_keeps_its_localized_message(capsys):
    import sim.tf as tf

    before = i18n.get_language()
    try:
        i18n.set_language("zh")
        with sim.show_error():
            tf.distribute.OneDeviceStrategy(device="/cpu:9")   # a missing GPU is soft-placed
        out = capsys.readouterr().out
        assert out.startswith("ValueError: ") and "/cpu:9" in out and "设备" in out
        assert "Traceback" not in out and 'File "' not in out
    finally:
        i18n.set_language(before)
