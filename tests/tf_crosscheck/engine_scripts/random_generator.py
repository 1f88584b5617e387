"""tf.random.Generator and the stateless ops, drawn the same way on both engines; every value
printed as JSON (test_random_generator.py compares them exactly: TensorFlow's numbers).

Philox on every method (normal, uniform of floats and of ints, full-range ints of each width,
truncated normal, skip, make_seeds, split), the ways to make and reset one, ThreeFry (which
TensorFlow's CPU kernels refuse), the stateless ops, and under MirroredStrategy the streams each
replica draws.
"""
import json
import sys

import numpy as np

import sim.tf as tf

REAL_TF = "tensorflow" in sys.modules   # sim.tf is TensorFlow itself under sim.launch.tf_task
if REAL_TF:   # two logical CPUs for the strategy at the end
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
out = {}
def rec(k, f):
    try:
        v = f(); out[k] = np.asarray(v.numpy() if hasattr(v, "numpy") else v).tolist()
    except Exception as e: out[k] = {"__error__": type(e).__name__, "message": str(e)[:200]}
g = tf.random.Generator.from_seed(1)
rec("state0", lambda: g.state)
rec("normal23", lambda: g.normal([2, 3]))
rec("state1", lambda: g.state)
rec("uniform5", lambda: g.uniform([5]))
rec("uniform_f64", lambda: g.uniform([3], dtype=tf.float64))
rec("normal_f64", lambda: g.normal([3], dtype=tf.float64))
rec("uniform_int", lambda: g.uniform([6], minval=-3, maxval=10, dtype=tf.int32))
rec("uniform_int64", lambda: g.uniform([3], minval=-3, maxval=10, dtype=tf.int64))
rec("full_int", lambda: g.uniform_full_int([3]))
rec("full_int_i32", lambda: g.uniform_full_int([5], dtype=tf.int32))
rec("full_int_i64", lambda: g.uniform_full_int([3], dtype=tf.int64))
rec("trunc", lambda: g.truncated_normal([7]))
rec("trunc64", lambda: g.truncated_normal([3], dtype=tf.float64))
rec("state2", lambda: g.state)
rec("skip", lambda: g.skip(5))
rec("state3", lambda: g.state)
rec("seeds", lambda: g.make_seeds(2))
gs = g.split(2)
rec("split_states", lambda: [x.state.numpy() for x in gs])
rec("split_normal", lambda: gs[1].normal([3]))
rec("alg", lambda: g.algorithm)
g2 = tf.random.Generator.from_seed(1, alg="threefry")
rec("threefry_state", lambda: g2.state)
rec("threefry_normal", lambda: g2.normal([3]))
g3 = tf.random.Generator.from_key_counter(key=5, counter=[7, 0], alg="philox")
rec("kc_state", lambda: g3.state)
rec("kc_normal", lambda: g3.normal([3]))
g3.reset_from_seed(3); rec("reset_seed_state", lambda: g3.state)
g3.reset([1, 2, 3]); rec("reset_state", lambda: g3.state)
g3.reset_from_key_counter(9, [4, 5]); rec("reset_kc_state", lambda: g3.state)
g4 = tf.random.Generator.from_state([4, 5, 6], alg="philox"); rec("fs_normal", lambda: g4.normal([2]))
g5 = tf.random.Generator.from_seed(1234)   # binomial: inversion, BTRS, p > 0.5, p = 0 and 1
for i, (shape, counts, probs) in enumerate((([2, 3], [10., 20., 30.], [0.1, 0.5, 0.9]),
                                            ([10], 5., 0.3), ([4], 1000., 0.25),
                                            ([3, 2], [7., 100.], [0.95, 0.6]), ([2], 0., 0.5),
                                            ([2], 4., 1.0))):
    rec(f"binomial{i}", lambda: g5.binomial(shape, counts=counts, probs=probs))
    rec(f"binomial{i}_state", lambda: g5.state)
rec("binomial_int_counts", lambda: g5.binomial([2], counts=[10, 20], probs=[0.5, 0.5]))
rec("stateless_binomial", lambda: tf.random.stateless_binomial([3, 2], seed=[7, 8], counts=[7., 100.], probs=[0.95, 0.6]))
rec("stateless_binomial_int_counts", lambda: tf.random.stateless_binomial([5], seed=[3, 4], counts=50, probs=0.5))
rec("stateless_normal", lambda: tf.random.stateless_normal([2, 3], seed=[1, 2]))
rec("stateless_uniform", lambda: tf.random.stateless_uniform([3], seed=[3, 4]))
rec("stateless_uniform_int", lambda: tf.random.stateless_uniform([3], seed=[3, 4], minval=0, maxval=7, dtype=tf.int32))
rec("stateless_trunc", lambda: tf.random.stateless_truncated_normal([5], seed=[5, 6]))
rec("big_seed", lambda: tf.random.Generator.from_seed(2**70 + 5).state)
rec("neg_seed", lambda: tf.random.Generator.from_seed(-1).state)
devices = ["/cpu:0", "/cpu:1"] if REAL_TF else ["/gpu:0", "/gpu:1"]
strat = tf.distribute.MirroredStrategy(devices)
with strat.scope():
    gm = tf.random.Generator.from_seed(1)
    rec("mirrored_first", lambda: strat.experimental_local_results(strat.run(lambda: gm.normal([]))))
    rec("mirrored_second", lambda: strat.experimental_local_results(strat.run(lambda: gm.uniform([2]))))
rec("mirrored_state", lambda: gm.state)
go = tf.random.Generator.from_seed(1)
rec("outside_in_replicas", lambda: strat.experimental_local_results(strat.run(lambda: go.normal([]))))
print("ENGINE-JSON " + json.dumps(out))
