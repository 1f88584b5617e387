"""A checker that catches the learner's exception names the line of the learner's cell that
raised it, in the course language, with no traceback (sim/course/exercises/learner_line.py)."""
import linecache

import pytest

from sim.course.exercises import lesson06_tf_config, lesson07_shards
from sim.course.exercises.checker import ExerciseFailed
from sim.i18n import set_language

CELL = '''def shard_rows(kind, shape, bytes_per_element, **params):
    rows = shape[0]
    k = params["max_shards"]
    return [rows // k] * k
'''


def learner_function(source, name, filename="/tmp/ipykernel_4242/1234567.py"):
    """Define ``name`` as a Jupyter cell would: compiled under the kernel's cell file name,
    its text in linecache (what IPython does for every cell)."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


@pytest.fixture
def language():
    yield set_language
    set_language("en")


@pytest.mark.parametrize("lang, words", [("en", "at line 3 of your cell"),
                                         ("zh", "你的单元格第 3 行"),
                                         ("pt", "na linha 3 da sua célula")])
def test_the_verdict_names_the_learners_line(language, lang, words):
    language(lang)
    fn = learner_function(CELL, "shard_rows")
    with pytest.raises(ExerciseFailed) as failure:
        lesson07_shards.check_shard_rows(fn)
    verdict = failure.value._render_traceback_()
    text = "\n".join(verdict)
    assert "KeyError" in text and words in text
    assert 'k = params["max_shards"]' in text
    assert "Traceback" not in text and "File " not in text


def test_a_line_inside_a_helper_of_the_learner_is_the_one_shown(language):
    source = ('def helper(workers):\n'
              '    return workers + 1\n'
              'def write_tf_configs(workers, chief=None, port=12345):\n'
              '    return helper("x")\n')
    fn = learner_function(source, "write_tf_configs")
    with pytest.raises(ExerciseFailed) as failure:
        lesson06_tf_config.check_tf_configs(fn)
    text = str(failure.value)
    assert "TypeError" in text and "line 2" in text and "return workers + 1" in text


def test_an_error_raised_inside_numpy_names_the_learners_call(language):
    source = ('import numpy as np\n'
              'def shard_rows(kind, shape, bytes_per_element, **params):\n'
              '    return list(np.array_split(np.arange(shape[0]), "four"))\n')
    fn = learner_function(source, "shard_rows")
    with pytest.raises(ExerciseFailed) as failure:
        lesson07_shards.check_shard_rows(fn)
    assert "line 3" in str(failure.value) and "np.array_split" in str(failure.value)


def test_a_wrong_list_is_shown_as_the_learner_wrote_it(language):
    fn = learner_function(CELL.replace('params["max_shards"]', 'params.get("num_shards", 5)'),
                          "shard_rows")
    with pytest.raises(ExerciseFailed) as failure:
        lesson07_shards.check_shard_rows(fn)
    assert "got [2, 2, 2, 2, 2], expected [3, 3, 3, 2, 2]" in str(failure.value)
