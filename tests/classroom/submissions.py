"""Synthetic student submissions for the grading round trip (tests/classroom/test_grading.py).

Each is the source of the exercise's answer cell, as a student would hand it in. A wrong answer
names the hint (a catalogue key) the checker gives for that mistake: the mistakes are the ones each
checker recognises, most of them the checker's own mistaken functions, imported by the answer cell
under the exercise's name. The broken kinds are the same for every exercise, built from the stub.
"""
from __future__ import annotations

import re

EX = "sim.course.exercises"


def _imported(module: str, mistake: str, name: str) -> str:
    return f"from {EX}.{module} import {mistake} as {name}"


def _each(module: str, name: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    return [(mistake.strip("_"), _imported(module, mistake, name), hint) for mistake, hint in pairs]


_TRANSFER = "def transfer_time(machine, src, dst, nbytes):\n    hops = machine.route(src, dst)\n" \
            "    lat = sum(l.latency for l, _ in hops)\n    slow = min(l.bandwidth for l, _ in hops)\n"
_TF_CONFIG = ("import json\n"
              "from sim.course.exercises.lesson06_tf_config import reference\n"
              "def _each(workers, chief, port, cluster=lambda c, t: c, task=lambda t: t):\n"
              "    return [json.dumps({'cluster': cluster(d['cluster'], d['task']), 'task': task(d['task'])})\n"
              "            for d in map(json.loads, reference(workers, chief, port))]\n"
              "def write_tf_configs(workers, chief=None, port=12345):\n")


def _tf_config(label: str, body: str, hint: str) -> tuple[str, str, str]:
    return label, _TF_CONFIG + "    " + body, "lesson06." + hint

# exercise -> [(label, answer cell, hint key the checker must give)]
WRONG: dict[str, list[tuple[str, str, str]]] = {
    "00_data_parallel_gradient": _each("lesson00_data_parallel", "data_parallel_gradient", [
        ("_mean_of_means", "exercises.hint_mean_of_means"),
        ("_sum_without_mean", "exercises.hint_sum_not_mean"),
        ("_per_replica_divisor", "exercises.hint_per_replica_divisor"),
    ]),
    "01_transfer_time": [
        ("no_latency", _TRANSFER + "    return nbytes / slow", "lesson01.hint_no_latency"),
        ("one_latency", _TRANSFER + "    return hops[0][0].latency + nbytes / slow", "lesson01.hint_one_latency"),
        ("store_forward", _TRANSFER + "    return lat + sum(nbytes / l.bandwidth for l, _ in hops)",
         "lesson01.hint_store_forward"),
        ("not_bottleneck", _TRANSFER + "    return lat + nbytes / max(l.bandwidth for l, _ in hops)",
         "lesson01.hint_not_bottleneck"),
        ("bits", _TRANSFER + "    return lat + 8 * nbytes / slow", "lesson01.hint_bits"),
    ],
    "02_choose_algorithm": [
        ("unknown", "def choose_algorithm(p, nbytes, alpha, beta):\n    return 'nccl'",
         "collectives.ex_hint_unknown_choice"),
        ("power_of_two", "def choose_algorithm(p, nbytes, alpha, beta):\n"
                         "    if p & (p - 1):\n        return 'halving_doubling'\n"
                         "    names = ['reduce_to_one', 'ring', 'binomial_tree', 'halving_doubling']\n"
                         "    return min(names, key=lambda n: closed_form(n, p, nbytes, alpha, beta))",
         "collectives.ex_hint_power_of_two"),
        ("slower", "def choose_algorithm(p, nbytes, alpha, beta):\n    return 'reduce_to_one'",
         "collectives.ex_hint_slower"),
    ],
    "02_ring_allreduce": [
        ("not_a_list", "def ring_allreduce(arrays):\n    return sum(arrays)", "collectives.ex_hint_list"),
        ("count", "def ring_allreduce(arrays):\n    return [sum(arrays)]", "collectives.ex_hint_count"),
        ("no_allgather", "import numpy as np\ndef ring_allreduce(arrays):\n"
         "    return [sum(arrays)] + [np.array(a, copy=True) for a in arrays[1:]]",
         "collectives.ex_hint_allgather"),
        ("small_arrays", "def ring_allreduce(arrays):\n    total = sum(arrays)\n"
                         "    return [total if len(total) >= len(arrays) else 0 * total for _ in arrays]",
         "collectives.ex_hint_small"),
    ],
    "03_custom_loop_loss": [
        (f"{data}_{reg}", "from sim.course.exercises.lesson03_custom_loop_loss import _mistake\n"
                          f"compute_loss = _mistake({data!r}, {reg!r})", hint)
        for (data, reg), hint in [(("local_mean", "scaled"), "lesson03.hint_local_mean"),
                                  (("positional", "scaled"), "lesson03.hint_positional"),
                                  (("over_replicas", "scaled"), "lesson03.hint_over_replicas"),
                                  (("global", "unscaled"), "lesson03.hint_reg_unscaled"),
                                  (("global", "missing"), "lesson03.hint_reg_missing"),
                                  (("default_global", "scaled"), "lesson03.hint_default_global")]
    ],
    "04_batch_split": _each("lesson04_batch_split", "per_replica_batch_sizes", [
        ("_even_split", "lesson04.hint_even_split"),
        ("_no_empty_replicas", "lesson04.hint_no_empty"),
        ("_no_partial_batch", "lesson04.hint_no_partial"),
        ("_balanced_everywhere", "lesson04.hint_balanced_for_data"),
        ("_ceil_everywhere", "lesson04.hint_legacy_for_off"),
        ("_balanced_per_batch", "lesson04.hint_off_per_batch"),
    ]) + [
        ("a_number", "def per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy):\n"
                     "    return 42", "lesson04.hint_shape"),
        ("one_step_too_many", f"from {EX}.lesson04_batch_split import reference\n"
                              "def per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy):\n"
                              "    return reference(num_examples, global_batch, num_replicas, policy) + [[9] * num_replicas]",
         "lesson04.hint_steps"),
    ],
    "05_bytes_per_step": _each("lesson05_bytes_per_step", "bytes_per_gpu", [
        ("_in_parameters", "lesson05.ex_hint_parameters_not_bytes"),
        ("_ring_one_pass", "lesson05.ex_hint_ring_one_pass"),
        ("_whole_buffer", "lesson05.ex_hint_ring_whole_buffer"),
        ("_send_to_everyone", "lesson05.ex_hint_send_to_everyone"),
        ("_all_gpus_together", "lesson05.ex_hint_all_gpus"),
        ("_no_variable_reads", "lesson05.ex_hint_central_reads"),
        ("_cpu_even_with_one_gpu", "lesson05.ex_hint_central_one_gpu"),
    ]) + [
        ("a_number", "def bytes_per_gpu(strategy, num_params, num_gpus):\n    return 42", "lesson05.ex_hint_shape"),
        ("one_device_sends", f"from {EX}.lesson05_bytes_per_step import reference\n"
                             "def bytes_per_gpu(strategy, num_params, num_gpus):\n"
                             "    return (1.0, 1.0) if strategy == 'one_device' else reference(strategy, num_params, num_gpus)",
         "lesson05.ex_hint_one_device"),
    ],
    "06_tf_config": [_tf_config(*row) for row in [
        ("one_text", "return '\\n'.join(reference(workers, chief, port))", "ex_hint_list"),
        ("dicts", "return [json.loads(x) for x in reference(workers, chief, port)]", "ex_hint_dict"),
        ("too_few", "r = reference(workers, chief, port)\n    return r[:1] if len(r) > 1 else []", "ex_hint_count"),
        ("not_text", "return [None] * len(reference(workers, chief, port))", "ex_hint_not_text"),
        ("python_repr", "return [str(json.loads(x)) for x in reference(workers, chief, port)]", "ex_hint_json"),
        ("cluster_only", "return [json.dumps(json.loads(x)['cluster']) for x in reference(workers, chief, port)]",
         "ex_hint_parts"),
        ("growing_cluster", "return _each(workers, chief, port, cluster=lambda c, t: {**c, 'worker': "
                            "c['worker'][:t['index'] + 1]} if t['type'] == 'worker' else c)", "ex_hint_cluster_differs"),
        ("job_names", "return _each(workers, chief, port, cluster=lambda c, t: "
                      "{('workers' if j == 'worker' else j): a for j, a in c.items()})", "ex_hint_job_names"),
        ("no_port", "return _each(workers, chief, port, cluster=lambda c, t: "
                    "{j: [a.rpartition(':')[0] for a in v] for j, v in c.items()})", "ex_hint_port"),
        ("chief_in_workers", "return _each(workers, chief, port, cluster=lambda c, t: "
                             "{**c, 'worker': c.get('chief', []) + c['worker']})", "ex_hint_chief_in_workers"),
        ("no_chief_job", "return _each(workers, chief, port, cluster=lambda c, t: {'worker': c['worker']})",
         "ex_hint_chief_job"),
        ("workers_reversed", "return _each(workers, chief, port, cluster=lambda c, t: "
                             "{**c, 'worker': c['worker'][::-1]})", "ex_hint_worker_order"),
        ("wrong_hosts", "return _each(workers, chief, port, cluster=lambda c, t: "
                        "{**c, 'worker': ['x' + a for a in c['worker']]})", "ex_hint_worker_list"),
        ("task_order", "return reference(workers, chief, port)[::-1]", "ex_hint_task_order"),
        ("master", "return _each(workers, chief, port, task=lambda t: "
                   "{**t, 'type': 'master'} if t['type'] == 'chief' else t)", "ex_hint_task_type"),
        ("index_after_chief", "return _each(workers, chief, port, task=lambda t: {**t, 'index': t['index'] + 1} "
                              "if t['type'] == 'worker' and chief else t)", "ex_hint_task_index"),
    ]],
    "07_predict_shards": [
        ("not_a_list", "def shard_rows(kind, shape, bytes_per_element, **params):\n    return 'two'",
         "lesson07.ex_shards_hint_list"),
        ("order", "from sim.course.exercises.lesson07_shards import reference\n"
                  "def shard_rows(kind, shape, bytes_per_element, **params):\n"
                  "    return sorted(reference(kind, shape, bytes_per_element, **params))",
         "lesson07.ex_shards_hint_order"),
        ("extra_row", f"from {EX}.lesson07_shards import reference\n"
                      "def shard_rows(kind, shape, bytes_per_element, **params):\n"
                      "    return reference(kind, shape, bytes_per_element, **params) + [1]",
         "lesson07.ex_shards_hint_total"),
        ("one_shard", "def shard_rows(kind, shape, bytes_per_element, **params):\n    return [shape[0]]",
         "lesson07.ex_shards_hint_count"),
    ],
    "07_stable_learning_rate": [
        ("rule_ignored", f"from {EX}.lesson07_stable_lr import reference\n"
                         "def largest_stable_lr(workers, staleness_aware):\n    return reference(workers, False)",
         "lesson07.ex_lr_hint_rule"),
        ("linear_bound", f"from {EX}.lesson07_stable_lr import reference\n"
                         "def largest_stable_lr(workers, staleness_aware):\n"
                         "    if staleness_aware or workers == 1:\n        return reference(workers, staleness_aware)\n"
                         "    return 2 / (2 * workers - 1)", "lesson07.ex_lr_hint_linear"),
        ("too_high", "def largest_stable_lr(workers, staleness_aware):\n    return 2.0",
         "lesson07.ex_lr_hint_high"),
        ("too_low", "def largest_stable_lr(workers, staleness_aware):\n    return 0.01",
         "lesson07.ex_lr_hint_low"),
    ],
    "08_batch_and_learning_rate": _each("lesson08_scaled_lr", "global_batch_and_learning_rate", [
        ("_only_workers", "lesson08.hint_only_workers"),
        ("_only_gpus", "lesson08.hint_only_gpus"),
        ("_inverted_ratio", "lesson08.hint_inverted_ratio"),
    ]) + [
        (label, f"from {EX}.lesson08_scaled_lr import {mistake}, reference\n"
                "def global_batch_and_learning_rate(*args):\n"
                f"    batch, rate = {mistake}(*args)\n"
                "    return batch, rate if rate is not None else reference(*args)[1]", hint)
        for label, mistake, hint in [("per_replica_ratio", "_per_replica_ratio", "lesson08.hint_per_replica_ratio"),
                                     ("swapped_rules", "_swapped_rules", "lesson08.hint_swapped_rules"),
                                     ("guide_as_linear", "_guide_as_linear", "lesson08.hint_guide_is_a_table")]
    ] + [
        ("not_a_pair", "def global_batch_and_learning_rate(*args):\n    return 0.1", "lesson08.hint_pair"),
        ("rate_off", f"from {EX}.lesson08_scaled_lr import reference\n"
                     "def global_batch_and_learning_rate(*args):\n    batch, rate = reference(*args)\n"
                     "    return batch, rate * 1.37", "lesson08.hint_rate"),
        ("batch_off", f"from {EX}.lesson08_scaled_lr import reference\n"
                      "def global_batch_and_learning_rate(*args):\n    batch, rate = reference(*args)\n"
                      "    return batch + 1, rate", "lesson08.hint_global_batch"),
    ],
    "08_critical_batch": _each("lesson08_noise_scale", "critical_batch_size", [
        ("_mean_of_ratios", "lesson08.hint_mean_of_ratios"),
        ("_swapped_sizes", "lesson08.hint_swapped_sizes"),
        ("_big_norm_as_true_gradient", "lesson08.hint_big_is_not_true"),
        ("_no_batch_weights", "lesson08.hint_no_batch_weights"),
    ]) + [("not_a_number", "def critical_batch_size(b_small, b_big, small_sq_norms, big_sq_norms):\n"
                           "    return 'big'", "lesson08.hint_number")],
    "09_fastest_cluster": [
        ("unknown", "def fastest_within_budget(model, options, samples, budget):\n    return 'the big one'",
         "scale.ex_hint_unknown"),
        ("none", "def fastest_within_budget(model, options, samples, budget):\n    return None",
         "scale.ex_hint_none"),
        ("budget_ignored", f"from {EX}.lesson09_fastest_cluster import time_and_cost\n"
                           "def fastest_within_budget(model, options, samples, budget):\n"
                           "    return min(options, key=lambda n: time_and_cost(model, options[n], samples)[0])",
         "scale.ex_hint_over_budget"),
        ("cheapest", f"from {EX}.lesson09_fastest_cluster import time_and_cost\n"
                     "def fastest_within_budget(model, options, samples, budget):\n"
                     "    return min(options, key=lambda n: time_and_cost(model, options[n], samples)[1])",
         "scale.ex_hint_slower"),
    ],
    "11_choose_plan": [
        ("unknown", "def choose_plan(options, s_min, b_crit, price, budget, deadline_hours):\n"
                    "    return 'the big one'", "plan.ex_hint_unknown"),
        ("none", "def choose_plan(options, s_min, b_crit, price, budget, deadline_hours):\n"
                 "    return None", "plan.ex_hint_none"),
        ("most_gpus", "def choose_plan(options, s_min, b_crit, price, budget, deadline_hours):\n"
                      "    return max(options, key=lambda n: options[n][0])", "plan.ex_hint_not_reached"),
        ("budget_ignored", f"from {EX}.lesson11_plan import hours_and_cost\n"
                           "def choose_plan(options, s_min, b_crit, price, budget, deadline_hours):\n"
                           "    return min(options, key=lambda n: hours_and_cost(options[n], s_min, b_crit, price)[0])",
         "plan.ex_hint_over_budget"),
        ("deadline_ignored", f"from {EX}.lesson11_plan import hours_and_cost\n"
                             "def choose_plan(options, s_min, b_crit, price, budget, deadline_hours):\n"
                             "    fits = [n for n in options if hours_and_cost(options[n], s_min, b_crit, price)[1] <= budget]\n"
                             "    return min(fits, key=lambda n: hours_and_cost(options[n], s_min, b_crit, price)[0])",
         "plan.ex_hint_late"),
        ("slowest_that_fits", f"from {EX}.lesson11_plan import hours_and_cost\n"
                              "def choose_plan(options, s_min, b_crit, price, budget, deadline_hours):\n"
                              "    fits = [n for n in options if hours_and_cost(options[n], s_min, b_crit, price)[1] <= budget\n"
                              "            and hours_and_cost(options[n], s_min, b_crit, price)[0] <= deadline_hours]\n"
                              "    return max(fits, key=lambda n: hours_and_cost(options[n], s_min, b_crit, price)[0])",
         "plan.ex_hint_slower"),
    ],
    "12_slurm_task": [
        (label, "import json\n"
                "def slurm_tf_config(nodes, gpus_per_node, rank, port_base=8888):\n"
                "    from sim.course.exercises.lesson12_slurm_task import reference\n"
                f"    right = reference(nodes, gpus_per_node, rank, port_base)\n    {body}", hint)
        for label, body, hint in [
            ("json_text", "return json.dumps(right)", "lesson12.ex_hint_dict"),
            ("cluster_only", "return right['cluster']", "lesson12.ex_hint_parts"),
            ("job_name", "return {**right, 'cluster': {'workers': right['cluster']['worker']}}",
             "lesson12.ex_hint_jobs"),
            ("one_task_per_node", "return {**right, 'cluster': {'worker': right['cluster']['worker'][::gpus_per_node]}}",
             "lesson12.ex_hint_count"),
            ("nodes_unsorted", "w = right['cluster']['worker']\n"
                               "    return {**right, 'cluster': {'worker': w[gpus_per_node:] + w[:gpus_per_node]}}",
             "lesson12.ex_hint_node_order"),
            ("one_port", "return {**right, 'cluster': {'worker': [a.rpartition(':')[0] + f':{port_base}' "
                         "for a in right['cluster']['worker']]}}", "lesson12.ex_hint_ports"),
            ("local_index", "return {**right, 'task': {'type': 'worker', 'index': rank % gpus_per_node}}",
             "lesson12.ex_hint_index"),
        ]
    ],
}


def broken(stub: str) -> dict[str, str]:
    """The broken answers, made from the release's stub cell (the function's own signature)."""
    body = re.compile(r"^(\s*)raise NotImplementedError\(\)\s*$", re.M)
    return {
        "exception": body.sub(r"\1return 1 / 0", stub),
        "syntax_error": body.sub(r"\1return (", stub),
        "infinite_loop": body.sub(r"\1while True:\n\1    pass", stub),
        "empty": stub,
    }
