"""The ``keras`` fixture: a test runs once under Keras 3 and once under tf-keras.

TensorFlow 2.21 picks tf-keras when TF_USE_LEGACY_KERAS is set; sim/keras/version.py reads the
switch on every use, so one process can set it per test. The session is cleared so name
counters (``dense_1``, ``precision_1``) start afresh under each selection.
"""
import pytest

from sim.keras import backend


@pytest.fixture(params=["keras3", "tf-keras"])
def keras(request, monkeypatch):
    if request.param == "tf-keras":
        monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    else:
        monkeypatch.delenv("TF_USE_LEGACY_KERAS", raising=False)
    backend.clear_session()
    return request.param
