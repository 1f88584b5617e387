"""Every malformed TF_CONFIG: TensorFlow's error type and text, the field named, and a corrected
TF_CONFIG that itself passes, in en/zh/pt (never a bare KeyError or JSONDecodeError)."""
import json

import pytest

from sim import i18n
from sim.distribute import tf_config

MWMS = "MultiWorkerMirroredStrategy"
W2 = {"worker": ["localhost:12345", "localhost:23456"]}

# (name, TF_CONFIG text, error type, TensorFlow's first line or None, field named, words per language)
CASES = [
    ("not_json", "{'cluster': {'worker': ['a:1']}, 'task': {'type': 'worker', 'index': 0}}",
     json.JSONDecodeError, "Expecting property name enclosed in double quotes", "TF_CONFIG",
     {"en": "double quotes", "zh": "双引号", "pt": "aspas duplas"}),
    ("truncated", '{"cluster": {"worker": ["a:1"]}', json.JSONDecodeError, "Expecting ',' delimiter",
     "TF_CONFIG", {"en": "json.dumps", "zh": "json.dumps", "pt": "json.dumps"}),
    ("not_object", '["a:1", "b:1"]', ValueError, None, '"cluster"',
     {"en": "JSON object", "zh": "JSON 对象", "pt": "objeto JSON"}),
    ("no_cluster", json.dumps({"task": {"type": "worker", "index": 0}}), ValueError, None,
     'TF_CONFIG["cluster"]', {"en": "alone", "zh": "单独训练", "pt": "sozinha"}),
    ("no_task", json.dumps({"cluster": W2}), ValueError,
     "When `cluster_spec` is given, you must also specify `task_type` and `task_id`.", '"task"',
     {"en": "only \"task\" changes", "zh": "只有 \"task\" 不同", "pt": "só \"task\" muda"}),
    ("task_without_index", json.dumps({"cluster": W2, "task": {"type": "worker"}}), ValueError,
     "When `cluster_spec` is given", '"index"', {"en": "which task", "zh": "哪个任务", "pt": "qual tarefa"}),
    ("cluster_not_dict", json.dumps({"cluster": ["a:1"], "task": {"type": "worker", "index": 0}}),
     TypeError, "`cluster` must be a dictionary mapping one or more job names", 'TF_CONFIG["cluster"]',
     {"en": "host:port", "zh": "地址列表", "pt": "lista de endereços"}),
    ("job_not_list", json.dumps({"cluster": {"worker": "a:1"}, "task": {"type": "worker", "index": 0}}),
     TypeError, "The tasks for job 'worker' must be a list", 'TF_CONFIG["cluster"]["worker"]',
     {"en": "list", "zh": "列表", "pt": "lista"}),
    ("address_not_str", json.dumps({"cluster": {"worker": ["a:1", 12346]}, "task": {"type": "worker", "index": 0}}),
     TypeError, "Task address 12346 must be bytes or unicode", 'TF_CONFIG["cluster"]["worker"]',
     {"en": "in quotes", "zh": "带引号", "pt": "entre aspas"}),
    ("unknown_job", json.dumps({"cluster": {"workers": ["a:1"]}, "task": {"type": "worker", "index": 0}}),
     ValueError, None, '"workers"', {"en": "lower case", "zh": "小写", "pt": "minúsculas"}),
    ("unknown_task_type", json.dumps({"cluster": W2, "task": {"type": "master", "index": 0}}), ValueError,
     "Unrecognized task_type: 'master', valid task types are:", 'TF_CONFIG["task"]["type"]',
     {"en": "name of its job", "zh": "所属作业的名称", "pt": "nome do seu job"}),
    ("type_not_in_cluster", json.dumps({"cluster": W2, "task": {"type": "chief", "index": 0}}), ValueError,
     "`task_type` 'chief' not found in cluster_spec.", 'TF_CONFIG["task"]["type"]',
     {"en": "add that job", "zh": "加上这个作业", "pt": "Adicione esse job"}),
    ("index_not_int", json.dumps({"cluster": W2, "task": {"type": "worker", "index": "first"}}), ValueError,
     None, 'TF_CONFIG["task"]["index"]', {"en": "whole number", "zh": "整数", "pt": "inteiro"}),
    ("negative_index", json.dumps({"cluster": W2, "task": {"type": "worker", "index": -1}}), ValueError,
     None, 'TF_CONFIG["task"]["index"]', {"en": "count from 0", "zh": "从 0 开始", "pt": "começam em 0"}),
    ("index_past_end", json.dumps({"cluster": W2, "task": {"type": "worker", "index": 2}}), ValueError,
     "The `task_id` 2 exceeds the maximum id of worker.", 'TF_CONFIG["task"]["index"]',
     {"en": "the last one is 1", "zh": "最后一个是 1", "pt": "a última é 1"}),
    ("two_chiefs", json.dumps({"cluster": {"chief": ["a:1", "b:1"], "worker": ["c:1"]},
                               "task": {"type": "chief", "index": 1}}), ValueError,
     "There must be at most one 'chief' job.", 'TF_CONFIG["cluster"]["chief"]',
     {"en": "at most one chief", "zh": "最多只有一个首席工作进程", "pt": "no máximo um chefe"}),
    ("two_evaluators", json.dumps({"cluster": {"worker": ["a:1"], "evaluator": ["e:1", "f:1"]},
                                   "task": {"type": "worker", "index": 0}}), ValueError,
     "There must be at most one 'evaluator' job.", 'TF_CONFIG["cluster"]["evaluator"]',
     {"en": "at most one evaluator", "zh": "最多只有一个评估器", "pt": "no máximo um avaliador"}),
    ("duplicate_address", json.dumps({"cluster": {"chief": ["h:1"], "worker": ["h:2", "h:1"]},
                                      "task": {"type": "worker", "index": 0}}), ValueError, None,
     '"h:1"', {"en": "chief 0 and worker 1", "zh": "chief 0 和 worker 1", "pt": "chief 0 e worker 1"}),
    ("ps_task", json.dumps({"cluster": {"worker": ["a:1"], "ps": ["p:1"]}, "task": {"type": "ps", "index": 0}}),
     ValueError, "There is no id for task_type 'ps'", 'TF_CONFIG["task"]["type"]',
     {"en": "ParameterServerStrategy", "zh": "参数服务器", "pt": "servidores de parâmetros"}),
    ("ps_job", json.dumps({"cluster": {"worker": ["a:1"], "ps": ["p:1"]}, "task": {"type": "worker", "index": 0}}),
     ValueError, None, 'TF_CONFIG["cluster"]', {"en": "Remove \"ps\"", "zh": "删掉 \"ps\"", "pt": "Remova \"ps\""}),
]


@pytest.fixture(autouse=True)
def _reset_language():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
@pytest.mark.parametrize("name, text, error, tf_text, field, words", CASES, ids=[c[0] for c in CASES])
def test_malformed_tf_config(monkeypatch, lang, name, text, error, tf_text, field, words):
    i18n.set_language(lang)
    monkeypatch.setenv("TF_CONFIG", text)
    with pytest.raises(Exception) as e:
        tf_config.multi_worker_task()
    assert type(e.value) is error or (error is json.JSONDecodeError and isinstance(e.value, error)), type(e.value)
    assert not isinstance(e.value, KeyError)
    message = str(e.value)
    if tf_text is not None:
        assert message.startswith(tf_text)
    assert field in message
    assert words[lang] in message
    # The corrected TF_CONFIG (last line) is valid JSON and passes the same check.
    corrected = message.rstrip().splitlines()[-1].strip()
    monkeypatch.setenv("TF_CONFIG", corrected)
    task = tf_config.multi_worker_task()
    assert task is not None and task.task_type in ("chief", "worker")


def test_messages_differ_by_language(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": W2, "task": {"type": "worker", "index": 2}}))
    texts = set()
    for lang in ("en", "zh", "pt"):
        i18n.set_language(lang)
        with pytest.raises(ValueError) as e:
            tf_config.multi_worker_task()
        texts.add(str(e.value).split("\n")[1])
    assert len(texts) == 3


def test_corrected_example_keeps_the_learners_cluster(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["n1:7000", "n2:7000", "n3:7000"]},
                                                "task": {"type": "worker", "index": 3}}))
    with pytest.raises(ValueError) as e:
        tf_config.multi_worker_task()
    fixed = json.loads(str(e.value).splitlines()[-1])
    assert fixed == {"cluster": {"worker": ["n1:7000", "n2:7000", "n3:7000"]},
                     "task": {"type": "worker", "index": 2}}


def test_two_chiefs_fix_turns_the_extra_chief_into_the_last_worker():
    with pytest.raises(ValueError) as e:
        tf_config.validate({"cluster": {"chief": ["a:1", "b:1"], "worker": ["c:1"]},
                            "task": {"type": "chief", "index": 1}})
    fixed = json.loads(str(e.value).splitlines()[-1])
    assert fixed == {"cluster": {"chief": ["a:1"], "worker": ["c:1", "b:1"]}, "task": {"type": "worker", "index": 1}}


def test_duplicate_fix_moves_the_second_task_to_a_free_port():
    with pytest.raises(ValueError) as e:
        tf_config.validate({"cluster": {"worker": ["h:5000", "h:5000", "h:5001"]},
                            "task": {"type": "worker", "index": 0}})
    fixed = json.loads(str(e.value).splitlines()[-1])
    assert fixed["cluster"]["worker"] == ["h:5000", "h:5002", "h:5001"]


def test_empty_or_missing_tf_config_is_single_worker(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert tf_config.multi_worker_task() is None
    monkeypatch.setenv("TF_CONFIG", "")
    assert tf_config.multi_worker_task() is None
    monkeypatch.setenv("TF_CONFIG", "{}")
    assert tf_config.multi_worker_task() is None


def test_ps_is_fine_without_a_strategy_check():
    task = tf_config.validate({"cluster": {"chief": ["c:1"], "worker": ["a:1"], "ps": ["p:1"]},
                               "task": {"type": "ps", "index": 0}})
    assert (task.task_type, task.task_id, task.is_chief) == ("ps", 0, False)


def test_index_given_as_a_string_is_converted_like_tensorflow():
    task = tf_config.validate({"cluster": W2, "task": {"type": "worker", "index": "1"}})
    assert task.task_id == 1 and task.is_chief is False and task.id_in_cluster == 1


@pytest.mark.parametrize("name", ["not_json", "no_task", "unknown_task_type", "index_past_end", "two_chiefs",
                                  "duplicate_address", "ps_task", "ps_job", "negative_index"])
def test_multi_worker_mirrored_strategy_checks_tf_config_at_start(monkeypatch, name):
    import sim.tf as tf
    text, error, tf_text = next((c[1], c[2], c[3]) for c in CASES if c[0] == name)
    monkeypatch.setenv("TF_CONFIG", text)
    with pytest.raises(error) as e:
        tf.distribute.MultiWorkerMirroredStrategy()
    if tf_text:
        assert str(e.value).startswith(tf_text)
    assert "TF_CONFIG" in str(e.value)


def test_multi_worker_mirrored_strategy_without_tf_config_is_single_worker(monkeypatch):
    import sim.tf as tf
    monkeypatch.delenv("TF_CONFIG", raising=False)
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert strategy.extended._num_workers == 1
