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

# %% [markdown] lang="zh"
# # 练习 00 · 数据并行梯度
#
# 为使用均方误差 `mean((x @ w - y)**2)` 的线性模型编写 `data_parallel_gradient(w, x, y, num_replicas)`：
#
# 1. 用 `np.array_split` 把全局批次 `x`、`y` 切分成 `num_replicas` 个分片（各分片的大小可能不同，有些分片可能为空）；
# 2. 在每个副本上，对它的所有样本求梯度 `2 * xs.T @ (xs @ w - ys)` 之和，再除以正确的批次大小；
# 3. 像全归约那样合并各副本的结果（求和）。
#
# 结果必须等于在单个设备上对整个批次计算出的梯度。检查器会测试均匀切分、不均匀切分，以及副本数多于样本数的情况。

# %% [markdown] lang="pt"
# # Exercício 00 · O gradiente com paralelismo de dados
#
# Escreva `data_parallel_gradient(w, x, y, num_replicas)` para um modelo linear com o erro quadrático
# médio `mean((x @ w - y)**2)`:
#
# 1. divida o lote global `x`, `y` em `num_replicas` fatias com `np.array_split` (as fatias podem ter
#    tamanhos diferentes, e algumas podem ficar vazias);
# 2. em cada réplica, calcule a soma do gradiente `2 * xs.T @ (xs @ w - ys)` sobre os seus exemplos e
#    divida-a pelo tamanho de lote correto;
# 3. combine os resultados das réplicas como um all-reduce faria (uma soma).
#
# O resultado precisa ser igual ao gradiente calculado em um único dispositivo sobre o lote inteiro. O
# verificador testa divisões exatas e desiguais, e também mais réplicas do que exemplos.

# %%
import numpy as np
from sim.course.exercises.lesson00_data_parallel import check_data_parallel_gradient

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
