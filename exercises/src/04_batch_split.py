# %% [markdown] lang="en"
# # Exercise 04 · How a global batch is split
#
# Write `per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy)`. It describes
# what `MirroredStrategy.experimental_distribute_dataset` does with
# `tf.data.Dataset.range(num_examples).batch(global_batch)`: return a list with one entry per
# step, each entry the list of the `num_replicas` per-replica batch sizes (write 0 for a replica
# that gets an empty dummy batch). `policy` is `"AUTO"`, `"DATA"` or `"OFF"`, the auto-shard
# policy. Lesson 04 gives the two rules:
#
# - `"AUTO"` (in-memory data falls back to `DATA`) and `"DATA"`: the **legacy rebatch**. Each
#   batch of `b` examples (the last one may be shorter) is cut on its own into slices of
#   `ceil(b / num_replicas)`; the last slices may be short or empty.
# - `"OFF"`: **RebatchV2**. With `f, c = divmod(global_batch, num_replicas)`, the sizes are
#   `[f + 1] * c + [f] * (num_replicas - c)`, taken from the data as one flat stream: when the data
#   runs out, a replica gets what is left and the following ones get 0.
#
# For example `per_replica_batch_sizes(10, 10, 4, "AUTO")` is `[[3, 3, 3, 1]]` and
# `per_replica_batch_sizes(6, 4, 2, "OFF")` is `[[2, 2], [2, 0]]`. The checker compares your
# answers with what sim's `MirroredStrategy` produces on up to 8 replicas.

# %% [markdown] lang="zh"
# # 练习 04 · 全局批次如何被切分
#
# 编写 `per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy)`。它描述 `MirroredStrategy.experimental_distribute_dataset` 如何处理 `tf.data.Dataset.range(num_examples).batch(global_batch)`：返回一个列表，每一步对应一项，每一项是含 `num_replicas` 个数的列表，依次是各副本的批次大小（某个副本拿到空的占位批次时写 0）。`policy` 是自动分片策略，取值为 `"AUTO"`、`"DATA"` 或 `"OFF"`。第 04 课给出了两条规则：
#
# - `"AUTO"`（内存中的数据会退回到 `DATA`）和 `"DATA"`：**旧版重新分批**。每个含 `b` 个样本的批次（最后一个可能较短）单独切成大小为 `ceil(b / num_replicas)` 的分片；最后几个分片可能较短，甚至为空。
# - `"OFF"`：**RebatchV2**。设 `f, c = divmod(global_batch, num_replicas)`，各副本的大小是 `[f + 1] * c + [f] * (num_replicas - c)`，并从整条扁平的数据流中依次取出：数据耗尽时，当前副本拿到剩下的样本，其后的副本都是 0。
#
# 例如，`per_replica_batch_sizes(10, 10, 4, "AUTO")` 是 `[[3, 3, 3, 1]]`，`per_replica_batch_sizes(6, 4, 2, "OFF")` 是 `[[2, 2], [2, 0]]`。检查器会把你的答案与 sim 的 `MirroredStrategy` 在最多 8 个副本上实际产生的结果进行比较。

# %% [markdown] lang="pt"
# # Exercício 04 · Como um lote global é dividido
#
# Escreva `per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy)`. Ela descreve o
# que `MirroredStrategy.experimental_distribute_dataset` faz com
# `tf.data.Dataset.range(num_examples).batch(global_batch)`: devolva uma lista com uma entrada por
# passo, cada entrada a lista dos `num_replicas` tamanhos de lote por réplica (escreva 0 para uma
# réplica que recebe um lote fictício vazio). `policy` é `"AUTO"`, `"DATA"` ou `"OFF"`, a política
# de fragmentação automática. A lição 04 dá as duas regras:
#
# - `"AUTO"` (dados em memória caem no `DATA`) e `"DATA"`: o **rebatch legado**. Cada lote de `b`
#   exemplos (o último pode ser mais curto) é cortado isoladamente em fatias de `ceil(b / num_replicas)`;
#   as últimas fatias podem ficar curtas ou vazias.
# - `"OFF"`: o **RebatchV2**. Com `f, c = divmod(global_batch, num_replicas)`, os tamanhos são
#   `[f + 1] * c + [f] * (num_replicas - c)`, tirados dos dados como um único fluxo contínuo: quando
#   os dados acabam, uma réplica recebe o que sobrou e as seguintes recebem 0.
#
# Por exemplo, `per_replica_batch_sizes(10, 10, 4, "AUTO")` é `[[3, 3, 3, 1]]` e
# `per_replica_batch_sizes(6, 4, 2, "OFF")` é `[[2, 2], [2, 0]]`. O verificador compara as suas
# respostas com o que a `MirroredStrategy` do sim produz em até 8 réplicas.

# %%
import math
from sim.course.exercises.lesson04_batch_split import check_per_replica_batch_sizes

# %%
def per_replica_batch_sizes(num_examples, global_batch, num_replicas, policy):
    ### BEGIN SOLUTION
    steps = []
    if policy in ("AUTO", "DATA"):
        for start in range(0, num_examples, global_batch):
            b = min(global_batch, num_examples - start)
            s = math.ceil(b / num_replicas)
            steps.append([max(0, min(s, b - k * s)) for k in range(num_replicas)])
        return steps
    f, c = divmod(global_batch, num_replicas)
    sizes = [f + 1] * c + [f] * (num_replicas - c)
    left = num_examples
    while left > 0:
        step = []
        for size in sizes:
            take = min(size, left)
            left -= take
            step.append(take)
        steps.append(step)
    return steps
    ### END SOLUTION

# %%
check_per_replica_batch_sizes(per_replica_batch_sizes)

# %% [markdown] lang="en"
# To go further: run `sim.course.exercises.lesson04_batch_split.simulated(n, g, r, policy)` on sizes of
# your own choice, or call `experimental_distribute_dataset` yourself as in lesson 04, and predict
# the answer before you look.

# %% [markdown] lang="zh"
# 更进一步：用你自己选的大小运行 `sim.course.exercises.lesson04_batch_split.simulated(n, g, r, policy)`，或者像第 04 课那样自己调用 `experimental_distribute_dataset`，并在查看结果之前先预测答案。

# %% [markdown] lang="pt"
# Para ir além: rode `sim.course.exercises.lesson04_batch_split.simulated(n, g, r, policy)` com tamanhos que
# você escolher, ou chame `experimental_distribute_dataset` você mesmo, como na lição 04, e preveja a
# resposta antes de olhar.
