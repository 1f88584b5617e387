# %% [markdown] lang="en"
# # Exercise 06 · The TF_CONFIG of every task
#
# Write `write_tf_configs(workers, chief=None, port=12345)` returning a **list of strings**: the
# value of `TF_CONFIG` on each machine of the cluster, one per task, in this order: the chief
# first (if there is one), then the workers in the order given.
#
# - `workers` is a list of host names, such as `["10.1.10.58", "10.1.10.250"]`;
# - `chief` is the chief's host name, or `None` when worker 0 acts as the chief;
# - every task listens on `port`.
#
# Lesson 06, section 1, has the format. Build each configuration as a Python dict and turn it
# into text with `json.dumps`. The checker reads your strings as TensorFlow does and, when one is
# wrong, names the `TF_CONFIG` field at fault.

# %% [markdown] lang="zh"
# # 练习 06 · 每个任务的 TF_CONFIG
#
# 编写 `write_tf_configs(workers, chief=None, port=12345)`，返回一个**字符串列表**：集群中每台机器上 `TF_CONFIG` 的值，每个任务一个，顺序如下：先是 chief（如果有），然后按给定顺序排列各个工作进程。
#
# - `workers` 是主机名列表，例如 `["10.1.10.58", "10.1.10.250"]`；
# - `chief` 是 chief 的主机名；如果由 worker 0 充当 chief，则为 `None`；
# - 每个任务都监听 `port` 端口。
#
# 格式见第 06 课第 1 节。先把每个配置写成 Python 字典，再用 `json.dumps` 转成文本。检查器会像 TensorFlow 那样读取你的字符串；如果哪一个有错，它会指出出错的 `TF_CONFIG` 字段。

# %% [markdown] lang="pt"
# # Exercício 06 · O TF_CONFIG de cada tarefa
#
# Escreva `write_tf_configs(workers, chief=None, port=12345)` que retorne uma **lista de strings**:
# o valor do `TF_CONFIG` em cada máquina do cluster, um por tarefa, nesta ordem: primeiro o chefe
# (se houver), depois os workers na ordem informada.
#
# - `workers` é uma lista de nomes de host, como `["10.1.10.58", "10.1.10.250"]`;
# - `chief` é o nome de host do chefe, ou `None` quando o worker 0 faz o papel de chefe;
# - todas as tarefas escutam na porta `port`.
#
# A seção 1 da lição 06 mostra o formato. Monte cada configuração como um dict do Python e
# transforme-a em texto com `json.dumps`. O verificador lê as suas strings como o TensorFlow as lê e,
# quando uma está errada, aponta o campo do `TF_CONFIG` com problema.

# %%
import json

from sim.course.exercises.lesson06_tf_config import check_tf_configs

# %%
def write_tf_configs(workers, chief=None, port=12345):
    ### BEGIN SOLUTION
    cluster = {"worker": [f"{host}:{port}" for host in workers]}
    tasks = [("worker", index) for index in range(len(workers))]
    if chief is not None:
        cluster["chief"] = [f"{chief}:{port}"]
        tasks = [("chief", 0)] + tasks
    return [json.dumps({"cluster": cluster, "task": {"type": kind, "index": index}})
            for kind, index in tasks]
    ### END SOLUTION

# %%
check_tf_configs(write_tf_configs)
