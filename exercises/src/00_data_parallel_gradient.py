# %% [markdown] lang="en"
# # Exercise 00 · The data-parallel gradient
#
# Write `data_parallel_gradient(w, x, y, num_replicas)` for a linear model with the mean squared
# error `mean((x @ w - y)**2)`:
#
# 1. split the global batch `x`, `y` into `num_replicas` slices with `np.array_split` (the slices
#    may have different sizes, and some may be empty);
# 2. on each replica compute the sum over its examples of the gradient `2 * xs.T @ (xs @ w - ys)`
#    and divide it by the right batch size;
# 3. combine the replicas' results as an all-reduce would (a sum).
#
# The result must equal the gradient computed on one device over the whole batch. The checker
# tries even and uneven splits, and more replicas than examples.

# %%
import numpy as np
from sim.exercises.lesson00_data_parallel import check_data_parallel_gradient

# %%
def data_parallel_gradient(w, x, y, num_replicas):
    ### BEGIN SOLUTION
    global_batch = len(x)
    total = np.zeros_like(w, dtype=float)
    for xs, ys in zip(np.array_split(x, num_replicas), np.array_split(y, num_replicas)):
        total += 2.0 * xs.T @ (xs @ w - ys) / global_batch
    return total
    ### END SOLUTION

# %%
check_data_parallel_gradient(data_parallel_gradient)
