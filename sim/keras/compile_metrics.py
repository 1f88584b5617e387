"""Keras 3's ``CompileMetrics``: the one object ``model.metrics`` lists for everything passed
as ``compile(metrics=...)`` (sim/keras/version.py).

Keras 3's ``model.metrics`` is ``[loss tracker, CompileMetrics]``: the second is named
'compile_metrics', its ``result()`` is a dict of the compiled metrics' values by name, and
``variables`` / ``metrics`` reach the metrics inside. tf-keras lists the metrics themselves.
This is a view over the model's MetricsContainer: updating and resetting go to the same metrics
the logs are read from.
"""
from __future__ import annotations


class CompileMetrics:
    def __init__(self, container):
        self._container = container
        self.name = "compile_metrics"

    @property
    def metrics(self):
        return list(self._container.metrics)

    @property
    def variables(self):
        return [v for m in self._container.metrics for v in m.variables]

    weights = variables

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._container.update_state(y_true, y_pred, sample_weight)

    def result(self):
        return {m.name: m.result() for m in self._container.metrics}

    def reset_state(self):
        self._container.reset_state()

    def __repr__(self):
        return "<CompileMetrics name=compile_metrics>"
