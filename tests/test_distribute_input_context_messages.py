"""InputContext's batch-size suggestion reads naturally in every course language: the word
between the two suggested sizes comes from the catalogue, not an English " or "."""
import pytest

import sim.tf as tf
from sim import i18n


@pytest.fixture
def language():
    old = i18n.get_language()
    yield i18n.set_language
    i18n.set_language(old)


@pytest.mark.parametrize("lang, expected", [("en", "8 or 12"), ("zh", "8 或 12"), ("pt", "8 ou 12")])
def test_suggested_batch_sizes_joined_in_course_language(language, lang, expected):
    language(lang)
    ctx = tf.distribute.InputContext(num_replicas_in_sync=4)
    with pytest.raises(ValueError) as e:
        ctx.get_per_replica_batch_size(10)
    text = str(e.value)
    assert text.startswith("The `global_batch_size` 10 is not divisible by `num_replicas_in_sync` 4")
    if lang != "en":
        note = text.split("\n", 1)[1]
        assert expected in note and " or " not in note


def test_english_joiner_is_in_the_catalogue(language):
    language("en")
    assert i18n.t("distribute.input_context_either", a=8, b=12) == "8 or 12"
