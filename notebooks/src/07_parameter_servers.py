# %% [markdown] lang="en"
# # 07 · Parameter servers and asynchronous training
#
# Every strategy so far was **synchronous**: all replicas finish a step, their gradients are
# combined, and only then does anyone go on. `ParameterServerStrategy` drops that rule. The
# variables live on **parameter servers** (job `ps`); each **worker** reads them, computes a
# gradient on its own batch and sends its update back, whenever it is ready. Nobody waits, so a
# slow machine no longer holds everyone up; but a worker's gradient may be computed on weights
# that other workers have changed in the meantime. This lesson makes that visible:
#
# 1. the cluster and where the variables go (round robin over the ps tasks, **shards**);
# 2. the **coordinator**: `schedule`, `RemoteValue`, `join`;
# 3. **staleness**, measured on every update, and what it does to convergence;
# 4. **stragglers**: synchronous, synchronous with backup workers, and asynchronous training in
#    time to a target loss;
# 5. a worker that fails, and a parameter server that fails;
# 6. a classroom demo.
#
# ## 1. The cluster
#
# The cell below is the tutorial's cluster set-up (ports fixed instead of picked). In TensorFlow
# each `tf.distribute.Server` is a gRPC server of one task; here every task is a host of a
# simulated 10 GbE CPU cluster, so the servers only stand for the tasks.

# %% [markdown] lang="zh"
# # 07 · 参数服务器与异步训练
#
# 到目前为止的每一种策略都是**同步**的：所有副本完成一步，合并梯度，然后大家才继续。`ParameterServerStrategy` 取消了这条规则。变量存放在**参数服务器**（作业 `ps`）上；每个**工作进程**读取变量，用自己的批次计算梯度，然后在准备好时把更新发回去。没有人等待，所以一台慢机器不再拖住所有人；但一个工作进程的梯度可能是在其他工作进程已经改过的权重上算出来的。本课把这一点直观地展示出来：
#
# 1. 集群，以及变量放在哪里（在各个 ps 任务之间轮询放置，**分片**）；
# 2. **协调器**：`schedule`、`RemoteValue`、`join`；
# 3. **陈旧性**：对每一次更新进行测量，看它对收敛有什么影响；
# 4. **掉队者**：同步训练、带备用工作进程的同步训练和异步训练，比较达到目标损失所需的时间；
# 5. 一个工作进程出故障，以及一个参数服务器出故障；
# 6. 课堂演示。
#
# ## 1. 集群
#
# 下面的单元格是教程中的集群设置（端口是固定的，而不是随机挑选的）。在 TensorFlow 中，每个 `tf.distribute.Server` 是一个任务的 gRPC 服务器；这里每个任务都是模拟的 10 GbE CPU 集群中的一台主机，所以这些服务器只代表各个任务。

# %% [markdown] lang="pt"
# # 07 · Servidores de parâmetros e treinamento assíncrono
#
# Todas as estratégias até aqui eram **síncronas**: todas as réplicas terminam um passo, os
# gradientes são combinados, e só então alguém segue em frente. A `ParameterServerStrategy`
# abandona essa regra. As variáveis ficam nos **servidores de parâmetros** (job `ps`); cada
# **worker** as lê, calcula um gradiente com o próprio lote e envia a atualização de volta quando
# estiver pronto. Ninguém espera, então uma máquina lenta não segura mais as outras; mas o
# gradiente de um worker pode ter sido calculado com pesos que outros workers já mudaram. Esta
# lição torna isso visível:
#
# 1. o cluster e onde ficam as variáveis (rodízio entre as tarefas ps, **fragmentos**);
# 2. o **coordenador**: `schedule`, `RemoteValue`, `join`;
# 3. a **defasagem**, medida em cada atualização, e o que ela faz com a convergência;
# 4. **retardatários**: treinamento síncrono, síncrono com workers reserva e assíncrono, no tempo
#    até uma perda-alvo;
# 5. um worker que falha e um servidor de parâmetros que falha;
# 6. uma demonstração para a sala de aula.
#
# ## 1. O cluster
#
# A célula abaixo é a configuração de cluster do tutorial (portas fixas em vez de sorteadas). No
# TensorFlow cada `tf.distribute.Server` é o servidor gRPC de uma tarefa; aqui cada tarefa é um
# host de um cluster simulado de CPUs em 10 GbE, então os servidores apenas representam as tarefas.

# %%
import multiprocessing
import os

import matplotlib.pyplot as plt
import numpy as np
import sim.tf as tf
from sim.i18n import number, t
from sim.course.plots import ps as ps_plots


def create_in_process_cluster(num_workers, num_ps):
  """Creates and starts local servers and returns the cluster_resolver."""
  worker_ports = [20000 + i for i in range(num_workers)]
  ps_ports = [21000 + i for i in range(num_ps)]

  cluster_dict = {}
  cluster_dict["worker"] = ["localhost:%s" % port for port in worker_ports]
  if num_ps > 0:
    cluster_dict["ps"] = ["localhost:%s" % port for port in ps_ports]

  cluster_spec = tf.train.ClusterSpec(cluster_dict)

  # Workers need some inter_ops threads to work properly.
  worker_config = tf.compat.v1.ConfigProto()
  if multiprocessing.cpu_count() < num_workers + 1:
    worker_config.inter_op_parallelism_threads = num_workers + 1

  for i in range(num_workers):
    tf.distribute.Server(cluster_spec, job_name="worker", task_index=i,
                         config=worker_config, protocol="grpc")
  for i in range(num_ps):
    tf.distribute.Server(cluster_spec, job_name="ps", task_index=i, protocol="grpc")

  return tf.distribute.cluster_resolver.SimpleClusterResolver(cluster_spec, rpc_layer="grpc")


NUM_WORKERS = 3
NUM_PS = 2
cluster_resolver = create_in_process_cluster(NUM_WORKERS, NUM_PS)

variable_partitioner = tf.distribute.experimental.partitioners.MinSizePartitioner(
    min_shard_bytes=(256 << 10), max_shards=NUM_PS)
strategy = tf.distribute.ParameterServerStrategy(
    cluster_resolver, variable_partitioner=variable_partitioner)
print(strategy)

# %% [markdown] lang="en"
# **Where do the variables go?** Each new variable goes to the next ps task in turn
# (`task:0`, `task:1`, `task:0`...). A variable larger than `min_shard_bytes` is cut into
# **shards** along its first axis, and *each shard* takes the next ps task. The embedding table
# below (8 × 16384 float32 = 512 KiB) becomes two shards of 4 rows; it still reads as one
# variable.
# <!-- claim three_workers_two_ps: holds(cluster_resolver.cluster_spec().num_tasks("worker") == 3 and cluster_resolver.cluster_spec().num_tasks("ps") == 2, "3 workers and 2 ps tasks") -->

# %% [markdown] lang="zh"
# **变量放在哪里？** 每个新变量依次放到下一个 ps 任务上（`task:0`、`task:1`、`task:0`……）。比 `min_shard_bytes` 大的变量会沿第一个轴被切成**分片**，而*每个分片*各占下一个 ps 任务。下面的嵌入表（8 × 16384 个 float32 = 512 KiB）变成两个各有 4 行的分片；读取时它仍然像一个变量。<!-- claim three_workers_two_ps -->

# %% [markdown] lang="pt"
# **Para onde vão as variáveis?** Cada variável nova vai para a próxima tarefa ps, em rodízio
# (`task:0`, `task:1`, `task:0`...). Uma variável maior que `min_shard_bytes` é cortada em
# **fragmentos** ao longo do primeiro eixo, e *cada fragmento* ocupa a próxima tarefa ps. A tabela
# de embeddings abaixo (8 × 16384 float32 = 512 KiB) vira dois fragmentos de 4 linhas; na leitura
# ela continua sendo uma variável só.
# <!-- claim three_workers_two_ps -->

# %%
with strategy.scope():
  bias = tf.Variable(tf.zeros([10]), name="bias")
  table = tf.Variable(tf.random.uniform([8, 16384]), name="table")
  kernel = tf.Variable(tf.zeros([10, 10]), name="kernel")

for v in [bias] + table.variables + [kernel]:
  print(t("lesson07.placed", name=v.name, shape=str(v.shape.as_list()), device=v.device))
print(type(table).__name__, table.shape, tf.nn.embedding_lookup(table, [7]).shape)

# %% [markdown] lang="en"
# The count of shards is arithmetic you can predict (exercise 07a). `MinSizePartitioner` makes
# ⌈variable bytes / `min_shard_bytes`⌉ shards, capped by `max_shards` and by the number of rows
# (so every shard can be smaller than `min_shard_bytes`: 300 KiB in shards of at least 256 KiB
# makes 2 shards, of 180 and 120 KiB); `MaxSizePartitioner` makes
# shards of at most `max_shard_bytes`; `FixedShardsPartitioner` makes a fixed number. The rows
# are then split with the first shards one row longer (10 rows in 4 shards: 3, 3, 2, 2):
# <!-- claim round_robin_shards: holds([v.device.split("task:")[1][0] for v in [bias] + table.variables + [kernel]] == ["0", "1", "0", "1"], "bias, the two shards and kernel go to task 0, 1, 0, 1") & holds([v.shape.as_list() for v in table.variables] == [[4, 16384], [4, 16384]] and 8 * 16384 * 4 == 512 << 10, "512 KiB in two shards of 4 rows") & holds(type(table).__name__ == "ShardedVariable" and table.shape.as_list() == [8, 16384], "it still reads as one variable") -->

# %% [markdown] lang="zh"
# 分片的数量可以用简单的算术预测出来（练习 07a）。`MinSizePartitioner` 的分片数 = ⌈变量字节数 / `min_shard_bytes`⌉，再受 `max_shards` 和行数限制（所以每个分片都可能小于 `min_shard_bytes`：300 KiB 按至少 256 KiB 分片，得到 180 KiB 和 120 KiB 两片）；`MaxSizePartitioner` 让每个分片最多 `max_shard_bytes`；`FixedShardsPartitioner` 给出固定的数量。然后按行切分，前面的分片多一行（10 行分成 4 片：3、3、2、2）：<!-- claim round_robin_shards -->

# %% [markdown] lang="pt"
# A quantidade de fragmentos é uma conta que dá para prever (exercício 07a). O `MinSizePartitioner`
# faz ⌈bytes da variável / `min_shard_bytes`⌉ fragmentos, limitado por `max_shards` e pelo número
# de linhas (então todos os fragmentos podem ficar menores que `min_shard_bytes`: 300 KiB em
# fragmentos de pelo menos 256 KiB dão 2 fragmentos, de 180 e 120 KiB); o
# `MaxSizePartitioner` faz fragmentos de no máximo `max_shard_bytes`; o `FixedShardsPartitioner` faz
# um número fixo. Depois as linhas são divididas e os primeiros fragmentos ficam com uma linha a
# mais (10 linhas em 4 fragmentos: 3, 3, 2, 2):
# <!-- claim round_robin_shards -->

# %%
from sim.distribute.ps.sharded_variable import div_row_sizes

P = tf.distribute.experimental.partitioners
for what, part, shape in [
    ("MinSizePartitioner(256 KiB, 2)", P.MinSizePartitioner(256 << 10, max_shards=2), [7, 16384]),
    ("MinSizePartitioner(256 KiB, 4)", P.MinSizePartitioner(256 << 10, max_shards=4), [1024, 1024]),
    ("MaxSizePartitioner(100 B, max_shards=3)", P.MaxSizePartitioner(100, max_shards=3), [10, 5]),
    ("FixedShardsPartitioner(4)", P.FixedShardsPartitioner(4), [10, 3])]:
  parts = part(shape=tf.TensorShape(shape), dtype=tf.float32)
  print(t("lesson07.partitioner_row", what=what, shape=shape, parts=parts,
          rows=div_row_sizes(shape[0], parts[0])))

# %% [markdown] lang="en"
# ## 2. The coordinator
#
# `ClusterCoordinator.schedule(fn)` puts a `tf.function` in a queue and returns **at once** a
# `RemoteValue`, a future. A free worker takes the function, runs it and fills the value.
# `join()` waits until the queue is empty; `fetch()` waits for one value. Here three workers each
# read a counter and add one to it. The simulator runs each function the way a worker does: it
# **reads** the variables on the ps when it starts and its **update** arrives when its compute
# and transfers end.
# <!-- claim shard_counts: holds(list(P.MinSizePartitioner(256 << 10, max_shards=4)(shape=tf.TensorShape([5, 15360]), dtype=tf.float32)) == [2, 1] and div_row_sizes(5, 2) == [3, 2] and 5 * 15360 * 4 == 300 << 10, "300 KiB: 2 shards of 3 and 2 rows, 180 and 120 KiB") & holds(div_row_sizes(10, 4) == [3, 3, 2, 2], "10 rows in 4 shards: 3, 3, 2, 2") -->

# %% [markdown] lang="zh"
# ## 2. 协调器
#
# `ClusterCoordinator.schedule(fn)` 把一个 `tf.function` 放进队列，并**立即**返回一个 `RemoteValue`（一个 future）。空闲的工作进程取走函数、运行它并填入结果。`join()` 会一直等到队列清空；`fetch()` 等待一个结果。这里三个工作进程各自读取一个计数器并给它加一。模拟器像工作进程那样运行每个函数：函数开始时**读取** ps 上的变量，计算和传输结束时它的**更新**才到达。<!-- claim shard_counts -->

# %% [markdown] lang="pt"
# ## 2. O coordenador
#
# `ClusterCoordinator.schedule(fn)` coloca uma `tf.function` em uma fila e devolve **na hora** um
# `RemoteValue` (um *future*). Um worker livre pega a função, a executa e preenche o valor. `join()`
# espera até a fila esvaziar; `fetch()` espera por um valor. Aqui três workers leem um contador e
# o incrementam de 1. O simulador executa cada função como um worker faria: ela **lê** as variáveis no
# ps quando começa, e a **atualização** chega quando o cálculo e as transferências terminam.
# <!-- claim shard_counts -->

# %%
# sim-only: machine="cluster" simulates a host per task (this in-process cluster would be one host)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy, machine="cluster")
with strategy.scope():
  counter = tf.Variable(0.0)

@tf.function
def read_and_increment():
  seen = counter.read_value()
  counter.assign_add(1.0)
  return seen

values = [coordinator.schedule(read_and_increment) for _ in range(6)]
print(t("lesson07.status", status=values[0]))
coordinator.join()
print(t("lesson07.fetched", values=[int(float(v.fetch())) for v in values], counter=int(float(counter.numpy()))))
print(t("lesson07.sim_time", ms=1e3 * coordinator.cluster.now))

# %% [markdown] lang="en"
# The three workers started together and all read 0. A worker that finishes takes the next
# function at once and reads the counter as it is then (1, 2, 3). All six increments land, so the
# counter is 6; but most updates were computed from a value that other workers changed before the
# update arrived: it was **stale**. The **staleness** of an update is the number of updates applied between its read and
# its write. With N workers each always busy, the mean staleness tends to N − 1 in the long run,
# whatever the compute times: every applied update makes the N − 1 others in flight one update
# older (the first round is less stale, which is why six increments give a mean of 1.5).
#
# That is the simulated cluster, one host per task. Run the same cells on TensorFlow and you get
# its tutorial's in-process cluster, one process on one host: in three runs on TensorFlow 2.21 the
# six functions read six different values, 0 to 5 in some order, so none read a stale counter (they
# ran one after the other). Staleness needs workers that compute at the same time, as on separate
# hosts.
#
# A simulated worker reads the variables once, when it starts a scheduled function, and writes at
# its end, as a worker on its own host does here. TensorFlow's tutorial runs all its tasks in one
# process on one host: there a function's ops read the variables as they run, and two functions
# scheduled together run side by side, step by step, so each step misses only the step the other
# function runs at the same time. `SIM_PS_MACHINE=one-host` simulates that machine, and sim
# picks it by itself for an in-process cluster like the tutorial's when no machine is named: the
# tutorial's `Model.fit` (10 steps per function, `steps_per_execution=10`) then gives
# TensorFlow's loss within 0.5% (TensorFlow's own runs differ by up to 0.3%), where
# `machine="cluster"`, one host per task as in this lesson, gives a first-epoch loss 5.6% higher,
# from that staleness.
#
# ## 3. Staleness in a training loop
#
# The tutorial's custom loop on a small regression: each scheduled step reads the weights, computes
# a gradient on its worker's batch and applies it with SGD.
# <!-- claim counter_reads: holds([int(float(v.fetch())) for v in values] == [0, 0, 0, 1, 2, 3] and float(counter.numpy()) == 6.0, "reads 0, 0, 0, 1, 2, 3; counter 6") & about(np.mean([r.staleness for r in coordinator.cluster.records if r.status == "applied"]), 1.5, abs=1e-9) -->

# %% [markdown] lang="zh"
# 三个工作进程同时开始，都读到了 0。一个工作进程完成后会立即取走下一个函数，并读取此刻计数器的值（1、2、3）。六次加一全部生效，所以计数器是 6；但大多数更新依据的值在更新到达之前已被其他工作进程改过：它已经**陈旧**了。一次更新的**陈旧性**是指从它读取到它写回之间已被应用的更新次数。当 N 个工作进程一直忙碌时，长期平均陈旧性趋近 N − 1，与计算时间无关：每应用一次更新，另外 N − 1 个仍在进行中的更新就都旧了一步（第一轮的陈旧性较低，所以这六次加一的平均值是 1.5）。
#
# 这是模拟的集群：每个任务一台主机。如果在 TensorFlow 上运行同样的单元格，得到的是教程中的进程内集群，即一台主机上的一个进程：在 TensorFlow 2.21 上运行三次，六个函数读到的是六个不同的值（0 到 5，顺序不一），所以没有一个函数读到陈旧的计数器（它们是一个接一个运行的）。要出现陈旧性，工作进程必须同时计算，比如分布在不同的主机上。
#
# 模拟的工作进程在开始一个被调度的函数时读取一次变量，在函数结束时写回，就像这里每个工作进程都在自己的主机上那样。TensorFlow 的教程把所有任务放在同一台主机的同一个进程中运行：在那里，函数中的操作在执行时才读取变量，同时被调度的两个函数会一步接一步地并排运行，因此每一步只会错过另一个函数在同一时刻运行的那一步。`SIM_PS_MACHINE=one-host` 模拟的就是这样的机器；对于教程那样的进程内集群，如果没有指定机器，sim 也会自动选择它：这时教程中的 `Model.fit`（每个函数 10 步，`steps_per_execution=10`）给出的损失与 TensorFlow 相差不到 0.5%（TensorFlow 自己的几次运行之间最多相差 0.3%）；而 `machine="cluster"`（即本课使用的每个任务一台主机）由于上述陈旧性，第一个周期的损失要高 5.6%。
#
# ## 3. 训练循环中的陈旧性
#
# 在一个小回归问题上运行教程中的自定义训练循环：每个被调度的步读取权重，用所在工作进程的批次计算梯度，再用 SGD 应用它。<!-- claim counter_reads -->

# %% [markdown] lang="pt"
# Os três workers começaram juntos e todos leram 0. Um worker que termina pega a próxima função na
# hora e lê o contador como ele está naquele momento (1, 2, 3). Os seis incrementos chegam, então o
# contador vale 6; mas a maioria das atualizações foi calculada a partir de um valor que outros
# workers mudaram antes de a atualização chegar: ele estava **defasado**. A **defasagem** de uma atualização é o número de atualizações aplicadas entre a
# leitura e a escrita dela. Com N workers sempre ocupados, em regime permanente a defasagem média
# tende a N − 1, sejam quais forem os tempos de cálculo: cada atualização aplicada torna as outras
# N − 1, ainda em andamento, uma atualização mais defasadas (a primeira rodada é menos defasada, por isso os
# seis incrementos dão uma média de 1,5).
#
# Esse é o cluster simulado, com um host por tarefa. Rode as mesmas células no TensorFlow e você terá
# o cluster em processo do tutorial, um só processo em um só host: em três execuções no TensorFlow
# 2.21, as seis funções leram seis valores diferentes, de 0 a 5 em alguma ordem, então nenhuma leu
# um contador defasado (elas rodaram uma depois da outra). A defasagem exige workers que calculam
# ao mesmo tempo, como em hosts separados.
#
# Um worker simulado lê as variáveis uma vez, quando começa uma função agendada, e escreve no fim
# dela, como um worker em seu próprio host faz aqui. O tutorial do TensorFlow roda todas as tarefas
# em um só processo em um só host: ali as operações de uma função leem as variáveis à medida que
# rodam, e duas funções agendadas juntas rodam lado a lado, passo a passo; assim, cada passo só
# deixa de ver o passo que a outra função executa ao mesmo tempo. `SIM_PS_MACHINE=one-host` simula
# essa máquina, e o sim a escolhe sozinho para um cluster em processo como o do tutorial quando
# nenhuma máquina é indicada: o `Model.fit` do tutorial (10 passos por função,
# `steps_per_execution=10`) dá então a perda do TensorFlow com diferença de até 0,5% (as execuções
# do próprio TensorFlow diferem entre si em até 0,3%), enquanto `machine="cluster"`, com um host
# por tarefa como nesta lição, dá uma perda 5,6% maior na primeira época, por causa dessa defasagem.
#
# ## 3. Defasagem em um loop de treinamento
#
# O loop de treinamento personalizado do tutorial em uma regressão pequena: cada passo agendado lê os
# pesos, calcula um gradiente com o lote do seu worker e o aplica com SGD.
# <!-- claim counter_reads -->

# %% slide="figure"
rng = np.random.default_rng(0)
x = rng.normal(size=(256, 8)).astype(np.float32)
y = (x @ rng.normal(size=(8, 1))).astype(np.float32)

with strategy.scope():
  model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
  model.build((None, 8))
  optimizer = tf.keras.optimizers.SGD(0.05)

def dataset_fn(_):
  return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(256, seed=1).repeat().batch(32)

@tf.function
def per_worker_dataset_fn():
  return strategy.distribute_datasets_from_function(dataset_fn)

iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))

@tf.function
def step_fn(iterator):
  def replica_fn(xb, yb):
    with tf.GradientTape() as tape:
      loss = tf.reduce_mean((model(xb) - yb) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
  xb, yb = next(iterator)
  return strategy.reduce("SUM", strategy.run(replica_fn, args=(xb, yb)), axis=None)

first = len(coordinator.cluster.records)
for _ in range(30):
  coordinator.schedule(step_fn, args=(iterator,))
coordinator.join()
records = [r for r in coordinator.cluster.records[first:] if r.status == "applied"]
for w in range(NUM_WORKERS):
  taus = [r.staleness for r in records if r.worker == w]
  print(t("lesson07.per_worker", w=w, n=len(taus), taus=taus[:8]))
print(t("lesson07.mean_vs_rule", mean=np.mean([r.staleness for r in records]), rule=NUM_WORKERS - 1))

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 3.8), gridspec_kw={"width_ratios": [2, 1]})
ps_plots.draw_timeline(ax1, ps_plots.timeline_data(coordinator.cluster))
ps_plots.draw_staleness_histogram(ax2, [r.staleness for r in records], NUM_WORKERS)
fig.tight_layout()
plt.show()

# %% [markdown] lang="en"
# On the timeline each bar is one step, from its read to its update, coloured by its staleness;
# the ticks on the ps rows are the updates each parameter server applied (both hold a variable of
# the model). Identical workers keep a fixed order, so after the first round every update is
# exactly N − 1 = 2 updates stale.
#
# **What staleness does to convergence.** A stale gradient points where the loss went down
# *some updates ago*. On a quadratic with curvature λ, gradient descent with a fixed delay τ is
# stable only if `lr·λ < 2·sin(π / (2(2τ + 1)))`: 2 with no delay, 1 for τ = 1, about 0.2 for
# τ = 7. So the usable learning rate shrinks like 1/N. Dividing the learning rate by
# `1 + staleness` (the **staleness-aware** rule of Zhang et al., 2016) restores stability. Below:
# 3,000 updates of a 16-feature regression, each worker's step time drawn from an exponential distribution; the
# table gives the loss at the end (relative to the optimum), `diverged` when it blew up.
# <!-- claim staleness_n_minus_1: holds(all(r.staleness == NUM_WORKERS - 1 for r in records[NUM_WORKERS:]), "after the first round every update is N - 1 = 2 stale") & holds(all(len([r for r in records if r.worker == w]) == 10 for w in range(NUM_WORKERS)), "10 updates per worker") -->

# %% [markdown] lang="zh"
# 在时间线上，每个条形是一步，从读取到更新，颜色表示它的陈旧性；ps 行上的刻度是每个参数服务器应用的更新（两个参数服务器都存放着模型的变量）。这些工作进程每一步耗时完全相同，所以始终保持固定的顺序，所以第一轮之后每次更新的陈旧性都恰好是 N − 1 = 2。
#
# **陈旧性对收敛的影响。** 陈旧的梯度指向的是*若干次更新之前*损失下降的方向。在曲率为 λ 的二次函数上，固定延迟 τ 的梯度下降只有在 `lr·λ < 2·sin(π / (2(2τ + 1)))` 时才稳定：没有延迟时为 2，τ = 1 时为 1，τ = 7 时约为 0.2。所以可用的学习率大约按 1/N 缩小。把学习率除以 `1 + 陈旧性`（Zhang 等人 2016 年提出的**感知陈旧性**规则）可以恢复稳定。下面：一个 16 个特征的回归问题，更新 3000 次，每个工作进程每一步的时间服从指数分布；表中是结束时的损失（相对于最优值），数值爆炸时显示“发散”。<!-- claim staleness_n_minus_1 -->

# %% [markdown] lang="pt"
# Na linha do tempo cada barra é um passo, da leitura à atualização, colorida conforme a defasagem; as
# marcas nas linhas ps são as atualizações que cada servidor de parâmetros aplicou (os dois guardam
# uma variável do modelo). Workers idênticos mantêm uma ordem fixa, então depois da primeira
# rodada toda atualização tem defasagem exatamente N − 1 = 2.
#
# **O que a defasagem faz com a convergência.** Um gradiente defasado aponta para onde a perda
# caía *algumas atualizações atrás*. Em uma quadrática de curvatura λ, a descida de gradiente com
# atraso fixo τ só é estável se `lr·λ < 2·sen(π / (2(2τ + 1)))`: 2 sem atraso, 1 para τ = 1, cerca
# de 0,2 para τ = 7. Então a taxa de aprendizado utilizável encolhe na proporção de 1/N. Dividir a taxa por
# `1 + defasagem` (a regra **ciente da defasagem** de Zhang et al., 2016) devolve a estabilidade.
# Abaixo: 3.000 atualizações de uma regressão com 16 atributos, com a duração de cada passo seguindo uma distribuição exponencial; a tabela dá a perda no fim (em relação ao ótimo), `divergiu` quando explodiu.
# <!-- claim staleness_n_minus_1 -->

# %%
from sim.des import ComputeTime
from sim.i18n import pad   # sim-only: right-aligns by display width (a CJK character is two columns)
from sim.scaling.problems import staleness_regression
from sim.scaling.staleness_regimes import run_async, run_sync

problem = staleness_regression(seed=0)
rates = [0.1, 0.3, 0.6, 1.0]
print(t("lesson07.lr_header"))
for n in (1, 4, 16):
  for rule, name in ((None, "lesson07.short_plain"), ("1+tau", "lesson07.short_aware")):
    run = run_async(problem, n, ComputeTime(exponential=1.0), updates=3000, lr=rates, rule=rule)
    cells = [t("lesson07.diverged_cell") if np.isinf(v) else number(v, ".4f") for v in run.final_loss()]
    print(t("lesson07.lr_row", n=n, rule=t(name), losses="".join(pad(c, 10) for c in cells)))

# %% [markdown] lang="en"
# With one worker every rate up to 1.0 converges; with 16 the plain rule already diverges at 0.6,
# and at 0.3 it ends far above the staleness-aware run. The staleness-aware rule converges at
# every rate in the table (exercise 07b finds the exact limits).
#
# ## 4. Stragglers: sync, backup workers, async
#
# Synchronous training waits for the slowest worker at every step. With 8 workers whose step takes
# `1 + Exp(1)` time units the expected step is `1 + H₈ = 3.72` (H₈ = 1 + 1/2 + … + 1/8), not 2.
# **Backup workers** (Chen et al., 2016) start 10 and use the first 8 gradients: `1 + H₁₀ − H₂ =
# 2.43`. Asynchronous training waits for nobody. Here is the loss against simulated time, with a
# rare 10× straggler (5% of the steps take 10 units):
# <!-- claim stable_rates: holds(all(np.isfinite(v) for v in run_async(problem, 1, ComputeTime(exponential=1.0), updates=3000, lr=rates).final_loss()), "one worker: every rate converges") & holds(np.isinf(run_async(problem, 16, ComputeTime(exponential=1.0), updates=3000, lr=rates).final_loss()[2]), "16 workers, plain rule: diverges at 0.6") & above(run_async(problem, 16, ComputeTime(exponential=1.0), updates=3000, lr=rates).final_loss()[1], run.final_loss()[1], by=5) & holds(all(np.isfinite(run_async(problem, n, ComputeTime(exponential=1.0), updates=3000, lr=rates, rule="1+tau").final_loss()).all() for n in (1, 4, 16)), "the staleness-aware rule converges at every rate in the table") -->

# %% [markdown] lang="zh"
# 只有一个工作进程时，学习率一直到 1.0 都收敛；有 16 个时，普通规则在 0.6 就已经发散，而在 0.3 时它的最终损失也远高于采用感知陈旧性规则的训练。感知陈旧性的规则在表中的每个学习率下都收敛（练习 07b 会求出精确的上限）。
#
# ## 4. 掉队者：同步、备用工作进程、异步
#
# 同步训练每一步都要等最慢的工作进程。8 个工作进程、每一步耗时 `1 + Exp(1)` 个时间单位时，一步的期望时间是 `1 + H₈ = 3.72`（H₈ = 1 + 1/2 + … + 1/8），而不是 2。使用**备用工作进程**（Chen 等人，2016）时，启动 10 个工作进程，只用最先到达的 8 个梯度：`1 + H₁₀ − H₂ = 2.43`。异步训练谁也不等。下面是损失随模拟时间的变化，其中偶尔会出现严重的掉队者（5% 的步耗时 10 个单位）：<!-- claim stable_rates -->

# %% [markdown] lang="pt"
# Com um worker, toda taxa até 1,0 converge; com 16, a regra simples já diverge em 0,6 e, em 0,3,
# termina bem acima da execução ciente da defasagem. A regra ciente da defasagem converge em todas
# as taxas da tabela (o exercício 07b encontra os limites exatos).
#
# ## 4. Retardatários: síncrono, workers reserva, assíncrono
#
# O treinamento síncrono espera o worker mais lento a cada passo. Com 8 workers cujo passo leva
# `1 + Exp(1)` unidades de tempo, o passo esperado é `1 + H₈ = 3,72` (H₈ = 1 + 1/2 + … + 1/8), e
# não 2. Com **workers reserva** (Chen et al., 2016), iniciam-se 10 workers e usam-se os 8 primeiros gradientes:
# `1 + H₁₀ − H₂ = 2,43`. O treinamento assíncrono não espera ninguém. Eis a perda ao longo do
# tempo simulado, com um retardatário raro 10× mais lento (5% dos passos levam 10 unidades):
# <!-- claim stable_rates -->

# %%
shifted = ComputeTime(fixed=1, exponential=1)
h = lambda n: sum(1 / k for k in range(1, n + 1))
for name, backups, expected in (("ps.regime_sync", 0, 400 / (1 + h(8))),
                                ("ps.regime_backups", 2, 400 / (1 + h(10) - h(2)))):
  run = run_sync(problem, 8, shifted, until=400, backups=backups)
  print(t("lesson07.steps_in", name=t(name, backups=backups), steps=len(run.time), until=400,
          expected=expected))

mixture = ComputeTime(fixed=1, slow=10, slow_prob=0.05, exponential=0.1)
runs = [run_sync(problem, 8, mixture, until=200, lr=1.0),
        run_sync(problem, 8, mixture, until=200, lr=1.0, backups=2),
        run_async(problem, 8, mixture, until=200, lr=[0.1, 0.6]),
        run_async(problem, 8, mixture, until=200, lr=0.6, rule="1+tau")]
for run in runs:
  for r, lr in enumerate(run.lr):
    when = run.time_to(0.01)[r]
    name = t("ps.run_label", regime=ps_plots.regime_name(run), lr=lr)
    print(t("lesson07.never_reaches", name=name) if np.isinf(when)
          else t("lesson07.time_to", name=name, t=when))
fig, ax = plt.subplots(figsize=(10, 4))
ps_plots.draw_time_to_loss(ax, runs, target=0.01)
fig.tight_layout()
plt.show()

# %% [markdown] lang="en"
# The rare straggler sets the pace of almost every synchronous step; two backup workers cut the
# time to 1% by far more than half. Asynchronous training with a small rate is nearly as fast, at a
# large rate it diverges, and the staleness-aware rule is both fast and stable.
#
# ## 5. Failures
#
# **A worker fails.** The coordinator gives the function it was running to another worker: every
# scheduled step runs **at least once** (it may run twice, which is why TensorFlow warns that
# evaluation through `schedule` is not exactly-once). Here worker 1 fails in the middle of the
# epoch; the red line marks it, the hatched bar is the lost step, and all 30 steps still land.
# TensorFlow also warns that a function may be *partially* executed before its worker fails and
# then run again from the start: a function with a side effect, like this `assign_add`, can then
# count a step twice on TensorFlow. The simulator applies a function's updates only when it ends,
# so here the counter reads exactly 30.
# <!-- claim stragglers: about(1 + h(8), 3.72, abs=0.005) & about(1 + h(10) - h(2), 2.43, abs=0.005) & below(runs[1].time_to(0.01)[0], runs[0].time_to(0.01)[0] / 4) & below(runs[2].time_to(0.01)[0], 1.25 * runs[1].time_to(0.01)[0]) & holds(np.isinf(runs[2].time_to(0.01)[1]), "async at 0.6 never reaches 1%") & below(runs[3].time_to(0.01)[0], runs[1].time_to(0.01)[0]) -->

# %% [markdown] lang="zh"
# 少见的掉队者几乎决定了每一步同步训练的节奏；两个备用工作进程把达到 1% 的时间缩短到原来的四分之一以下。小学习率的异步训练几乎同样快，大学习率则会发散，而感知陈旧性的规则既快又稳定。
#
# ## 5. 故障
#
# **一个工作进程出故障。** 协调器会把它正在运行的函数交给另一个工作进程：每个被调度的步**至少运行一次**（也可能运行两次，所以 TensorFlow 提醒通过 `schedule` 做的评估不保证恰好执行一次）。这里工作进程 1 在一个周期的中途出故障；红线标出故障发生的时刻，带斜线的条形是丢失的那一步，而 30 步全部照样完成。TensorFlow 还提醒：一个函数可能在它的工作进程出故障之前已经**部分**执行，然后又从头重新运行；因此像这里的 `assign_add` 这样有副作用的函数，在 TensorFlow 上可能把一步算两次。模拟器只在函数结束时才应用它的更新，所以这里计数器恰好是 30。<!-- claim stragglers -->

# %% [markdown] lang="pt"
# O retardatário raro dita o ritmo de quase todo passo síncrono; dois workers reserva cortam o
# tempo até 1% em bem mais da metade. Com uma taxa pequena, o treinamento assíncrono é quase tão rápido; com uma taxa grande, diverge; e a regra ciente da defasagem é rápida e estável.
#
# ## 5. Falhas
#
# **Um worker falha.** O coordenador entrega a função que ele executava a outro worker: cada passo
# agendado roda **pelo menos uma vez** (pode rodar duas, e é por isso que o TensorFlow avisa que a
# avaliação via `schedule` não tem garantia de execução exatamente uma vez (*exactly-once*)). Aqui o worker 1 falha no meio da época; a
# linha vermelha marca a falha, a barra hachurada é o passo perdido, e os 30 passos são aplicados mesmo
# assim. O TensorFlow avisa também que uma função pode ser executada *em parte* antes de o worker
# falhar e depois rodar de novo desde o início: uma função com efeito colateral, como este
# `assign_add`, pode então contar um passo duas vezes no TensorFlow. O simulador aplica as
# atualizações de uma função só quando ela termina, então aqui o contador marca exatamente 30.
# <!-- claim stragglers -->

# %%
cluster = coordinator.cluster
counter.assign(0.0)
first = len(cluster.records)
step_time = records[-1].end - records[-1].start
coordinator.fail_worker(1, at=cluster.now + 4.5 * step_time)
for _ in range(30):
  coordinator.schedule(read_and_increment)
coordinator.join()
print(t("lesson07.reexecuted", scheduled=30, counter=float(counter.numpy()), again=cluster.reexecutions))
fig, ax = plt.subplots(figsize=(12, 3.2))
ps_plots.draw_timeline(ax, ps_plots.timeline_data(cluster))
ax.set_xlim(cluster.records[first].start, cluster.now)
fig.tight_layout()
plt.show()

# %% [markdown] lang="en"
# **A parameter server fails.** Its variables are gone, so TensorFlow cannot go on: the next
# `join` (or `schedule`, `done`, `fetch`) raises `tf.errors.UnavailableError`, and the queued
# functions are cancelled. The fix is to restart the coordinator and resume from the last
# checkpoint (`BackupAndRestore` or `tf.train.CheckpointManager`).
# <!-- claim worker_failure: holds(float(counter.numpy()) == 30.0 and cluster.reexecutions == 1, "all 30 steps land, the counter reads 30, one function ran again") -->

# %% [markdown] lang="zh"
# **一个参数服务器出故障。** 它上面的变量没了，所以 TensorFlow 无法继续：下一次 `join`（或 `schedule`、`done`、`fetch`）会引发 `tf.errors.UnavailableError`，排队中的函数都会被取消。解决办法是重启协调器，并从最近的检查点恢复（`BackupAndRestore` 或 `tf.train.CheckpointManager`）。<!-- claim worker_failure -->

# %% [markdown] lang="pt"
# **Um servidor de parâmetros falha.** As variáveis dele se perderam, então o TensorFlow não pode
# continuar: o próximo `join` (ou `schedule`, `done`, `fetch`) lança `tf.errors.UnavailableError`
# e as funções na fila são canceladas. A solução é reiniciar o coordenador e retomar o treinamento a partir do último
# checkpoint (`BackupAndRestore` ou `tf.train.CheckpointManager`).
# <!-- claim worker_failure -->

# %%
coordinator.fail_ps(0, at=cluster.now + 2.5 * step_time)
for _ in range(10):
  coordinator.schedule(read_and_increment)
with sim.show_error():   # sim-only: prints the error as "Type: message"
  coordinator.join()

# %% [markdown] lang="en"
# ## 6. Classroom demo
#
# Change the number of workers, the straggler spread (each step takes `1 + Exp(spread)`) and the
# learning rate: the timeline, the staleness histogram and the loss curves of sync, async and
# staleness-aware async are redrawn. The static figure below the widget shows the default setting: 4 workers, spread 1, learning rate 0.3.

# %% [markdown] lang="zh"
# ## 6. 课堂演示
#
# 改变工作进程数、掉队程度（每一步耗时 `1 + Exp(spread)`）和学习率：时间线、陈旧性直方图以及同步、异步和感知陈旧性异步的损失曲线都会重新绘制。控件下方的静态图显示的是默认设置：4 个工作进程，掉队程度 1，学习率 0.3。

# %% [markdown] lang="pt"
# ## 6. Demonstração para a sala de aula
#
# Mude o número de workers, a dispersão dos retardatários (cada passo leva `1 + Exp(dispersão)`) e
# a taxa de aprendizado: a linha do tempo, o histograma da defasagem e as curvas de perda do
# síncrono, do assíncrono e do assíncrono ciente da defasagem são redesenhados. A figura estática
# abaixo do widget mostra a configuração padrão: 4 workers, dispersão 1, taxa de aprendizado 0,3.

# %% tags=["nbval-ignore-output"] slide="demo"
ps_plots.demo_widget()

# %%
fig = plt.figure(figsize=ps_plots.DEMO_FIGSIZE, layout="constrained")
ps_plots.draw_demo(ps_plots.demo_view(workers=4, spread=1.0, lr=0.3), fig)
plt.show()

# %% [markdown] lang="en"
# ## Summary
#
# - `ParameterServerStrategy` keeps the variables on ps tasks, round robin, shards included; the
#   partitioners decide how many shards.
# - `ClusterCoordinator.schedule` returns a `RemoteValue` at once; `join` and `fetch` wait.
# - Each update is as stale as the number of updates applied since its read: N − 1 on average.
#   Staleness shrinks the stable learning rate like 1/N; dividing it by `1 + staleness` helps.
# - Asynchronous training ignores stragglers; synchronous training needs backup workers for that.
# - A lost worker costs a re-run (at least once); a lost ps stops training until a restart from a
#   checkpoint.
# <!-- claim staleness_n_minus_1 -->

# %% [markdown] lang="zh"
# ## 小结
#
# - `ParameterServerStrategy` 把变量轮询地放到各个 ps 任务上，分片也一样；分区程序决定分成几片。
# - `ClusterCoordinator.schedule` 立即返回一个 `RemoteValue`；`join` 和 `fetch` 会等待。
# - 每次更新的陈旧性等于它读取之后已应用的更新次数：平均为 N − 1。陈旧性让稳定的学习率大约按 1/N 缩小；把学习率除以 `1 + 陈旧性` 会有帮助。
# - 异步训练不受掉队者影响；同步训练则需要备用工作进程来应对它们。
# - 丢失一个工作进程，只会让它正在执行的那一步被重新执行（至少执行一次）；丢失一个 ps 会让训练停下来，直到从检查点重启。<!-- claim staleness_n_minus_1 -->

# %% [markdown] lang="pt"
# ## Resumo
#
# - A `ParameterServerStrategy` guarda as variáveis nas tarefas ps, em rodízio, fragmentos
#   incluídos; os particionadores decidem quantos fragmentos.
# - `ClusterCoordinator.schedule` devolve um `RemoteValue` na hora; `join` e `fetch` esperam.
# - A defasagem de cada atualização é o número de atualizações aplicadas desde a sua leitura:
#   N − 1 em média. A defasagem encolhe a taxa de aprendizado estável na proporção de 1/N; dividi-la por
#   `1 + defasagem` ajuda.
# - O treinamento assíncrono ignora os retardatários; o síncrono precisa de workers reserva para
#   isso.
# - Perder um worker custa a reexecução do passo que ele fazia (semântica *pelo menos uma vez*); perder um ps interrompe o treinamento até que ele seja retomado de um checkpoint.
# <!-- claim staleness_n_minus_1 -->
