"""Exercise 06's checker: the reference passes, the stub is "not done", each typical mistake in a
TF_CONFIG gets the hint that names its field, in the course language."""
import json

import pytest

from sim.course.exercises import lesson06_tf_config as ex
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.i18n import set_language, t


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


def _configs(workers, chief, port, cluster_fn=None, task_fn=None, dump=json.dumps):
    """The reference, with the cluster or the tasks changed by the given functions."""
    out = []
    for text in ex.reference(workers, chief, port):
        config = json.loads(text)
        if cluster_fn:
            config["cluster"] = cluster_fn(config["cluster"], config["task"])
        if task_fn:
            config["task"] = task_fn(config["task"], chief)
        out.append(dump(config))
    return out


def test_reference_solution_passes(capsys):
    assert ex.check_tf_configs(ex.reference) is None
    assert f"All {len(ex.CASES)} cases pass" in capsys.readouterr().out


def test_key_order_and_spacing_do_not_matter():
    def pretty(workers, chief=None, port=12345):
        return [json.dumps(json.loads(c), indent=2, sort_keys=True) for c in ex.reference(workers, chief, port)]
    assert ex.check_tf_configs(pretty) is None


def test_stub_is_reported_not_done():
    def write_tf_configs(workers, chief=None, port=12345):
        raise NotImplementedError()
    with pytest.raises(ExerciseNotDone, match="Not done yet"):
        ex.check_tf_configs(write_tf_configs)


def _shift_worker_index(task, chief):
    return {**task, "index": task["index"] + 1} if task["type"] == "worker" and chief else task


MISTAKES = {
    "ex_hint_list": lambda w, c, p: "\n".join(ex.reference(w, c, p)),
    "ex_hint_count": lambda w, c, p: ex.reference(w, c, p)[:1] if len(ex.reference(w, c, p)) > 1 else [],
    "ex_hint_dict": lambda w, c, p: [json.loads(x) for x in ex.reference(w, c, p)],
    "ex_hint_not_text": lambda w, c, p: [None] * len(ex.reference(w, c, p)),
    "ex_hint_json": lambda w, c, p: [str(json.loads(x)) for x in ex.reference(w, c, p)],
    "ex_hint_parts": lambda w, c, p: [json.dumps(json.loads(x)["cluster"]) for x in ex.reference(w, c, p)],
    "ex_hint_cluster_differs": lambda w, c, p: _configs(
        w, c, p, cluster_fn=lambda cl, task: {**cl, "worker": cl["worker"][:task["index"] + 1]}
        if task["type"] == "worker" else cl),
    "ex_hint_job_names": lambda w, c, p: _configs(
        w, c, p, cluster_fn=lambda cl, task: {("workers" if j == "worker" else j): a for j, a in cl.items()}),
    "ex_hint_port": lambda w, c, p: _configs(
        w, c, p, cluster_fn=lambda cl, task: {j: [a.rpartition(":")[0] for a in v] for j, v in cl.items()}),
    "ex_hint_chief_in_workers": lambda w, c, p: _configs(
        w, c, p, cluster_fn=lambda cl, task: {**cl, "worker": cl.get("chief", []) + cl["worker"]}),
    "ex_hint_chief_job": lambda w, c, p: _configs(
        w, c, p, cluster_fn=lambda cl, task: {"worker": cl["worker"]}),
    "ex_hint_worker_order": lambda w, c, p: _configs(
        w, c, p, cluster_fn=lambda cl, task: {**cl, "worker": cl["worker"][::-1]}),
    "ex_hint_worker_list": lambda w, c, p: _configs(
        w, c, p, cluster_fn=lambda cl, task: {**cl, "worker": ["x" + a for a in cl["worker"]]}),
    "ex_hint_task_order": lambda w, c, p: ex.reference(w, c, p)[::-1],
    "ex_hint_task_type": lambda w, c, p: _configs(
        w, c, p, task_fn=lambda task, chief: {**task, "type": "master"} if task["type"] == "chief" else task),
    "ex_hint_task_index": lambda w, c, p: _configs(w, c, p, task_fn=_shift_worker_index),
}


@pytest.mark.parametrize("key", sorted(MISTAKES))
def test_each_typical_mistake_gets_its_hint(key, capsys):
    wrong = MISTAKES[key]

    def write_tf_configs(workers, chief=None, port=12345):
        return wrong(workers, chief, port)
    with pytest.raises(ExerciseFailed) as error:
        ex.check_tf_configs(write_tf_configs)
    message = str(error.value)
    assert t("lesson06." + key) in message
    others = [k for k in MISTAKES if k != key and t("lesson06." + k) in message]
    assert not others, others


@pytest.mark.parametrize("lang, field", [("zh", 'TF_CONFIG["task"]["index"]'), ("pt", 'TF_CONFIG["task"]["index"]')])
def test_hints_speak_the_course_language(lang, field):
    set_language(lang)
    with pytest.raises(ExerciseFailed) as error:
        ex.check_tf_configs(lambda w, c=None, p=12345: _configs(w, c, p, task_fn=_shift_worker_index))
    message = str(error.value)
    assert field in message
    assert t("lesson06.ex_hint_task_index", lang=lang) in message
    assert t("lesson06.ex_hint_task_index", lang="en") not in message


def test_every_hint_names_a_field_or_the_shape_of_the_answer():
    for key in MISTAKES:
        text = t("lesson06." + key)
        assert "TF_CONFIG" in text or "list" in text or "json.dumps" in text or "order" in text, key
