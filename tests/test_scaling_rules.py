"""sim.scaling: the global batch and the learning-rate rules, with errors in the course language."""
import math

import pytest

import sim.tf as tf
from sim import scaling
from sim.i18n import set_language


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def test_global_batch_is_the_guides_product_with_a_strategy_or_a_count():
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1", "/gpu:2"])
    assert scaling.global_batch_size(5, strategy) == 5 * strategy.num_replicas_in_sync == 15
    assert scaling.global_batch_size(64, 8) == 512
    assert scaling.per_replica_batch_size(512, 8) == 64


@pytest.mark.parametrize("bad", [0, -4, 2.5, "eight", None, True])
def test_a_count_that_is_not_a_positive_integer_is_named(bad):
    with pytest.raises(ValueError, match="must be a positive whole number"):
        scaling.global_batch_size(bad, 4)


def test_an_uneven_split_says_how_to_fix_it():
    with pytest.raises(ValueError, match="does not split evenly over 4 replicas"):
        scaling.per_replica_batch_size(10, 4)


@pytest.mark.parametrize("rule, factor", [("linear", 8.0), ("sqrt", math.sqrt(8)), ("none", 1.0)])
def test_rules_multiply_the_base_rate(rule, factor):
    assert scaling.scale_factor(32, 256, rule) == pytest.approx(factor)
    assert scaling.scaled_learning_rate(0.1, 32, 256, rule) == pytest.approx(0.1 * factor)


def test_rules_shrink_the_rate_for_a_smaller_batch():
    assert scaling.scaled_learning_rate(0.4, 256, 64, "linear") == pytest.approx(0.1)
    assert scaling.scaled_learning_rate(0.4, 256, 64, "sqrt") == pytest.approx(0.2)


def test_the_guides_table_is_read_as_is_and_grows_slower_than_either_rule_over_its_range():
    table = scaling.LEARNING_RATES_BY_BATCH_SIZE
    assert table == {5: 0.1, 10: 0.15, 20: 0.175}
    for batch, rate in table.items():
        assert scaling.scaled_learning_rate(None, None, batch, "guide") == rate
    # x1.5 on the first doubling (between sqrt's 1.41 and linear's 2), x1.17 on the second
    assert scaling.scale_factor(5, 10, "sqrt") < table[10] / table[5] < scaling.scale_factor(5, 10, "linear")
    assert table[20] / table[10] < scaling.scale_factor(10, 20, "sqrt")
    assert table[20] / table[5] < scaling.scale_factor(5, 20, "sqrt") < scaling.scale_factor(5, 20, "linear")


def test_the_guides_table_outside_its_three_sizes_points_to_the_rules():
    with pytest.raises(ValueError, match="no entry for a global batch of 40.*5, 10, 20"):
        scaling.scaled_learning_rate(0.1, 5, 40, "guide")
    with pytest.raises(ValueError, match="a lookup, not a factor"):
        scaling.scale_factor(5, 10, "guide")


def test_unknown_rule_and_bad_rate_are_named_in_the_course_language():
    with pytest.raises(ValueError, match="Unknown learning-rate rule 'quadratic'.*linear"):
        scaling.scaled_learning_rate(0.1, 32, 64, "quadratic")
    with pytest.raises(ValueError, match="base_learning_rate must be a positive number"):
        scaling.scaled_learning_rate(-0.1, 32, 64, "linear")
    set_language("zh")
    with pytest.raises(ValueError, match="未知的学习率规则"):
        scaling.scaled_learning_rate(0.1, 32, 64, "quadratic")
    set_language("pt")
    with pytest.raises(ValueError, match="não se divide igualmente entre 4 réplicas"):
        scaling.per_replica_batch_size(10, 4)


def test_catalogue_has_the_same_keys_in_every_language():
    import json
    from pathlib import Path
    data = json.loads((Path(scaling.__file__).parents[1] / "i18n" / "catalogs" / "scaling.json")
                      .read_text(encoding="utf-8"))
    assert set(data["en"]) == set(data["zh"]) == set(data["pt"])
