# %% [markdown] lang="en"
# # Exercise 07a · Predict the shards a partitioner makes
#
# Write `shard_rows(kind, shape, bytes_per_element, **params)` that returns the number of rows of each
# shard that `ParameterServerStrategy` makes of a variable of `shape` (elements of
# `bytes_per_element` bytes):
#
# - `"fixed"` (`num_shards`): `FixedShardsPartitioner`;
# - `"min_size"` (`min_shard_bytes`, `max_shards`): `MinSizePartitioner`: ⌈variable bytes /
#   `min_shard_bytes`⌉ shards, capped by `max_shards` (so every shard can be smaller than
#   `min_shard_bytes`);
# - `"max_size"` (`max_shard_bytes`, optional `max_shards`): `MaxSizePartitioner`: whole rows,
#   at most `max_shard_bytes` per shard (but at least one row), capped at `max_shards`.
#
# Never more shards than rows; the rows are then split with the first shards one row longer
# (10 rows in 4 shards: `[3, 3, 2, 2]`). The checker compares with the simulator's partitioners.

# %% [markdown] lang="zh"
# # 练习 07a · 预测分区程序切出的分片
#
# 编写 `shard_rows(kind, shape, bytes_per_element, **params)`，返回 `ParameterServerStrategy` 把形状为 `shape`（每个元素 `bytes_per_element` 字节）的变量切成的各个分片的行数：
#
# - `"fixed"`（`num_shards`）：`FixedShardsPartitioner`；
# - `"min_size"`（`min_shard_bytes`、`max_shards`）：`MinSizePartitioner`：分片数 = ⌈变量字节数 / `min_shard_bytes`⌉，最多 `max_shards` 个（所以每个分片都可能小于 `min_shard_bytes`）；
# - `"max_size"`（`max_shard_bytes`，可选 `max_shards`）：`MaxSizePartitioner`：按整行切分，每个分片最多 `max_shard_bytes`（但至少一行），分片数不超过 `max_shards`。
#
# 分片数永远不会多于行数；然后按行切分，前面的分片多一行（10 行分成 4 片：`[3, 3, 2, 2]`）。检查器会与模拟器中的分区程序进行比较。

# %% [markdown] lang="pt"
# # Exercício 07a · Preveja os fragmentos que um particionador faz
#
# Escreva `shard_rows(kind, shape, bytes_per_element, **params)` que devolva o número de linhas de
# cada fragmento que a `ParameterServerStrategy` faz de uma variável de forma `shape` (elementos de
# `bytes_per_element` bytes):
#
# - `"fixed"` (`num_shards`): `FixedShardsPartitioner`;
# - `"min_size"` (`min_shard_bytes`, `max_shards`): `MinSizePartitioner`: ⌈bytes da variável /
#   `min_shard_bytes`⌉ fragmentos, limitado a `max_shards` (então todos os fragmentos podem ficar
#   menores que `min_shard_bytes`);
# - `"max_size"` (`max_shard_bytes`, `max_shards` opcional): `MaxSizePartitioner`: linhas inteiras,
#   no máximo `max_shard_bytes` por fragmento (mas pelo menos uma linha), limitado a `max_shards`.
#
# Nunca há mais fragmentos do que linhas; depois as linhas são divididas e os primeiros fragmentos
# ficam com uma linha a mais (10 linhas em 4 fragmentos: `[3, 3, 2, 2]`). O verificador compara com
# os particionadores do simulador.

# %%
import math

from sim.course.exercises.lesson07_shards import check_shard_rows

# %%
def shard_rows(kind, shape, bytes_per_element, **params):
    ### BEGIN SOLUTION
    rows = shape[0]
    total = math.prod(shape) * bytes_per_element
    if kind == "fixed":
        k = min(params["num_shards"], rows)
    elif kind == "min_size":
        k = max(1, min(rows, params.get("max_shards", 1),
                       math.ceil(total / params.get("min_shard_bytes", 256 << 10))))
    else:
        row_bytes = total / rows
        per_shard = max(1, math.floor(params["max_shard_bytes"] / row_bytes))
        k = math.ceil(rows / per_shard)
        if params.get("max_shards"):
            k = min(k, params["max_shards"])
    base, extra = divmod(rows, k)
    return [base + (1 if i < extra else 0) for i in range(k)]
    ### END SOLUTION

# %%
check_shard_rows(shard_rows)
