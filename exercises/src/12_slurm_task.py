# %% [markdown] lang="en"
# # Exercise 12 · The TF_CONFIG of one Slurm task
#
# Write `slurm_tf_config(nodes, gpus_per_node, rank, port_base=8888)` returning the `TF_CONFIG`
# (as a dict: `{"cluster": ..., "task": ...}`) that `SlurmClusterResolver` gives the task whose
# `SLURM_PROCID` is `rank`, in an allocation of the hosts `nodes` (as Slurm lists them) with
# **one task per GPU** on each node and no `jobs=` argument.
#
# Lesson 12, section 2, shows the resolver at work on 2 nodes × 4 GPUs. Remember how it orders
# the nodes and which ports a node's tasks take. The checker asks the resolver itself and, when
# your answer differs, says what is off.

# %% [markdown] lang="zh"
# # 练习 12 · 一个 Slurm 任务的 TF_CONFIG
#
# 编写 `slurm_tf_config(nodes, gpus_per_node, rank, port_base=8888)`，返回 `SlurmClusterResolver` 给 `SLURM_PROCID` 为 `rank` 的任务的 `TF_CONFIG`（写成字典：`{"cluster": ..., "task": ...}`）。资源分配由主机 `nodes`（按 Slurm 列出的顺序）组成，每个节点上**每块 GPU 一个任务**，并且不传 `jobs=` 参数。
#
# 第 12 课第 2 节展示了解析器在 2 个节点 × 4 块 GPU 上的结果。记住它如何给节点排序，以及一个节点上的任务使用哪些端口。检查器会直接询问解析器本身；如果你的答案不同，它会指出哪里不对。

# %% [markdown] lang="pt"
# # Exercício 12 · O TF_CONFIG de uma tarefa do Slurm
#
# Escreva `slurm_tf_config(nodes, gpus_per_node, rank, port_base=8888)` que devolva o `TF_CONFIG`
# (como dict: `{"cluster": ..., "task": ...}`) que o `SlurmClusterResolver` dá à tarefa cujo
# `SLURM_PROCID` é `rank`, em uma alocação dos hosts `nodes` (na ordem em que o Slurm os lista)
# com **uma tarefa por GPU** em cada nó e sem o argumento `jobs=`.
#
# A seção 2 da lição 12 mostra o resolver em ação em 2 nós × 4 GPUs. Lembre-se de como ele ordena
# os nós e de quais portas as tarefas de um nó usam. O verificador pergunta ao próprio resolver e,
# quando a sua resposta difere, diz o que está errado.

# %%
from sim.course.exercises.lesson12_slurm_task import check_slurm_tf_config

# %%
def slurm_tf_config(nodes, gpus_per_node, rank, port_base=8888):
    ### BEGIN SOLUTION
    workers = [f"{host}:{port_base + local}" for host in sorted(nodes) for local in range(gpus_per_node)]
    return {"cluster": {"worker": workers}, "task": {"type": "worker", "index": rank}}
    ### END SOLUTION

# %%
check_slurm_tf_config(slurm_tf_config)
