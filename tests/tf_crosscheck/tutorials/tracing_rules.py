# Written for this project (not a TensorFlow guide): the rules of tracing that TensorFlow's
# tf.function guide states, one "# ---- cell" each, run on both engines by test_tutorials.py.
# Only Python values are printed at a trace (TensorFlow prints a symbolic tensor there).

# ---- cell 1
import numpy as np
import sim.tf as tf

# ---- cell 2
traces = 0
@tf.function
def read(v):
  global traces
  traces += 1
  return v.read_value()
print(int(read(tf.Variable(1))), int(read(tf.Variable(2))), "traces:", traces)
read(tf.Variable(1.0))
print("another dtype, traces:", traces)

# ---- cell 3
@tf.function
def draw(g):
  print("traced for a generator")
  return g.normal([])
g1 = tf.random.Generator.from_seed(1)
a, b = draw(g1), draw(g1)
draw(tf.random.Generator.from_seed(2))
print(float(a) != float(b), draw.experimental_get_tracing_count())

# ---- cell 4
@tf.function
def f(x):
  print("Traced with", x)
  return x
for v in (1, 1, 2, 2.0, "a", None):
  f(v)
print("traces:", f.experimental_get_tracing_count())

# ---- cell 5
@tf.function
def g(x):
  return x
g(tf.constant(1)); g(tf.constant(2)); g(tf.constant([1, 2])); g(tf.constant([3, 4]))
g(tf.constant(1.0)); g([1, 2]); g((1, 2)); g({"a": 1})
print("traces:", g.experimental_get_tracing_count())

# ---- cell 6
limit = 10
@tf.function
def capped():
  return tf.constant(limit)
print(int(capped()))
limit = 20
print(int(capped()), capped.experimental_get_tracing_count())

# ---- cell 7
@tf.function(reduce_retracing=True)
def total(x):
  print("traced, rank", len(x.shape))
  return tf.reduce_sum(x)
for n in (3, 5, 7, 9):
  print(int(total(tf.range(n))))
print("traces:", total.experimental_get_tracing_count())

# ---- cell 8
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def signed(x):
  return tf.reduce_sum(x)
print(float(signed(tf.constant([1.0, 2.0]))), float(signed(tf.constant([1.0, 2.0, 3.0]))))
print("traces:", signed.experimental_get_tracing_count())

# ---- cell 9
class Counter(tf.Module):
  def __init__(self):
    super().__init__()
    self.v = tf.Variable(0)

  @tf.function
  def step(self):
    print("traced a step")
    self.v.assign_add(1)
    return self.v.read_value()

c1, c2 = Counter(), Counter()
print([int(c1.step()) for _ in range(3)], int(c2.step()))
print(c1.step.experimental_get_tracing_count(), c2.step.experimental_get_tracing_count())

# ---- cell 10
it = iter(tf.data.Dataset.range(5))
@tf.function
def take():
  print("traced take")
  return next(it)
print([int(take()) for _ in range(3)], take.experimental_get_tracing_count())

# ---- cell 11
@tf.function
def eager_or_not():
  print("python ran")
  return 1
tf.config.run_functions_eagerly(True)
eager_or_not(); eager_or_not()
tf.config.run_functions_eagerly(False)
eager_or_not(); eager_or_not()
print(tf.config.functions_run_eagerly())

# ---- cell 12
strategy = tf.distribute.MirroredStrategy(["cpu:0"])
with strategy.scope():
  w = tf.Variable(1.0)
@tf.function
def step():
  print("traced the distributed step")
  def replica_fn():
    w.assign_add(1.0)
    return w.read_value()
  return strategy.run(replica_fn)
for _ in range(3):
  print(float(step()))
print("traces:", step.experimental_get_tracing_count())
