"""Lesson 08's pictures and the rule demo: the pure function the widget redraws, labels in the course language."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from sim.i18n import set_language, t  # noqa: E402
from sim.course.plots import scaling as scaling_plots  # noqa: E402
from sim.scaling import experiments  # noqa: E402
from sim.scaling.rule_demo import DEMO_BASE_BATCH, DEMO_BASE_LR, rule_curves  # noqa: E402

pytestmark = pytest.mark.lesson08


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")
    plt.close("all")


@pytest.mark.parametrize("batch, rule, rate", [(64, "none", 0.25), (64, "sqrt", 0.25 * 8 ** 0.5),
                                               (64, "linear", 2.0), (512, "linear", 16.0)])
def test_rule_curves_use_the_rules_rate(batch, rule, rate):
    curves = rule_curves(batch, rule)
    assert curves.learning_rate == pytest.approx(rate)
    assert curves.base[0] == curves.scaled[0]            # same problem, same start
    assert curves.learning_rate == pytest.approx(
        DEMO_BASE_LR * {"none": 1, "sqrt": (batch / DEMO_BASE_BATCH) ** 0.5, "linear": batch / DEMO_BASE_BATCH}[rule])


def test_rule_curves_mark_divergence_past_the_stability_limit_only():
    blown = rule_curves(512, "linear")                 # rate 16 > 2 / lambda_max
    assert blown.diverged_at is not None and np.isinf(blown.scaled[blown.diverged_at:]).all()
    safe = rule_curves(512, "none")
    assert safe.diverged_at is None
    assert safe.scaled[-1] < safe.base[-1]              # a bigger batch lowers the noise floor


def test_rule_curves_are_deterministic():
    a, b = rule_curves(128, "sqrt"), rule_curves(128, "sqrt")
    assert np.array_equal(a.scaled, b.scaled)


def test_panels_take_their_labels_from_the_catalogue_in_the_course_language():
    sweep = experiments.e1()
    for lang in ("en", "zh", "pt"):
        set_language(lang)
        fig, axes = plt.subplots(1, 3)
        scaling_plots.steps_vs_batch(axes[0], sweep, 1)
        scaling_plots.best_lr_vs_batch(axes[1], sweep, guide={5: 0.1, 10: 0.15, 20: 0.175})
        scaling_plots.rule_demo(axes[2], rule_curves(512, "linear"))
        assert axes[0].get_xlabel() == t("scaling.plot_batch")
        legend = [text.get_text() for text in axes[2].get_legend().get_texts()]
        assert any(t("scaling.rule_linear") in line for line in legend)
        assert t("scaling.demo_diverged", step=rule_curves(512, "linear").diverged_at) in legend
        fit_label = [text.get_text() for text in axes[0].get_legend().get_texts()][2]
        assert fit_label == t("scaling.plot_fit", s_min=sweep.fit(1).s_min, b_crit=sweep.fit(1).b_crit)
