"""Read many TF_CONFIGs through TFConfigClusterResolver and ClusterSpec; print JSON.

Unedited between engines: run as ``python probe_tf_config.py`` it uses the simulator, and under
``python -m sim.launch.tf_task probe_tf_config.py`` (the launcher's TensorFlow runner) the same
``import sim.tf as tf`` gives real TensorFlow. No strategy is created, so one process reads all.
"""
import json
import os

import sim.tf as tf

W2 = {"worker": ["127.0.0.1:20001", "127.0.0.1:20002"]}
FULL = {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"], "ps": ["host3:2222"],
        "evaluator": ["host4:2222"]}
CONFIGS = {
    "two_workers_0": {"cluster": W2, "task": {"type": "worker", "index": 0}},
    "two_workers_1": {"cluster": W2, "task": {"type": "worker", "index": 1}},
    "full_chief": {"cluster": FULL, "task": {"type": "chief", "index": 0}},
    "full_ps": {"cluster": FULL, "task": {"type": "ps", "index": 0}, "rpc_layer": "grpc"},
    "full_evaluator": {"cluster": FULL, "task": {"type": "evaluator", "index": 0}},
    "index_as_text": {"cluster": W2, "task": {"type": "worker", "index": "1"}},
    "one_worker": {"cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker", "index": 0}},
    "no_cluster": {"task": {"type": "worker", "index": 0}},
    "no_task": {"cluster": W2},
    "empty": {},
    "session_master": {"cluster": W2, "task": {"type": "worker", "index": 0}, "session_master": "grpc://x:1"},
    # malformed
    "not_json": "{'cluster': {'worker': ['a:1']}}",
    "cluster_is_list": {"cluster": ["a:1", "b:1"], "task": {"type": "worker", "index": 0}},
    "job_is_string": {"cluster": {"worker": "a:1"}, "task": {"type": "worker", "index": 0}},
    "index_not_int": {"cluster": W2, "task": {"type": "worker", "index": "one"}},
    "task_is_list": {"cluster": W2, "task": ["worker", 0]},
    "job_is_dict_of_str_keys": {"cluster": {"worker": {"a": "a:1"}}, "task": {"type": "worker", "index": 0}},
}


def attempt(fn):
    try:
        value = fn()
    except Exception as e:
        return {"__error__": type(e).__name__, "message": str(e).splitlines()[0] if str(e) else ""}
    if hasattr(value, "as_dict"):
        value = {k: (v if isinstance(v, list) else {str(i): a for i, a in v.items()})
                 for k, v in value.as_dict().items()}
    return value


def spec_facts(spec):
    facts = {"as_dict": attempt(lambda: spec), "jobs": attempt(lambda: sorted(spec.jobs)),
             "bool": bool(spec)}
    for job in sorted(spec.jobs):
        facts[job] = {"num_tasks": spec.num_tasks(job), "task_indices": list(spec.task_indices(job)),
                      "job_tasks": spec.job_tasks(job), "first_address": spec.task_address(job, min(spec.task_indices(job)))}
    return facts


results = {}
for name, config in CONFIGS.items():
    os.environ["TF_CONFIG"] = config if isinstance(config, str) else json.dumps(config)
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    row = {key: attempt(lambda key=key: getattr(r, key))
           for key in ("task_type", "task_id", "rpc_layer", "environment")}
    row["cluster_spec"] = attempt(lambda: spec_facts(r.cluster_spec()))
    row["master"] = attempt(r.master)
    results[name] = row

# ClusterSpec built directly
specs = {"dict_of_lists": {"worker": ["a:1", "b:1"], "ps": ["c:1"]},
         "sparse": {"worker": {1: "b:1", 3: "d:1"}},
         "empty": {}}
for name, cluster in specs.items():
    results["spec_" + name] = attempt(lambda: spec_facts(tf.train.ClusterSpec(cluster)))
results["spec_equal"] = attempt(lambda: tf.train.ClusterSpec({"w": ["a:1"]}) == tf.train.ClusterSpec({"w": ["a:1"]}))
results["spec_bad_type"] = attempt(lambda: tf.train.ClusterSpec(["a:1"]))
results["spec_missing_task"] = attempt(lambda: tf.train.ClusterSpec({"w": ["a:1"]}).task_address("w", 5))
results["spec_key_text"] = attempt(lambda: tf.train.ClusterSpec({"w": {"x": "a:1"}}))
results["spec_key_none"] = attempt(lambda: tf.train.ClusterSpec({"w": {None: "a:1"}}))
results["spec_key_digits"] = attempt(lambda: spec_facts(tf.train.ClusterSpec({"w": {"2": "a:1"}})))
results["spec_missing_job"] = attempt(lambda: tf.train.ClusterSpec({"w": ["a:1"]}).num_tasks("ps"))
print("ENGINE-JSON " + json.dumps(results, sort_keys=True))
