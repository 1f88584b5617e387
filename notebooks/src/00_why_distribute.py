# %% [markdown] lang="en"
# # 00 · Why distribute? A map of `tf.distribute`
#
# Training a modern network on one accelerator can take days. `tf.distribute.Strategy` is
# TensorFlow's API for spreading that work over several GPUs, several machines or TPUs while your
# model code stays almost the same. This lesson gives the map; every later lesson runs one region
# of it on a simulated machine.
#
# You will see:
# 1. **data parallelism**, built by hand in NumPy: why several replicas can compute *exactly* the
#    gradient one device would;
# 2. **synchronous vs asynchronous** training, and what stragglers cost each of them;
# 3. the **strategies** TensorFlow offers and which training API each supports;
# 4. how this course works: `import sim.tf as tf`, the simulated clock, and graded exercises.

# %% [markdown] lang="en"
# ## 1. Data parallelism by hand
#
# In data parallelism every **replica** holds a full copy of the model and receives a slice of
# each **global batch**. Each replica computes a gradient on its slice; an **all-reduce** adds the
# replicas' gradients so every copy applies the same update and the copies stay identical.
#
# The subtle part is the divisor. The loss of the global batch is a mean over *all* its examples,
# so each replica must divide its sum of per-example gradients by the **global batch size**, not
# by its own slice size. Then the sum over replicas is exactly the single-device gradient. Let us
# check it on a linear model with the mean squared error.

# %%
import numpy as np

rng = np.random.default_rng(0)
global_batch, features, num_replicas = 10, 3, 4
x = rng.normal(size=(global_batch, features))
y = rng.normal(size=global_batch)
w = rng.normal(size=features)

def gradient_sum(w, x, y):
    """Sum over the examples of d/dw (x·w - y)²."""
    return 2.0 * x.T @ (x @ w - y)

single_device = gradient_sum(w, x, y) / global_batch

shards = list(zip(np.array_split(x, num_replicas), np.array_split(y, num_replicas)))
per_replica = [gradient_sum(w, xs, ys) / global_batch for xs, ys in shards]
all_reduced = np.sum(per_replica, axis=0)          # the all-reduce (SUM)

print("examples per replica:", [len(xs) for xs, _ in shards])
print("single device :", np.round(single_device, 6))
print("4 replicas    :", np.round(all_reduced, 6))
print("max difference:", float(np.max(np.abs(all_reduced - single_device))) < 1e-12)

# %% [markdown] lang="en"
# Ten examples do not split evenly over four replicas (3, 3, 2, 2), and the answer is still exact.
# Had each replica divided by its own slice size and the results been averaged (a "mean of
# means"), the replicas with 2 examples would weigh as much as those with 3:

# %%
mean_of_means = np.mean([gradient_sum(w, xs, ys) / len(xs) for xs, ys in shards], axis=0)
print("mean of means :", np.round(mean_of_means, 6))
print("equal to the single-device gradient?", bool(np.allclose(mean_of_means, single_device)))

# %% [markdown] lang="en"
# This is exactly why TensorFlow's custom training loops call
# `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)`: it divides by the global
# batch size, and the optimizer then **sums** gradients across replicas. Lesson 03 does it with the
# real API.
#
# ## 2. Synchronous or asynchronous?
#
# - **Synchronous** training (`MirroredStrategy`, `MultiWorkerMirroredStrategy`, `TPUStrategy`):
#   all replicas finish their step, the all-reduce combines the gradients, everyone applies the same
#   update. It is a barrier: each step lasts as long as the slowest replica.
# - **Asynchronous** training (`ParameterServerStrategy`): variables live on **parameter
#   servers**; each **worker** reads them, computes a gradient and sends its update whenever it is
#   ready. Nobody waits, but a worker's gradient may have been computed on weights that others have
#   already changed (**staleness**).
#
# The cell below draws seeded step times for 4 workers (some steps straggle) and compares how many
# updates each regime gets done in the same time.

# %%
from sim.sync_vs_async import asynchronous_updates_by, step_times, synchronous_time

times = step_times(workers=4, steps=50, base=0.1, spread=0.3, seed=0)
sync_seconds = synchronous_time(times)
async_updates = asynchronous_updates_by(times, deadline=sync_seconds)
print(f"synchronous : 50 steps x 4 replicas = {50 * 4} gradients in {sync_seconds:.2f} s")
print(f"asynchronous: {async_updates} gradients in the same {sync_seconds:.2f} s")

# %%
import matplotlib.pyplot as plt
from sim.plots import label

fig, ax = plt.subplots(figsize=(7, 3))
ax.plot(np.arange(1, 51), np.cumsum(times.max(axis=1)), label=label("sync"))
ax.plot(np.arange(1, 51), np.cumsum(times.mean(axis=1)), label=label("async_mean_worker"))
ax.set_xlabel(label("step"))
ax.set_ylabel(label("time_s"))
ax.set_title(label("sync_vs_async_title"))
ax.legend()
plt.show()

# %% [markdown] lang="en"
# The synchronous curve climbs faster: at every step it pays for the slowest of four workers.
# Asynchronous training keeps all workers busy, at the price of stale gradients. Which one learns
# faster *per second* depends on the model and the cluster; the parameter-server lessons measure
# it.
#
# ## 3. The map of strategies
#
# | Strategy | Where | Synchronous? | Variables live |
# |---|---|---|---|
# | default strategy | one device, no distribution | — | on that device |
# | `OneDeviceStrategy` | one chosen device | — | on that device |
# | `MirroredStrategy` | several GPUs of one machine | yes (all-reduce) | mirrored on every GPU |
# | `CentralStorageStrategy` | several GPUs of one machine | yes | once, on the CPU (or the single GPU) |
# | `TPUStrategy` | the cores of a TPU | yes | mirrored on every core |
# | `MultiWorkerMirroredStrategy` | several machines (`TF_CONFIG`) | yes (collectives) | mirrored on every device |
# | `ParameterServerStrategy` | workers + parameter servers | no | on the parameter servers, possibly sharded |
#
# Which training API each supports, as TensorFlow's guide lists it:

# %%
from sim import strategy_map

strategy_map.show()

# %% [markdown] lang="en"
# ## 4. How this course works
#
# - You write TensorFlow code. `import sim.tf as tf` gives the same API on a **simulated machine**
#   (the default is a workstation with 4 GPUs on a shared PCIe switch); change that one line to
#   `import tensorflow as tf` and the same code runs on real TensorFlow with the same numbers.
# - Every strategy call advances a **simulated clock**, so you can see what communication costs and
#   draw a **timeline** of devices and links, without owning a cluster.
# - Each lesson has exercises with a **checker**: it runs your function on several cases and tells
#   you what is right, what is wrong, and often which mistake you made. Here is the checker of this
#   lesson's exercise fed the "mean of means" from above; it explains the mistake:

# %% tags=["raises-exception"]
from sim.exercises.lesson00_data_parallel import check_data_parallel_gradient

def mean_of_means_gradient(w, x, y, num_replicas):
    shards = zip(np.array_split(x, num_replicas), np.array_split(y, num_replicas))
    return np.mean([gradient_sum(w, xs, ys) / len(xs) for xs, ys in shards if len(xs)], axis=0)

check_data_parallel_gradient(mean_of_means_gradient)

# %% [markdown] lang="en"
# ## Summary
#
# - Data parallelism: every replica holds the model, takes a slice of the global batch, and an
#   all-reduce combines the gradients. Divide by the **global** batch size and the result equals
#   single-device training exactly.
# - Synchronous strategies wait for the slowest replica at each step; asynchronous parameter-server
#   training never waits but uses stale weights.
# - Next: lesson 01 measures what communication costs.
#
# **Exercise:** open `exercises/en/00_data_parallel_gradient.ipynb`.
