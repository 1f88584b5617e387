"""Exercise 04's checker: per-replica batch sizes against what sim's MirroredStrategy produces."""
import pytest

from sim.course.exercises import lesson04_batch_split as ex
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.i18n import set_language, t
from sim import runtime


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def test_expected_answers_are_the_semantics_test_vectors():
    assert ex.simulated(10, 10, 4, "AUTO") == ((3, 3, 3, 1),)          # T15
    assert ex.simulated(10, 10, 4, "OFF") == ((3, 3, 2, 2),)           # T15
    assert ex.simulated(8, 4, 3, "AUTO") == ((2, 2, 0), (2, 2, 0))     # T16
    assert ex.simulated(6, 4, 2, "AUTO") == ((2, 2), (1, 1))           # T17
    assert ex.simulated(6, 4, 2, "OFF") == ((2, 2), (2, 0))            # T17


@pytest.mark.parametrize("n", [1, 5, 12, 23])
@pytest.mark.parametrize("g", [1, 3, 4, 7, 10])
@pytest.mark.parametrize("r", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("policy", ex.POLICIES)
def test_reference_rule_matches_the_simulator(n, g, r, policy):
    assert ex.reference(n, g, r, policy) == [list(s) for s in ex.simulated(n, g, r, policy)]


def test_the_checker_puts_the_learners_machine_back():
    before = runtime.current_machine()
    ex.simulated.cache_clear()
    ex.simulated(9, 9, 8, "OFF")
    assert runtime.current_machine() is before


def test_reference_solution_passes(capsys):
    assert ex.check_per_replica_batch_sizes(ex.reference) is None
    assert f"All {len(ex.CASES)} cases pass" in capsys.readouterr().out


@pytest.mark.parametrize("wrong, hint", [
    (ex._even_split, "same share and dropped the remainder"),
    (ex._floor_per_batch, "same share and dropped the remainder"),
    (ex._no_empty_replicas, "forgot the empty replicas"),
    (ex._no_partial_batch, "last, shorter batch"),
    (ex._balanced_everywhere, "legacy rebatch"),
    (ex._ceil_everywhere, "keeps RebatchV2"),
    (ex._balanced_per_batch, "one flat stream"),
])
def test_known_mistakes_are_named(wrong, hint, capsys):
    with pytest.raises(ExerciseFailed, match=hint):
        ex.check_per_replica_batch_sizes(wrong)


def test_wrong_shape_and_wrong_step_count_are_explained():
    with pytest.raises(ExerciseFailed, match="return a list of steps"):
        ex.check_per_replica_batch_sizes(lambda n, g, r, p: 42)
    with pytest.raises(ExerciseFailed, match="number of steps is wrong"):
        ex.check_per_replica_batch_sizes(lambda n, g, r, p: ex.reference(n, g, r, p) + [[9] * r])


def test_hints_speak_the_course_language():
    set_language("zh")
    with pytest.raises(ExerciseFailed, match="你忘了空副本"):
        ex.check_per_replica_batch_sizes(ex._no_empty_replicas)
    set_language("pt")
    with pytest.raises(ExerciseFailed, match="réplicas vazias"):
        ex.check_per_replica_batch_sizes(ex._no_empty_replicas)


def test_unfinished_function_is_reported_as_not_done():
    def per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy):
        raise NotImplementedError()
    with pytest.raises(ExerciseNotDone, match="Not done yet: \"per_replica_batch_sizes\""):
        ex.check_per_replica_batch_sizes(per_replica_batch_sizes)


def test_catalogue_has_the_same_keys_in_every_language():
    import json
    from pathlib import Path
    data = json.loads((Path(ex.__file__).parents[2] / "i18n" / "catalogs" / "lesson04.json")
                      .read_text(encoding="utf-8"))
    assert set(data["en"]) == set(data["zh"]) == set(data["pt"])
    for key in data["en"]:
        for lang in ("en", "zh", "pt"):
            t(f"lesson04.{key}", lang=lang, n=1, g=2, r=3, policy="OFF", lr=0.1, linear=0.2,
              replicas=1, batch=16, steps=320, loss=0.2073, ms=49.955, us=156.11, value=[3, 3, 3, 1])
