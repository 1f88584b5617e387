# %% [markdown] lang="en"
# # 06 · Many machines: TF_CONFIG and MultiWorkerMirroredStrategy
#
# Until now one machine held every replica. `MultiWorkerMirroredStrategy` spreads the replicas
# over several machines (the **workers**), each running **the same script**. Nothing in the
# script says which machine it is on: each process learns its role from one environment
# variable, `TF_CONFIG`. This lesson is about that variable and what follows from it:
#
# 1. `TF_CONFIG` written by hand, and read back by `TFConfigClusterResolver`;
# 2. the **chief**: the worker with extra duties, and how TensorFlow picks it;
# 3. every task's `TF_CONFIG` and start-up line written for you with `sim.launch.tf_configs`;
# 4. the mistakes a learner makes in `TF_CONFIG`, and the messages they get;
# 5. auto-sharding: which worker reads which examples;
# 6. launching a cluster of workers, each its own process;
# 7. RING or NCCL between machines, on a 2-host timeline;
# 8. a worker's failure, and the recovery;
# 9. a live cluster timeline for the classroom.
#
# ## 1. TF_CONFIG by hand
#
# The multi-node tutorial trains on two machines, `10.1.10.58` and `10.1.10.250`, both listening
# on port 12345. On the first one it sets `TF_CONFIG` like this (its code, unchanged):

# %% [markdown] lang="zh"
# # 06 · 多台机器：TF_CONFIG 与 MultiWorkerMirroredStrategy
#
# 到目前为止，所有副本都在同一台机器上。`MultiWorkerMirroredStrategy` 把副本分布到多台机器（即多个**工作进程**）上，每台机器运行的都是**同一个脚本**。脚本里没有任何地方写明自己在哪台机器上：每个进程都从一个环境变量 `TF_CONFIG` 得知自己的角色。本节课就讲这个变量，以及由它带来的一切：
#
# 1. 手写 `TF_CONFIG`，再用 `TFConfigClusterResolver` 读回来；
# 2. **首席工作进程（chief）**：多承担一些职责的那个工作进程，以及 TensorFlow 如何选出它；
# 3. 用 `sim.launch.tf_configs` 为每个任务生成 `TF_CONFIG` 和启动命令；
# 4. 学习者在 `TF_CONFIG` 中常犯的错误，以及会看到的错误信息；
# 5. 自动分片：哪个工作进程读取哪些样本；
# 6. 启动一个由工作进程组成的集群，每个工作进程都是独立的进程；
# 7. 机器之间用 RING 还是 NCCL，看 2 台主机的时间线；
# 8. 一个工作进程出故障，以及如何恢复；
# 9. 课堂上实时查看集群的时间线。
#
# ## 1. 手写 TF_CONFIG
#
# 多节点教程在两台机器 `10.1.10.58` 和 `10.1.10.250` 上训练，两台都监听 12345 端口。在第一台机器上，它这样设置 `TF_CONFIG`（原样照搬它的代码）：

# %% [markdown] lang="pt"
# # 06 · Muitas máquinas: TF_CONFIG e MultiWorkerMirroredStrategy
#
# Até agora, uma única máquina tinha todas as réplicas. A `MultiWorkerMirroredStrategy` espalha as
# réplicas por várias máquinas (os **workers**), e cada uma executa **o mesmo script**. Nada no
# script diz em que máquina ele está: cada processo descobre o seu papel por uma variável de
# ambiente, `TF_CONFIG`. Esta lição trata dessa variável e do que decorre dela:
#
# 1. o `TF_CONFIG` escrito à mão e lido de volta pelo `TFConfigClusterResolver`;
# 2. o **chefe (chief)**: o worker com tarefas extras, e como o TensorFlow o escolhe;
# 3. o `TF_CONFIG` e a linha de comando de cada tarefa, escritos para você pelo `sim.launch.tf_configs`;
# 4. os erros que se cometem no `TF_CONFIG` e as mensagens que eles produzem;
# 5. a fragmentação automática: qual worker lê quais exemplos;
# 6. iniciar um cluster de workers, cada um em seu próprio processo;
# 7. RING ou NCCL entre máquinas, em uma linha do tempo de 2 hosts;
# 8. a falha de um worker e a recuperação;
# 9. uma linha do tempo do cluster ao vivo, para a sala de aula.
#
# ## 1. O TF_CONFIG à mão
#
# O tutorial de vários nós treina em duas máquinas, `10.1.10.58` e `10.1.10.250`, ambas escutando
# na porta 12345. Na primeira, ele define o `TF_CONFIG` assim (o código dele, sem mudanças):

# %%
import json
import os

import matplotlib.pyplot as plt
import numpy as np

import sim.tf as tf
from sim.i18n import t

os.environ["TF_CONFIG"] = json.dumps({
    'cluster': {
        'worker': ["10.1.10.58:12345", "10.1.10.250:12345"]
    },
    'task': {'type': 'worker', 'index': 0}
})
print(os.environ["TF_CONFIG"])

# %% [markdown] lang="en"
# Two parts. **`"cluster"`** lists every task of the training job by its job name (`"worker"`
# here) and its address `host:port`; it is **identical on every machine**. **`"task"`** says
# which of those tasks this machine is: its job and its **index** in that job's list, counting
# from 0. Only `"task"` changes from machine to machine: the second machine runs the same script
# with `'index': 1`.
#
# A strategy reads `TF_CONFIG` through a **cluster resolver**. `TFConfigClusterResolver` is the
# default one; it reads the variable again at every access:
# <!-- claim task_is_worker_0: holds(json.loads(os.environ["TF_CONFIG"])["task"] == {"type": "worker", "index": 0}, "this machine is worker 0") -->

# %% [markdown] lang="zh"
# 它由两部分组成。**`"cluster"`** 按作业名（这里是 `"worker"`）列出训练作业的所有任务及其地址 `host:port`，它在**每台机器上都完全相同**。**`"task"`** 说明这台机器是其中的哪一个任务：它所属的作业，以及它在该作业列表中的**索引**（从 0 开始）。各台机器之间只有 `"task"` 不同：第二台机器运行同一个脚本，只是写成 `'index': 1`。
#
# 策略通过**集群解析器**读取 `TF_CONFIG`。默认的解析器是 `TFConfigClusterResolver`，每次访问时它都会重新读取这个变量：<!-- claim task_is_worker_0 -->

# %% [markdown] lang="pt"
# São duas partes. **`"cluster"`** lista todas as tarefas do treinamento pelo nome do job
# (`"worker"`, aqui) e pelo endereço `host:porta`; ele é **idêntico em todas as máquinas**.
# **`"task"`** diz qual dessas tarefas é esta máquina: o seu job e o seu **índice** na lista desse
# job, contando a partir de 0. Só `"task"` muda de uma máquina para outra: a segunda máquina
# executa o mesmo script com `'index': 1`.
#
# Uma estratégia lê o `TF_CONFIG` por meio de um **cluster resolver**. O `TFConfigClusterResolver`
# é o padrão; ele lê a variável de novo a cada acesso:
# <!-- claim task_is_worker_0 -->

# %%
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
print(resolver.task_type, resolver.task_id)
print(resolver.cluster_spec())
print(resolver.cluster_spec().num_tasks("worker"), resolver.cluster_spec().task_address("worker", 1))
print(resolver.master(rpc_layer="grpc"))

# %% [markdown] lang="en"
# `cluster_spec()` is a `tf.train.ClusterSpec`; `master()` is this task's own address (with an
# RPC protocol in front if you give one), what a TensorFlow 1 session connected to.
#
# ## 2. The chief
#
# In synchronous training every worker computes, but one of them also **saves checkpoints and
# writes summaries** (for TensorBoard): the **chief**. TensorFlow's rule has two cases. If the
# cluster has a `"chief"` job, its single task is the chief, and the workers' ranks come after it.
# If it has none, **worker 0** is the chief. Each task also gets a rank among all the training
# tasks (`id_in_cluster`), every training task counts the same number of workers (`worker_count`),
# and the chief leads the collective operations (`collective_leader`). An `"evaluator"` task is outside the training: it
# is its own chief and trains with nobody.
# <!-- claim resolver_reads: holds((resolver.task_type, resolver.task_id) == ("worker", 0) and resolver.cluster_spec().num_tasks("worker") == 2 and resolver.master(rpc_layer="grpc") == "grpc://10.1.10.58:12345", "worker 0 of 2, master grpc://10.1.10.58:12345") -->

# %% [markdown] lang="zh"
# `cluster_spec()` 是一个 `tf.train.ClusterSpec`；`master()` 是这个任务自己的地址（如果给出 RPC 协议，就加在前面），也就是 TensorFlow 1 的会话所连接的地址。
#
# ## 2. 首席工作进程（chief）
#
# 在同步训练中，每个工作进程都参与计算，但其中有一个还要负责**保存检查点、写摘要**（供 TensorBoard 使用）：这就是**首席工作进程（chief）**。TensorFlow 的规则分两种情况。如果集群中有 `"chief"` 作业，这个作业里唯一的任务就是 chief，其余工作进程的排名依次排在它后面；如果没有，**worker 0** 就是 chief。每个任务在所有参与训练的任务中还有一个排名（`id_in_cluster`），每个参与训练的任务算出的工作进程总数（`worker_count`）都一样，集合通信由 chief 牵头（`collective_leader`）。`"evaluator"` 任务不参与训练：它自己就是自己的 chief，不和任何人一起训练。<!-- claim resolver_reads -->

# %% [markdown] lang="pt"
# `cluster_spec()` é um `tf.train.ClusterSpec`; `master()` é o endereço desta tarefa (com um
# protocolo RPC na frente, se você informar um), ao qual uma sessão do TensorFlow 1 se conectava.
#
# ## 2. O chefe (chief)
#
# No treinamento síncrono todos os workers calculam, mas um deles também **salva os checkpoints e
# escreve os resumos** (para o TensorBoard): o **chefe (chief)**. A regra do TensorFlow tem dois
# casos. Se o cluster tem um job `"chief"`, a única tarefa dele é o chefe, e as posições dos
# workers vêm depois dela. Se não tem, o **worker 0** é o chefe. Cada tarefa recebe também uma
# posição entre todas as tarefas que treinam (`id_in_cluster`), e todas enxergam o mesmo total de
# workers (`worker_count`), e o chefe lidera as operações coletivas (`collective_leader`). Uma tarefa `"evaluator"`
# fica fora do treinamento: é o chefe de si mesma e não treina com ninguém.
# <!-- claim resolver_reads -->

# %%
from sim.distribute import multi_worker_util

clusters = [
    ("no_chief", {"worker": ["host0:2222", "host1:2222", "host2:2222"]}),
    ("with_chief", {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"],
                    "evaluator": ["host3:2222"]}),
]
for name, cluster in clusters:
    print(t("lesson06." + name))
    print(f"  {'task':<12}{'is_chief':<10}{'id_in_cluster':<15}{'worker_count':<14}collective_leader")
    for job, addresses in cluster.items():
        for index in range(len(addresses)):
            print(f"  {job + ' ' + str(index):<12}"
                  f"{str(multi_worker_util.is_chief(cluster, job, index)):<10}"
                  f"{multi_worker_util.id_in_cluster(cluster, job, index):<15}"
                  f"{multi_worker_util.worker_count(cluster, job):<14}"
                  f"{multi_worker_util.collective_leader(cluster, job, index)!r}")

# %% [markdown] lang="en"
# The guide calls the chief "the worker with index 0" because, with no `"chief"` job, that is
# exactly what it is. With a `"chief"` job, `worker 0` is **not** the chief: its rank is 1.
#
# ## 3. Every machine's TF_CONFIG, written for you
#
# With two machines writing `TF_CONFIG` by hand is easy; with ten it is how mistakes happen.
# `sim.launch.tf_configs` writes them from a description of the cluster: `describe` builds the `"cluster"`
# part, `print_commands` prints, for each machine, the line that starts its task. Given the
# tutorial's two hosts, it prints the tutorial's two lines, character for character:
# <!-- claim chief_rules: holds(multi_worker_util.is_chief(clusters[0][1], "worker", 0) and not multi_worker_util.is_chief(clusters[1][1], "worker", 0) and multi_worker_util.id_in_cluster(clusters[1][1], "worker", 0) == 1, "no chief job: worker 0 is the chief; with one, worker 0 has rank 1") & holds(all(multi_worker_util.worker_count(c, j) == 3 for _, c in clusters for j in c if j != "evaluator"), "every training task counts 3 workers") & holds(multi_worker_util.is_chief(clusters[1][1], "evaluator", 0) and multi_worker_util.worker_count(clusters[1][1], "evaluator") == 1, "the evaluator is its own chief and trains alone") -->

# %% [markdown] lang="zh"
# 指南把 chief 称为“索引为 0 的工作进程”，是因为在没有 `"chief"` 作业时，情况正是如此。有了 `"chief"` 作业，`worker 0` 就**不是** chief 了：它的排名是 1。
#
# ## 3. 自动为每台机器生成 TF_CONFIG
#
# 两台机器时手写 `TF_CONFIG` 很容易；到了十台，就很容易出错。`sim.launch.tf_configs` 根据对集群的描述来生成它们：`describe` 构建 `"cluster"` 部分，`print_commands` 为每台机器打印启动其任务的命令。给出教程中的两台主机，它打印出的正是教程里的那两行命令，一字不差：<!-- claim chief_rules -->

# %% [markdown] lang="pt"
# O guia chama o chefe de "o worker com índice 0" porque, sem um job `"chief"`, é exatamente isso
# que ele é. Com um job `"chief"`, o `worker 0` **não** é o chefe: a posição dele é 1.
#
# ## 3. O TF_CONFIG de cada máquina, escrito para você
#
# Com duas máquinas, escrever o `TF_CONFIG` à mão é fácil; com dez, é assim que os erros aparecem.
# O `sim.launch.tf_configs` os escreve a partir de uma descrição do cluster: `describe` monta a parte
# `"cluster"`, e `print_commands` imprime, para cada máquina, a linha que inicia a tarefa dela. Com
# os dois hosts do tutorial, ele imprime as duas linhas do tutorial, caractere por caractere:
# <!-- claim chief_rules -->

# %%
from sim.launch import tf_configs

cluster = tf_configs.describe(workers=["10.1.10.58", "10.1.10.250"])
tf_configs.print_commands(cluster, "worker.py")

# %% [markdown] lang="en"
# The JSON is what real TensorFlow reads: paste a line into a shell on that machine and the
# script starts as that task. A bigger cluster, with a chief and an evaluator (ports are
# numbered from 12345 when a host appears twice, here `localhost`):

# %% [markdown] lang="zh"
# 这段 JSON 正是真实的 TensorFlow 读取的格式：把某一行粘贴到那台机器的 shell 中，脚本就会作为那个任务启动。下面是一个更大的集群，带有 chief 和评估器（同一台主机出现多次时，端口从 12345 开始依次编号，这里是 `localhost`）：

# %% [markdown] lang="pt"
# O JSON é o que o TensorFlow de verdade lê: cole uma linha em um shell daquela máquina e o script
# começa como aquela tarefa. Um cluster maior, com um chefe e um avaliador (quando um host aparece
# mais de uma vez, as portas são numeradas a partir de 12345; aqui, `localhost`):

# %%
cluster = tf_configs.describe(workers=2, chief=True, evaluator=True)
print(cluster)
for task in tf_configs.tasks(cluster):
    print(f"{task.task_type} {task.index}: {task.json}")

# %% [markdown] lang="en"
# The evaluator's `TF_CONFIG` holds only its own job, and the training tasks leave it out of
# theirs: it evaluates checkpoints on the side and never joins the training's all-reduce.
#
# ## 4. The mistakes, and what they say
#
# Four classics: a Python dict pasted where JSON was expected (single quotes), an index past the
# end of its job, two chiefs, and a `"ps"` job (parameter servers belong to
# `ParameterServerStrategy`, not to this strategy). The first three fail when the strategy starts,
# on every machine; the simulator checks `TF_CONFIG` as TensorFlow reads it, and each message starts
# with TensorFlow's own error, then names the field at fault and ends with a corrected `TF_CONFIG`,
# built from yours. The fourth TensorFlow does **not** reject: `MultiWorkerMirroredStrategy()`
# raises nothing and waits, silently and for ever, for the `"ps"` task to join (checked on
# TensorFlow 2.21). The simulator stops there instead, with a message of its own that says so.
# <!-- claim ports_and_evaluator: holds([a.split(":")[1] for job in ("chief", "worker", "evaluator") for a in cluster[job]] == ["12345", "12346", "12347", "12348"], "ports numbered from 12345") & holds(all(("evaluator" in json.loads(task.json)["cluster"]) == (task.task_type == "evaluator") for task in tf_configs.tasks(cluster)), "only the evaluator lists the evaluator") & holds(list(json.loads([task for task in tf_configs.tasks(cluster) if task.task_type == "evaluator"][0].json)["cluster"]) == ["evaluator"], "the evaluator's TF_CONFIG holds only its own job") -->

# %% [markdown] lang="zh"
# 评估器的 `TF_CONFIG` 里只有它自己的作业，参与训练的任务的 `TF_CONFIG` 里也不包含它：它在一旁评估检查点，从不参与训练中的全归约。
#
# ## 4. 常见错误及其提示
#
# 四个典型错误：在需要 JSON 的地方粘贴了 Python 字典（单引号）、索引超出了作业的范围、两个 chief，以及一个 `"ps"` 作业（参数服务器属于 `ParameterServerStrategy`，不属于这个策略）。前三个会在策略启动时、在每台机器上报错；模拟器按照 TensorFlow 读取 `TF_CONFIG` 的方式进行检查，每条信息都先给出 TensorFlow 自己的错误，然后指出出错的字段，最后给出一份根据你的配置修改好的 `TF_CONFIG`。第四个 TensorFlow **不会**拒绝：`MultiWorkerMirroredStrategy()` 不报任何错误，而是一声不响地一直等待那个 `"ps"` 任务加入（已在 TensorFlow 2.21 上验证）。模拟器则在这里停下，给出一条它自己的信息，说明这一点。<!-- claim ports_and_evaluator -->

# %% [markdown] lang="pt"
# O `TF_CONFIG` do avaliador contém só o job dele, e as tarefas de treinamento o deixam de fora
# dos seus: ele avalia checkpoints à parte e nunca participa do all-reduce do treinamento.
#
# ## 4. Os erros e o que eles dizem
#
# Quatro clássicos: um dict do Python colado onde se esperava JSON (aspas simples), um índice que
# passa do fim da lista do seu job, dois chefes e um job `"ps"` (servidores de parâmetros são da
# `ParameterServerStrategy`, não desta estratégia). Os três primeiros geram um erro quando a
# estratégia é iniciada, em todas as máquinas; o simulador verifica o `TF_CONFIG` do jeito que o
# TensorFlow o lê, e cada mensagem começa com o erro do próprio TensorFlow, depois aponta o campo
# com problema e termina com um `TF_CONFIG` corrigido, montado a partir do seu. O quarto o
# TensorFlow **não** recusa: a `MultiWorkerMirroredStrategy()` não gera erro e fica esperando, em
# silêncio e para sempre, que a tarefa `"ps"` entre (verificado no TensorFlow 2.21). O simulador
# para aí, com uma mensagem própria que diz isso.
# <!-- claim ports_and_evaluator -->

# %%
two_workers = {"worker": ["10.1.10.58:12345", "10.1.10.250:12345"]}
mistakes = [
    str({"cluster": two_workers, "task": {"type": "worker", "index": 0}}),
    json.dumps({"cluster": two_workers, "task": {"type": "worker", "index": 2}}),
    json.dumps({"cluster": {"chief": ["10.1.10.57:12345", "10.1.10.58:12345"], "worker": ["10.1.10.250:12345"]},
                "task": {"type": "chief", "index": 1}}),
    json.dumps({"cluster": {**two_workers, "ps": ["10.1.10.99:12345"]}, "task": {"type": "worker", "index": 1}}),
]
errors = []
for text in mistakes:
    os.environ["TF_CONFIG"] = text
    try:
        tf.distribute.MultiWorkerMirroredStrategy()
    except ValueError as error:
        errors.append(error)
        print(f"{type(error).__name__}: {error}\n")

# %% [markdown] lang="en"
# The first error is a `json.JSONDecodeError`, exactly what TensorFlow raises there (it is a
# `ValueError`). `str(dict)` writes single quotes; `json.dumps(dict)` writes JSON.
#
# ## 5. Auto-sharding: who reads what
#
# Every worker runs the same input pipeline. Without care, every worker would train on the whole
# dataset, and an epoch would show each example once per worker. So, as each worker builds its
# iterator, the strategy rewrites its pipeline to keep only that worker's share: **auto-sharding**,
# set by `options.experimental_distribute.auto_shard_policy`:
#
# - `FILE`: the *files* are divided: worker `w` reads files `w`, `w + W`, `w + 2W`...; each file is
#   read by one worker only, so nobody reads what it throws away;
# - `DATA`: every worker reads *everything* and keeps every `W`-th element, starting at its own
#   index;
# - `AUTO` (the default): `FILE` if the pipeline reads files, otherwise `DATA`;
# - `OFF`: no sharding; every worker sees every example.
#
# To see it, write 16 numbered examples into 4 TFRecord files with `tf.io.TFRecordWriter`, then
# read them back the way an input pipeline does: `list_files`, then one `TFRecordDataset` per file.
# <!-- claim four_mistakes: holds(len(errors) == 4 and type(errors[0]).__name__ == "JSONDecodeError" and isinstance(errors[0], ValueError), "four errors; the first a JSONDecodeError, a ValueError") & holds(str(errors[1]).startswith("The `task_id` 2 exceeds the maximum id of worker.") and str(errors[2]).startswith("There must be at most one 'chief' job."), "the next two start with TensorFlow's text") -->

# %% [markdown] lang="zh"
# 第一个错误是 `json.JSONDecodeError`，这正是 TensorFlow 在这里抛出的错误（它是 `ValueError` 的子类）。`str(dict)` 输出的是单引号，`json.dumps(dict)` 输出的才是 JSON。
#
# ## 5. 自动分片：谁读取哪些数据
#
# 每个工作进程运行的是同一条输入流水线。如果不加处理，每个工作进程都会用整个数据集训练，一个周期（epoch）里每个样本会被每个工作进程各用一次。因此，在每个工作进程创建迭代器时，策略会改写它的流水线，只保留属于这个工作进程的那一份：这就是**自动分片**，由 `options.experimental_distribute.auto_shard_policy` 设置：
#
# - `FILE`：按*文件*划分：工作进程 `w` 读取第 `w`、`w + W`、`w + 2W`……个文件；每个文件只被一个工作进程读取，谁都不会读到自己要丢弃的数据；
# - `DATA`：每个工作进程都读取*全部*数据，从自己的索引开始每隔 `W` 个元素保留一个；
# - `AUTO`（默认）：流水线读取文件时用 `FILE`，否则用 `DATA`；
# - `OFF`：不分片；每个工作进程都能看到所有样本。
#
# 为了看清楚，我们用 `tf.io.TFRecordWriter` 把 16 个编了号的样本写进 4 个 TFRecord 文件，再像输入流水线那样读回来：先 `list_files`，再为每个文件创建一个 `TFRecordDataset`。<!-- claim four_mistakes -->

# %% [markdown] lang="pt"
# O primeiro erro é um `json.JSONDecodeError`, exatamente o que o TensorFlow lança ali (ele é um
# `ValueError`). `str(dict)` escreve aspas simples; `json.dumps(dict)` escreve JSON.
#
# ## 5. Fragmentação automática: quem lê o quê
#
# Todos os workers executam o mesmo pipeline de entrada. Se nada fosse feito, cada worker treinaria com o
# dataset inteiro, e uma época mostraria cada exemplo uma vez por worker. Por isso, quando cada
# worker monta o seu iterador, a estratégia reescreve o pipeline dele para ficar só com a sua
# parte: é a **fragmentação automática**, definida por
# `options.experimental_distribute.auto_shard_policy`:
#
# - `FILE`: os *arquivos* são divididos: o worker `w` lê os arquivos `w`, `w + W`, `w + 2W`...;
#   cada arquivo é lido por um único worker, e ninguém lê o que vai descartar;
# - `DATA`: cada worker lê *tudo* e fica com um elemento a cada `W`, a partir do seu próprio
#   índice;
# - `AUTO` (o padrão): `FILE` se o pipeline lê arquivos; senão, `DATA`;
# - `OFF`: sem fragmentação; cada worker vê todos os exemplos.
#
# Para ver isso, escreva 16 exemplos numerados em 4 arquivos TFRecord com `tf.io.TFRecordWriter` e
# depois leia-os de volta como um pipeline de entrada faz: `list_files` e um `TFRecordDataset` por
# arquivo.
# <!-- claim four_mistakes -->

# %%
import tempfile

folder = tempfile.TemporaryDirectory()
for k in range(4):
    with tf.io.TFRecordWriter(os.path.join(folder.name, f"part-{k}.tfrecord")) as writer:
        for example in range(4 * k, 4 * k + 4):
            writer.write(np.int64(example).tobytes())

def parse(record):
    return tf.io.decode_raw(record, tf.int64)[0]

files = tf.data.Dataset.list_files(os.path.join(folder.name, "*.tfrecord"), seed=0)
from_files = files.interleave(tf.data.TFRecordDataset, cycle_length=1).map(parse)
order = [int(v) for v in from_files.as_numpy_iterator()]
print(order)

# %% [markdown] lang="en"
# `list_files` shuffled the 4 files (with `seed=0`), so the examples come file by file in that
# order. The order is the simulator's own: TensorFlow's shuffle, with the same seed, picks another
# permutation (files 0, 2, 1, 3 on TensorFlow 2.21) and reshuffles at every pass; nothing below
# depends on it. Now what each of 2 workers would read, for each policy. `sim.course.plots.sharding.who_reads`
# applies, for each worker in turn, the same rewrite that `MultiWorkerMirroredStrategy` applies on
# that worker's machine:
# <!-- claim file_by_file: holds(sorted(order) == list(range(16)) and all(len({x // 4 for x in order[i:i + 4]}) == 1 for i in range(0, 16, 4)), "16 examples, file by file") -->

# %% [markdown] lang="zh"
# `list_files` 打乱了这 4 个文件的顺序（`seed=0`），所以样本按这个顺序逐个文件地出现。这个顺序是模拟器自己的：TensorFlow 的打乱在同样的随机种子下会给出另一种排列（在 TensorFlow 2.21 上是文件 0、2、1、3），而且每遍历一次就重新打乱一次；下面的内容都不依赖于它。下面看看在每种分片策略下，2 个工作进程各自会读到什么。`sim.course.plots.sharding.who_reads` 依次为每个工作进程应用 `MultiWorkerMirroredStrategy` 在该工作进程所在机器上所做的同一种改写：<!-- claim file_by_file -->

# %% [markdown] lang="pt"
# `list_files` embaralhou os 4 arquivos (com `seed=0`), então os exemplos chegam arquivo por
# arquivo nessa ordem. A ordem é a do próprio simulador: o embaralhamento do TensorFlow, com a mesma
# semente, escolhe outra permutação (arquivos 0, 2, 1, 3 no TensorFlow 2.21) e embaralha de novo a
# cada passagem; nada do que vem abaixo depende dela. Agora veja o que cada um dos 2 workers leria em cada política. O
# `sim.course.plots.sharding.who_reads` aplica, para cada worker por vez, a mesma reescrita que a
# `MultiWorkerMirroredStrategy` aplica na máquina daquele worker:
# <!-- claim file_by_file -->

# %%
from sim.distribute.auto_shard import applied_policy
from sim.course.plots import setup_fonts, sharding

Policy = tf.data.experimental.AutoShardPolicy

def with_policy(dataset, policy):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = policy
    return dataset.with_options(options)

in_memory = tf.data.Dataset.range(16)
print(t("lesson06.auto_means", source="list_files + TFRecordDataset", policy=applied_policy(from_files, 2).name))
print(t("lesson06.auto_means", source="Dataset.range(16)", policy=applied_policy(in_memory, 2).name))
panels = []
for policy in (Policy.FILE, Policy.DATA, Policy.OFF):
    streams = sharding.who_reads(with_policy(from_files, policy), 2)
    panels.append((t("lesson06.plot_title_" + policy.name.lower()), streams))
    for worker, examples in enumerate(streams):
        print(t("lesson06.reads", policy=policy.name, worker=worker, examples=examples))

# %% [markdown] lang="en"
# Under `FILE` worker 0 reads two whole files and worker 1 the two others, each in its own
# shuffled order: the rewrite shards the sorted list of files *first*, then shuffles each worker's
# share, so the two workers never pick the same file even though `list_files` shuffles. Under
# `DATA` both read all 16 examples and each keeps every other one. Under `OFF` both train on
# everything: twice the work for the same epoch.
# <!-- claim shard_policies: holds(applied_policy(from_files, 2).name == "FILE" and applied_policy(in_memory, 2).name == "DATA", "AUTO: FILE on files, DATA in memory") & holds(all(len(s) == 8 and len({x // 4 for x in s}) == 2 for s in panels[0][1]) and sorted(panels[0][1][0] + panels[0][1][1]) == list(range(16)), "FILE: two whole files each, none shared") & holds(panels[1][1] == [order[0::2], order[1::2]], "DATA: each keeps every other example") & holds(all(s == order for s in panels[2][1]), "OFF: both read all 16") -->

# %% [markdown] lang="zh"
# 在 `FILE` 下，worker 0 读取两个完整的文件，worker 1 读取另外两个，各自的顺序是打乱过的：改写*先*对排好序的文件列表分片，再打乱每个工作进程自己的那一份，所以即使 `list_files` 会打乱顺序，两个工作进程也绝不会选中同一个文件。在 `DATA` 下，两者都读取全部 16 个样本，各自隔一个保留一个。在 `OFF` 下，两者都用全部数据训练：每个周期的工作量变为原来的 2 倍。<!-- claim shard_policies -->

# %% [markdown] lang="pt"
# Com `FILE`, o worker 0 lê dois arquivos inteiros e o worker 1 os outros dois, cada um na sua
# própria ordem embaralhada: a reescrita fragmenta *primeiro* a lista ordenada de arquivos e só
# depois embaralha a parte de cada worker, então os dois workers nunca escolhem o mesmo arquivo,
# mesmo com o `list_files` embaralhando. Com `DATA`, os dois leem os 16 exemplos e cada um fica com
# um a cada dois. Com `OFF`, os dois treinam com tudo: o dobro do trabalho para a mesma época.
# <!-- claim shard_policies -->

# %%
setup_fonts()
sharding.draw(panels, 16)
plt.tight_layout()
plt.show()

# %% [markdown] lang="en"
# `FILE` needs at least one file per worker. With 4 files and 8 workers, the rewrite has nothing
# to give to half of them. TensorFlow then raises on the four workers that do get a file, at their
# first read (its message counts the files that worker went through: 1 for worker 0), while
# workers 4 to 7 read nothing, without an error. Worker 0:

# %% [markdown] lang="zh"
# `FILE` 要求每个工作进程至少分到一个文件。4 个文件、8 个工作进程时，改写没法给其中一半的工作进程分配任何东西。这时，分到了文件的 4 个工作进程会在第一次读取时报错（信息里的文件数是这个工作进程已经遍历过的文件数：worker 0 是 1），而 worker 4 到 7 什么也读不到，也不报错。下面是 worker 0：

# %% [markdown] lang="pt"
# `FILE` precisa de pelo menos um arquivo por worker. Com 4 arquivos e 8 workers, a reescrita não
# tem nada para dar à metade deles. O TensorFlow então gera um erro nos quatro workers que recebem um
# arquivo, na primeira leitura (a mensagem conta os arquivos que aquele worker percorreu: 1 para o
# worker 0), enquanto os workers 4 a 7 não leem nada, sem erro nenhum. O worker 0:

# %%
try:
    sharding.who_reads(from_files, 8)
except tf.errors.InvalidArgumentError as error:
    file_error = error
    print(f"InvalidArgumentError: {error}")

# %% [markdown] lang="en"
# With `MultiWorkerMirroredStrategy` the `DATA` shard is taken after the global batch is cut into
# per-replica batches: with 2 workers of 2 GPUs, `range(7).batch(7)` becomes the slices `[0 1]`,
# `[2 3]`, `[4 5]`, `[6]`, and worker `w` keeps slices `w` and `w + 2`, so worker 0's two replicas
# get `[0 1]` and `[4 5]`, worker 1's get `[2 3]` and `[6]`.
# <!-- claim file_error_counts: holds("only has 1 file(s)" in str(file_error), "worker 0's message counts 1 file") -->

# %% [markdown] lang="zh"
# 在 `MultiWorkerMirroredStrategy` 下，`DATA` 分片发生在全局批次被切成每个副本的批次之后：2 个工作进程、每个有 2 个 GPU 时，`range(7).batch(7)` 被切成 `[0 1]`、`[2 3]`、`[4 5]`、`[6]` 这几片，工作进程 `w` 保留第 `w` 片和第 `w + 2` 片，所以 worker 0 的两个副本得到 `[0 1]` 和 `[4 5]`，worker 1 的两个副本得到 `[2 3]` 和 `[6]`。<!-- claim file_error_counts -->

# %% [markdown] lang="pt"
# Com a `MultiWorkerMirroredStrategy`, a fragmentação `DATA` acontece depois que o lote global é dividido em lotes por réplica: com 2 workers de 2 GPUs, `range(7).batch(7)` vira as fatias
# `[0 1]`, `[2 3]`, `[4 5]`, `[6]`, e o worker `w` fica com as fatias `w` e `w + 2`; assim, as duas
# réplicas do worker 0 recebem `[0 1]` e `[4 5]`, e as do worker 1 recebem `[2 3]` e `[6]`.
# <!-- claim file_error_counts -->

# %%
from sim.distribute.auto_shard import auto_shard, dataset_of_batches
from sim.distribute.rebatch import legacy_split

def per_replica_batches(dataset, replicas=4):
    def slices():
        for parts in legacy_split(iter(dataset), replicas):
            yield from parts
    return dataset_of_batches(slices, dataset)

batched = tf.data.Dataset.range(7).batch(7)
data_shards = []
for worker in range(2):
    got = [b.tolist() for b in auto_shard(batched, 2, worker, rebatch=per_replica_batches).as_numpy_iterator()]
    data_shards.append(got)
    print(t("lesson06.replicas_get", worker=worker, first=got[0], second=got[1]))
folder.cleanup()
del os.environ["TF_CONFIG"]

# %% [markdown] lang="en"
# ## 6. Launching the workers
#
# On a real cluster you would log into each machine and run the same command there with that
# machine's `TF_CONFIG` (section 3). The course launcher does exactly that on this computer: one
# operating-system process per task, each with its own `TF_CONFIG` in its environment, meeting
# through a simulated network on the loopback interface. The script is not edited and learns its
# role only from `TF_CONFIG`. From a shell:
#
# ```
# python -m sim launch --workers 2 --gpus-per-worker 2 train.py BACKUP_DIR WEIGHTS_FILE
# ```
#
# and from a notebook, `sim.launch.launch(...)`, which returns each task's exit status and output.
# The script below trains a small Keras model with `Model.fit`. It creates the strategy **first**:
# TensorFlow configures its collective operations when the strategy is created and refuses if any
# other TensorFlow operation ran before ("Collective ops must be configured at program startup").
# Its `BackupAndRestore` callback is for section 8.
# <!-- claim data_after_split: holds(data_shards == [[[0, 1], [4, 5]], [[2, 3], [6]]], "worker 0 gets [0 1] and [4 5], worker 1 [2 3] and [6]") -->

# %% [markdown] lang="zh"
# ## 6. 启动工作进程
#
# 在真实的集群上，你需要登录每台机器，用那台机器的 `TF_CONFIG` 运行同一条命令（第 3 节）。课程的启动器在这台计算机上做的正是这件事：每个任务一个操作系统进程，每个进程的环境里有自己的 `TF_CONFIG`，它们通过回环接口上的模拟网络相互连接。脚本不需要修改，只从 `TF_CONFIG` 得知自己的角色。在 shell 中：
#
# ```
# python -m sim launch --workers 2 --gpus-per-worker 2 train.py BACKUP_DIR WEIGHTS_FILE
# ```
#
# 在笔记本中则用 `sim.launch.launch(...)`，它会返回每个任务的退出状态和输出。下面的脚本用 `Model.fit` 训练一个小型 Keras 模型。它**首先**创建策略：TensorFlow 在创建策略时配置集合通信，如果在此之前已经运行过任何其他 TensorFlow 操作，就会拒绝（“Collective ops must be configured at program startup”）。其中的 `BackupAndRestore` 回调是为第 8 节准备的。<!-- claim data_after_split -->

# %% [markdown] lang="pt"
# ## 6. Iniciando os workers
#
# Em um cluster de verdade, você entraria em cada máquina e executaria nela o mesmo comando com o
# `TF_CONFIG` daquela máquina (seção 3). O launcher do curso faz exatamente isso neste
# computador: um processo do sistema operacional por tarefa, cada um com o seu `TF_CONFIG` no
# ambiente, conectados por uma rede simulada na interface de loopback. O script não é editado e
# descobre o seu papel apenas pelo `TF_CONFIG`. Em um shell:
#
# ```
# python -m sim launch --workers 2 --gpus-per-worker 2 train.py BACKUP_DIR WEIGHTS_FILE
# ```
#
# e, em um notebook, `sim.launch.launch(...)`, que retorna o código de saída e a saída de cada
# tarefa. O script abaixo treina um pequeno modelo Keras com `Model.fit`. Ele cria a estratégia
# **primeiro**: o TensorFlow configura as suas operações coletivas quando a estratégia é criada e
# se recusa a fazê-lo se alguma outra operação do TensorFlow já tiver sido executada ("Collective
# ops must be configured at program startup"). O callback `BackupAndRestore` é para a seção 8.
# <!-- claim data_after_split -->

# %%
TRAIN_PY = """\
import sys

import numpy as np
import sim.tf as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()   # first, before any other TensorFlow op
backup_dir, weights_file = sys.argv[1], sys.argv[2]

rng = np.random.RandomState(0)
x = rng.randn(64, 8).astype("float32")
y = (x @ rng.randn(8, 1)).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)   # global batch: 16

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu", input_shape=(8,)),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")

say_epoch = tf.keras.callbacks.LambdaCallback(on_epoch_begin=lambda epoch, logs: print("epoch", epoch))
model.fit(dataset, epochs=3, verbose=0,
          callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir), say_epoch])
print("replicas:", strategy.num_replicas_in_sync, "| chief:", strategy.extended.should_checkpoint)
if strategy.extended.should_checkpoint:
    np.savez(weights_file, *[v.numpy() for v in model.weights])
"""

from sim.i18n import get_language
from sim.launch import launch

course_language = {"SIM_LANG": get_language()}     # the launcher speaks the course language (the script prints what it says)
work = tempfile.TemporaryDirectory()
script = os.path.join(work.name, "train.py")
with open(script, "w") as f:
    f.write(TRAIN_PY)

straight = launch(script, [os.path.join(work.name, "backup_a"), os.path.join(work.name, "straight.npz")],
                  workers=2, gpus_per_worker=2, env=course_language, echo=False)
print(straight.output)
print(t("lesson06.cluster_clock", ms=max(e.end for e in straight.trace) * 1e3))

# %% [markdown] lang="en"
# Each line comes prefixed by its task, like a cluster's logs. Both workers trained the same 3
# epochs, on 4 replicas in sync (2 workers × 2 GPUs), and only worker 0 is the chief (there is
# no `"chief"` job), so only it saved the weights. The two processes also shared one simulated
# clock, so the run's simulated time includes every cross-host all-reduce.
#
# ## 7. RING or NCCL between machines
#
# `tf.distribute.experimental.CommunicationOptions(implementation=...)` chooses how the gradients
# cross the network. `RING` is TensorFlow's own ring all-reduce: its traffic between machines goes
# through the hosts, out of one network interface per machine. `NCCL` runs NVIDIA's library: on
# GPUs it runs several rings at once ("channels"), each leaving a machine through its own network
# card. Whether that matters depends on the machines. Here is one synchronous step of a
# ResNet-50-sized model (25.6 M parameters, about 100 MB of gradients) on 2 machines × 4 GPUs,
# with `sim.course.plots.cluster_step`, which uses the same simulated cluster as the launcher: two DGX
# A100 nodes (8 InfiniBand cards each), then two workstations on 10 Gb Ethernet (one card each).
# <!-- claim launched_run: holds(all(task.output.count("epoch ") == 3 for task in straight.tasks), "each worker trained 3 epochs") & holds(straight.output.count("replicas: 4") == 2 and "[worker 0] replicas: 4 | chief: True" in straight.output and straight.output.count("chief: True") == 1, "4 replicas in sync; worker 0 alone is the chief") -->

# %% [markdown] lang="zh"
# 每一行前面都标有它所属的任务，就像集群的日志一样。两个工作进程都训练了同样的 3 个周期，共有 4 个同步副本（2 个工作进程 × 2 个 GPU）；由于没有 `"chief"` 作业，只有 worker 0 是 chief，所以只有它保存了权重。这两个进程还共用一个模拟时钟，因此这次运行的模拟时间包含了每一次跨主机的全归约。
#
# ## 7. 机器之间用 RING 还是 NCCL
#
# `tf.distribute.experimental.CommunicationOptions(implementation=...)` 决定梯度如何穿过网络。`RING` 是 TensorFlow 自己的环形全归约：机器之间的流量经过主机，从每台机器的一个网络接口发出。`NCCL` 使用 NVIDIA 的库：在 GPU 上它会同时运行多个环（即“通道”），每个环通过各自的网卡离开机器。这是否有影响取决于机器。下面用 `sim.course.plots.cluster_step`（它使用与启动器相同的模拟集群）模拟一个 ResNet-50 大小的模型（2560 万个参数，约 100 MB 的梯度）在 2 台机器 × 4 个 GPU 上的一步同步训练：先是两个 DGX A100 节点（每个节点有 8 块 InfiniBand 网卡），然后是两台通过 10 Gb 以太网连接的工作站（每台一块网卡）。<!-- claim launched_run -->

# %% [markdown] lang="pt"
# Cada linha vem com o prefixo da sua tarefa, como nos logs de um cluster. Os dois workers
# treinaram as mesmas 3 épocas, com 4 réplicas sincronizadas (2 workers × 2 GPUs), e só o worker
# 0 é o chefe (não há job `"chief"`), então só ele salvou os pesos. Os dois processos também
# compartilharam um único relógio simulado, então o tempo simulado da execução inclui cada
# all-reduce entre hosts.
#
# ## 7. RING ou NCCL entre máquinas
#
# `tf.distribute.experimental.CommunicationOptions(implementation=...)` escolhe como os gradientes
# atravessam a rede. `RING` é o all-reduce em anel do próprio TensorFlow: o tráfego entre máquinas
# passa pelos hosts e sai por uma interface de rede por máquina. `NCCL` usa a biblioteca da
# NVIDIA: em GPUs, ela executa vários anéis ao mesmo tempo ("canais"), cada um saindo da máquina
# pela sua própria placa de rede. Se isso faz diferença depende das máquinas. Eis um passo
# síncrono de um modelo do tamanho de uma ResNet-50 (25,6 milhões de parâmetros, cerca de 100 MB
# de gradientes) em 2 máquinas × 4 GPUs, com `sim.course.plots.cluster_step`, que usa o mesmo cluster
# simulado que o launcher: dois nós DGX A100 (8 placas InfiniBand cada), depois duas
# estações de trabalho em Ethernet de 10 Gb (uma placa cada).
# <!-- claim launched_run -->

# %% slide="figure"
from sim.course.plots import cluster_step

steps = {}
fig, axes = plt.subplots(2, 2, figsize=(12, 6), layout="constrained")
for row, network in enumerate(("dgx-a100", "workstation-4gpu")):
    for col, implementation in enumerate(("RING", "NCCL")):
        step = steps[network, implementation] = cluster_step.cluster_step(2, 4, network, implementation)
        line = cluster_step.summary(step, 2, 4, network, implementation)
        print(line)
        cluster_step.draw(step, ax=axes[row, col], title=cluster_step.short_title(network, implementation))
plt.show()

# %% [markdown] lang="en"
# On the DGX nodes each GPU has its own network card, so NCCL runs 4 channels, one through the
# card of each GPU in use, and the all-reduce takes about a quarter of the single ring's time. On the workstations there is only one card per machine, so the
# two are the same, and the 10 Gb link takes far longer than the computation itself: adding
# machines there makes each step *slower*. The network decides before the GPUs do.
#
# ## 8. A worker fails; the same command resumes
#
# On a cluster a machine can fail in the middle of training. All-reduce waits for everyone, so
# one lost worker stops them all: the other workers' collective operations are aborted with an
# error that names the failed task. Below, the launcher kills worker 1 at its 6th training step
# (epoch 1, after epoch 0 was backed up). Then we run **the same command again**:
# `BackupAndRestore` finds the backup and training resumes at epoch 1.
# <!-- claim ring_vs_nccl: between(steps["dgx-a100", "NCCL"].allreduce_seconds / steps["dgx-a100", "RING"].allreduce_seconds, 0.2, 0.3) & about(steps["workstation-4gpu", "NCCL"].allreduce_seconds, steps["workstation-4gpu", "RING"].allreduce_seconds, rel=1e-9) & above(steps["workstation-4gpu", "RING"].allreduce_seconds, steps["workstation-4gpu", "RING"].compute_seconds, by=2) & above(steps["workstation-4gpu", "RING"].step_seconds, cluster_step.cluster_step(1, 4, "workstation-4gpu", "RING").step_seconds) -->

# %% [markdown] lang="zh"
# 在 DGX 节点上，每个 GPU 都有自己的网卡，所以 NCCL 运行 4 个通道，每个通道经过一个正在使用的 GPU 的网卡，全归约的时间大约只有单环的四分之一。在工作站上每台机器只有一块网卡，所以两者相同，而且 10 Gb 链路花的时间远远超过计算本身：在那里增加机器反而会让每一步*更慢*。网络比 GPU 更早成为瓶颈。
#
# ## 8. 一个工作进程出故障；再次运行同一条命令即可恢复
#
# 在集群上，某台机器可能在训练中途出故障。全归约要等所有参与者，所以丢失一个工作进程就会让所有工作进程停下来：其他工作进程的集合通信会被中止，错误信息会指明是哪个任务出了故障。下面，启动器在 worker 1 的第 6 个训练步（第 1 个周期，此时第 0 个周期已经备份）杀死它。然后我们**再次运行同一条命令**：`BackupAndRestore` 找到备份，训练从第 1 个周期继续。<!-- claim ring_vs_nccl -->

# %% [markdown] lang="pt"
# Nos nós DGX, cada GPU tem a sua própria placa de rede, então o NCCL executa 4 canais, um pela
# placa de cada GPU em uso, e o all-reduce leva cerca de um quarto do tempo do anel único. Nas estações de trabalho só há uma placa por máquina, então os
# dois são iguais, e o enlace de 10 Gb demora muito mais do que o próprio cálculo: ali, acrescentar
# máquinas deixa cada passo *mais lento*. Quem limita primeiro é a rede, não as GPUs.
#
# ## 8. Um worker falha; o mesmo comando retoma o treinamento
#
# Em um cluster, uma máquina pode falhar no meio do treinamento. O all-reduce espera por todos,
# então a perda de um worker faz todos pararem: as operações coletivas dos outros workers são
# abortadas com um erro que nomeia a tarefa que falhou. Abaixo, o launcher mata o worker 1 no
# seu 6º passo de treinamento (época 1, depois do backup da época 0). Em seguida executamos **o
# mesmo comando de novo**: o `BackupAndRestore` encontra o backup e o treinamento é retomado na
# época 1.
# <!-- claim ring_vs_nccl -->

# %%
command = [script, [os.path.join(work.name, "backup_b"), os.path.join(work.name, "resumed.npz")]]
crashed = launch(*command, workers=2, gpus_per_worker=2, fail_at=("worker", 1, 6), env=course_language,
                 echo=False)
print(t("lesson06.launch_status", code=crashed.returncode, failed=crashed.failed, reason=crashed.reason))
for task in crashed.tasks:
    print(f"[{task.name}] {task.output.splitlines()[-1]}")
print()
resumed = launch(*command, workers=2, gpus_per_worker=2, env=course_language, echo=False)
print(resumed.output)
straight_weights = np.load(os.path.join(work.name, "straight.npz"))
resumed_weights = np.load(os.path.join(work.name, "resumed.npz"))
same = all(np.array_equal(straight_weights[k], resumed_weights[k]) for k in straight_weights.files)
print(t("lesson06.same_weights", same=t("lesson06.yes" if same else "lesson06.no")))

# %% [markdown] lang="en"
# The second run trained epochs 1 and 2 only, and its final weights are exactly those of the
# uninterrupted run of section 6: no completed epoch was lost or repeated. The backups went where
# tf-keras (Keras 2) puts them: the chief writes `backup_dir/chief`, every other worker writes a
# temporary `workertemp_<index>` folder and deletes it (every worker must save, only the chief's
# copy is kept). Keras 3 lays them out another way: every worker writes
# `backup_dir/latest.weights.h5` and `training_metadata.json`, with no chief/worker split. The
# simulator writes tf-keras's layout under both versions; the weights and the epoch it resumes
# from are the same.
#
# ## 9. For the classroom: the cluster's timeline, live
#
# Move the sliders: more workers, more GPUs per worker, another network, RING or NCCL. Each change
# redraws one step's timeline with the function of section 7. (The widget needs a running
# kernel; the figure below it is the same picture for 2 DGX A100 nodes, for when it does not.)
# <!-- claim resumed_same: holds(crashed.returncode == 1 and str(crashed.failed) == "worker 1" and "6" in str(crashed.reason), "worker 1 stopped at step 6") & holds("epoch 0" not in resumed.output and resumed.output.count("epoch 1") == 2 and resumed.output.count("epoch 2") == 2, "the second run trained epochs 1 and 2 only") & holds(same, "the resumed weights equal the uninterrupted run's") -->

# %% [markdown] lang="zh"
# 第二次运行只训练了第 1 和第 2 个周期，它最终的权重与第 6 节中不间断运行的权重完全相同：没有丢失任何已完成的周期，也没有重复任何周期。备份文件按 tf-keras（Keras 2）的布局存放：chief 写入 `backup_dir/chief`，其他每个工作进程写入一个临时文件夹 `workertemp_<index>` 并随后删除（每个工作进程都必须保存，但只保留 chief 的那一份）。Keras 3 的布局不同：每个工作进程都写入 `backup_dir/latest.weights.h5` 和 `training_metadata.json`，不区分 chief 和其他工作进程。模拟器在两个版本下都按 tf-keras 的布局写入；恢复出的权重和继续训练的周期都相同。
#
# ## 9. 课堂演示：实时查看集群的时间线
#
# 拖动滑块：更多的工作进程、每个工作进程更多的 GPU、换一种机器、选 RING 或 NCCL。每次改动都会用第 7 节的函数重新绘制一步的时间线。（这个控件需要正在运行的内核；没有内核时，请看控件下方那张 2 个 DGX A100 节点的静态图，内容相同。）<!-- claim resumed_same -->

# %% [markdown] lang="pt"
# A segunda execução treinou só as épocas 1 e 2, e os pesos finais são exatamente os da execução
# sem interrupção da seção 6: nenhuma época concluída foi perdida ou repetida. Os backups foram
# para onde o tf-keras (Keras 2) os coloca: o chefe escreve em `backup_dir/chief`, e cada um dos
# outros workers escreve em uma pasta temporária `workertemp_<index>` e a apaga depois (todos os
# workers precisam salvar, mas só a cópia do chefe é mantida). O Keras 3 os organiza de outro
# jeito: cada worker escreve `backup_dir/latest.weights.h5` e `training_metadata.json`, sem
# distinção entre chefe e demais workers. O simulador usa a organização do tf-keras nas duas
# versões; os pesos restaurados e a época da retomada são os mesmos.
#
# ## 9. Para a sala de aula: a linha do tempo do cluster, ao vivo
#
# Mexa nos controles: mais workers, mais GPUs por worker, outra rede, RING ou NCCL. Cada mudança
# redesenha a linha do tempo de um passo com a função da seção 7. (O widget precisa de um kernel
# em execução; a figura abaixo dele é a mesma imagem para 2 nós DGX A100, para quando não houver
# um.)
# <!-- claim resumed_same -->

# %% tags=["nbval-ignore-output"] slide="demo"
from IPython.display import display

display(cluster_step.widget())

# %%
for workers in (1, 2, 4, 8):
    print(cluster_step.summary(cluster_step.cluster_step(workers, 8, "dgx-a100", "NCCL"),
                               workers, 8, "dgx-a100", "NCCL"))
step = cluster_step.cluster_step(2, 4, "dgx-a100", "NCCL")
fig, ax = plt.subplots(figsize=(10, 2.6), layout="constrained")
cluster_step.draw(step, ax=ax, title=cluster_step.summary(step, 2, 4, "dgx-a100", "NCCL"))
plt.show()
work.cleanup()

# %% [markdown] lang="en"
# ## What to remember
#
# - `TF_CONFIG` = `"cluster"` (the same everywhere) + `"task"` (this machine: job and index from 0).
#   Write it with `json.dumps`.
# - The chief saves checkpoints: the `"chief"` task if there is one, otherwise worker 0.
# - Auto-sharding decides who reads what: `FILE` divides files (at least one per worker), `DATA`
#   divides elements after the per-replica split, `OFF` divides nothing.
# - Create `MultiWorkerMirroredStrategy` first; start every task with the same script and its own
#   `TF_CONFIG`; on many network cards NCCL's channels beat the single ring, on one slow link
#   nothing helps.
# - One failed worker stops all of them; with `BackupAndRestore`, the same command resumes from the
#   last saved epoch.
# <!-- claim ring_vs_nccl -->
# <!-- claim resumed_same -->

# %% [markdown] lang="zh"
# ## 小结
#
# - `TF_CONFIG` = `"cluster"`（每台机器都相同）+ `"task"`（本机：所属作业和从 0 开始的索引）。用 `json.dumps` 来写。
# - 由首席工作进程（chief）保存检查点：有 `"chief"` 任务时就是它，否则是 worker 0。
# - 自动分片决定谁读什么：`FILE` 按文件划分（每个工作进程至少一个文件），`DATA` 在切成每个副本的批次之后按元素划分，`OFF` 不划分。
# - 首先创建 `MultiWorkerMirroredStrategy`；每个任务都用同一个脚本和各自的 `TF_CONFIG` 启动；网卡多时，NCCL 的通道胜过单环；只有一条慢速链路时，怎么做都无济于事。
# - 一个工作进程出故障，所有工作进程都会停下；有了 `BackupAndRestore`，再次运行同一条命令就会从最后保存的周期继续。<!-- claim ring_vs_nccl --><!-- claim resumed_same -->

# %% [markdown] lang="pt"
# ## Resumo
#
# - `TF_CONFIG` = `"cluster"` (igual em toda parte) + `"task"` (esta máquina: job e índice a partir
#   de 0). Escreva-o com `json.dumps`.
# - O chefe salva os checkpoints: a tarefa `"chief"`, se houver; senão, o worker 0.
# - A fragmentação automática decide quem lê o quê: `FILE` divide os arquivos (pelo menos um por
#   worker), `DATA` divide os elementos depois do corte em lotes por réplica, `OFF` não divide nada.
# - Crie a `MultiWorkerMirroredStrategy` primeiro; inicie cada tarefa com o mesmo script e o seu
#   próprio `TF_CONFIG`; com muitas placas de rede, os canais do NCCL vencem o anel único; com um
#   único enlace lento, nada ajuda.
# - Quando um worker falha, todos os outros param; com `BackupAndRestore`, o mesmo comando retoma o
#   treinamento a partir da última época salva.
# <!-- claim ring_vs_nccl -->
# <!-- claim resumed_same -->
