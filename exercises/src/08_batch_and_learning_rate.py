# %% [markdown] lang="en"
# # Exercise 08a · The global batch and the scaled learning rate of a cluster
#
# A cluster has `workers` machines with `gpus_per_worker` GPUs each, one replica per GPU (as under
# `MultiWorkerMirroredStrategy`), and each replica takes `per_replica_batch` examples per step.
# The learning rate `base_learning_rate` was tuned at the global batch `base_batch`. Write
# `global_batch_and_learning_rate(per_replica_batch, workers, gpus_per_worker,
# base_learning_rate, base_batch, rule)` returning the pair `(global_batch, learning_rate)`:
#
# - the global batch is the per-replica batch times `num_replicas_in_sync`;
# - with `k = global_batch / base_batch`: `"linear"` multiplies the base rate by `k`, `"sqrt"` by
#   `√k`, `"none"` keeps it;
# - `"guide"` reads the guide's table `LEARNING_RATES_BY_BATCH_SIZE` (given below) at the global
#   batch, whatever the base rate.
#
# For example 2 workers with 8 GPUs, 32 examples per GPU, 0.1 tuned at 256, `"linear"`: `(512, 0.2)`.

# %% [markdown] lang="zh"
# # 练习 08a · 一个集群的全局批次大小和缩放后的学习率
#
# 一个集群有 `workers` 台机器，每台有 `gpus_per_worker` 个 GPU，每个 GPU 上一个副本（和 `MultiWorkerMirroredStrategy` 一样），每个副本每步处理 `per_replica_batch` 个样本。学习率 `base_learning_rate` 是在全局批次大小为 `base_batch` 时调好的。编写 `global_batch_and_learning_rate(per_replica_batch, workers, gpus_per_worker, base_learning_rate, base_batch, rule)`，返回二元组 `(global_batch, learning_rate)`：
#
# - 全局批次大小等于每个副本的批次乘以 `num_replicas_in_sync`；
# - 设 `k = global_batch / base_batch`：`"linear"` 把基础学习率乘以 `k`，`"sqrt"` 乘以 `√k`，`"none"` 保持不变；
# - `"guide"` 按全局批次大小在指南的表格 `LEARNING_RATES_BY_BATCH_SIZE`（见下方代码）中查出学习率，与基础学习率无关。
#
# 例如，2 个工作进程、每个 8 个 GPU，每个 GPU 32 个样本，学习率 0.1 在批次 256 时调好，规则 `"linear"`：结果是 `(512, 0.2)`。

# %% [markdown] lang="pt"
# # Exercício 08a · O lote global e a taxa de aprendizado escalonada de um cluster
#
# Um cluster tem `workers` máquinas com `gpus_per_worker` GPUs cada, uma réplica por GPU (como na
# `MultiWorkerMirroredStrategy`), e cada réplica recebe `per_replica_batch` exemplos por passo. A
# taxa de aprendizado `base_learning_rate` foi ajustada com o lote global `base_batch`. Escreva
# `global_batch_and_learning_rate(per_replica_batch, workers, gpus_per_worker,
# base_learning_rate, base_batch, rule)` que retorne o par `(global_batch, learning_rate)`:
#
# - o lote global é o lote por réplica vezes `num_replicas_in_sync`;
# - com `k = global_batch / base_batch`: `"linear"` multiplica a taxa base por `k`, `"sqrt"` por
#   `√k`, `"none"` a mantém;
# - `"guide"` busca a taxa do lote global na tabela do guia, `LEARNING_RATES_BY_BATCH_SIZE` (dada
#   abaixo), seja qual for a taxa base.
#
# Por exemplo, 2 workers com 8 GPUs cada, 32 exemplos por GPU, taxa 0,1 ajustada para o lote 256,
# `"linear"`: `(512, 0.2)`.

# %%
import math
from sim.course.exercises.lesson08_scaled_lr import check_global_batch_and_learning_rate

LEARNING_RATES_BY_BATCH_SIZE = {5: 0.1, 10: 0.15, 20: 0.175}

# %%
def global_batch_and_learning_rate(per_replica_batch, workers, gpus_per_worker,
                                   base_learning_rate, base_batch, rule):
    ### BEGIN SOLUTION
    global_batch = per_replica_batch * workers * gpus_per_worker
    if rule == "guide":
        return global_batch, LEARNING_RATES_BY_BATCH_SIZE[global_batch]
    k = global_batch / base_batch
    factor = {"linear": k, "sqrt": math.sqrt(k), "none": 1.0}[rule]
    return global_batch, base_learning_rate * factor
    ### END SOLUTION

# %%
check_global_batch_and_learning_rate(global_batch_and_learning_rate)
