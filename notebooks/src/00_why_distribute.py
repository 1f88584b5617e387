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
#
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

# %% [markdown] lang="zh"
# # 00 · 为什么要分布式训练？`tf.distribute` 全景图
#
# 在单个加速器上训练一个现代神经网络可能要花好几天。`tf.distribute.Strategy` 是 TensorFlow 用来把这项工作分布到多个 GPU、多台机器或 TPU 上的 API，而你的模型代码几乎不需要改动。本节课先给出全景图；之后的每节课都会在一台模拟机器上实际运行其中的一部分。
#
# 你将看到：
# 1. 用 NumPy 手动实现的**数据并行**：为什么多个副本算出的梯度能与单个设备算出的*完全*相同；
# 2. **同步与异步**训练，以及掉队者（慢节点）分别会让两者付出什么代价；
# 3. TensorFlow 提供的各种**策略**，以及每种策略支持哪些训练 API；
# 4. 本课程的使用方式：`import sim.tf as tf`、模拟时钟，以及带自动检查的练习。
#
# ## 1. 手动实现数据并行
#
# 在数据并行中，每个**副本**都保存一份完整的模型，并接收每个**全局批次**中的一个分片。每个副本在自己的分片上计算梯度；然后由**全归约**把各副本的梯度相加，这样每份模型都应用相同的更新，各份模型也就始终保持一致。
#
# 需要留意的是除数。全局批次的损失是对其中*所有*样本取的均值，因此每个副本必须把逐样本梯度之和除以**全局批次大小**，而不是除以自己分片的大小。这样，各副本结果之和恰好就是单个设备上的梯度。下面用一个以均方误差为损失的线性模型来验证这一点。

# %% [markdown] lang="pt"
# # 00 · Por que distribuir? Um mapa do `tf.distribute`
#
# Treinar uma rede moderna em um único acelerador pode levar dias. `tf.distribute.Strategy` é a API
# do TensorFlow para distribuir esse trabalho entre várias GPUs, várias máquinas ou TPUs, enquanto o
# código do seu modelo continua praticamente o mesmo. Esta lição apresenta o mapa; cada uma das lições
# seguintes põe uma parte dele para rodar em uma máquina simulada.
#
# Você vai ver:
# 1. o **paralelismo de dados**, construído à mão com NumPy: por que várias réplicas conseguem
#    calcular *exatamente* o mesmo gradiente que um único dispositivo calcularia;
# 2. o treinamento **síncrono** e o **assíncrono**, e quanto os retardatários (*stragglers*) custam a cada um;
# 3. as **estratégias** que o TensorFlow oferece e qual API de treinamento cada uma suporta;
# 4. como este curso funciona: `import sim.tf as tf`, o relógio simulado e os exercícios com
#    correção automática.
#
# ## 1. Paralelismo de dados à mão
#
# No paralelismo de dados, cada **réplica** mantém uma cópia completa do modelo e recebe uma fatia de
# cada **lote global**. Cada réplica calcula um gradiente sobre a sua fatia; um **all-reduce** soma os
# gradientes das réplicas, de modo que todas as cópias aplicam a mesma atualização e continuam
# idênticas.
#
# O ponto delicado é o divisor. A perda do lote global é uma média sobre *todos* os seus exemplos,
# então cada réplica precisa dividir a soma dos gradientes de cada exemplo pelo **tamanho do lote
# global**, e não pelo tamanho da própria fatia. Assim, a soma sobre as réplicas é exatamente o
# gradiente calculado em um único dispositivo. Vamos verificar isso em um modelo linear com o erro
# quadrático médio.

# %%
import numpy as np
from sim.i18n import t

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

print(t("lesson00.examples_per_replica", sizes=[len(xs) for xs, _ in shards]))
print(t("lesson00.single_device", g=np.round(single_device, 6)))
print(t("lesson00.replicas_result", n=num_replicas, g=np.round(all_reduced, 6)))
print(t("lesson00.equal_within_rounding",
        ok=bool(np.max(np.abs(all_reduced - single_device)) < 1e-12)))

# %% [markdown] lang="en"
# Ten examples do not split evenly over four replicas (`np.array_split` gives 3, 3, 2, 2; a
# distributed dataset in TensorFlow splits them 3, 3, 3, 1, as lesson 04 explains), and the answer
# is still exact.
# Had each replica divided by its own slice size and the results been averaged (a "mean of
# means"), the replicas with 2 examples would weigh as much as those with 3:
# <!-- claim split_exact: holds([len(xs) for xs, _ in shards] == [3, 3, 2, 2], "np.array_split gives 3, 3, 2, 2") & below(np.max(np.abs(all_reduced - single_device)), 1e-12) -->

# %% [markdown] lang="zh"
# 10 个样本无法平均分给 4 个副本（`np.array_split` 分成 3、3、2、2；TensorFlow 的分布式数据集则分成 3、3、3、1，第 04 课会解释原因），但结果依然是精确的。如果每个副本都除以自己分片的大小，再对这些结果取平均（即“均值的均值”），那么只有 2 个样本的副本就会与有 3 个样本的副本占同样的权重：<!-- claim split_exact -->

# %% [markdown] lang="pt"
# Dez exemplos não se dividem igualmente entre quatro réplicas (`np.array_split` dá 3, 3, 2, 2; um
# dataset distribuído do TensorFlow os divide em 3, 3, 3, 1, como a lição 04 explica), e a resposta
# continua exata. Se cada réplica dividisse pelo tamanho da própria fatia e depois se tirasse a média dos
# resultados (uma "média das médias"), as réplicas com 2 exemplos pesariam tanto quanto as que têm 3:
# <!-- claim split_exact -->

# %%
mean_of_means = np.mean([gradient_sum(w, xs, ys) / len(xs) for xs, ys in shards], axis=0)
print(t("lesson00.mean_of_means", g=np.round(mean_of_means, 6)))
print(t("lesson00.equal_single", ok=bool(np.allclose(mean_of_means, single_device))))

# %% [markdown] lang="en"
# This is exactly why TensorFlow's custom training loops call
# `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)`: it divides by the global
# batch size, and the optimizer then **sums** gradients across replicas. Lesson 03 does it with the
# real API.
# <!-- claim mean_of_means_wrong: holds(not np.allclose(mean_of_means, single_device), "the mean of means differs from the single-device gradient") -->
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

# %% [markdown] lang="zh"
# 这正是 TensorFlow 的自定义训练循环要调用 `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)` 的原因：它除以全局批次大小，随后优化器会在各副本之间对梯度**求和**。第 03 课将用真实的 API 完成这一步。<!-- claim mean_of_means_wrong -->
#
# ## 2. 同步还是异步？
#
# - **同步**训练（`MirroredStrategy`、`MultiWorkerMirroredStrategy`、`TPUStrategy`）：所有副本都完成各自的这一步后，由全归约合并梯度，每个副本应用相同的更新。这相当于一道屏障：每一步的耗时都取决于最慢的那个副本。
# - **异步**训练（`ParameterServerStrategy`）：变量存放在**参数服务器**上；每个**工作进程**读取变量、计算梯度，并在准备好后随时发送自己的更新。谁都不用等待，但某个工作进程的梯度可能是基于其他工作进程已经修改过的权重计算出来的（**陈旧性**，即 staleness）。
#
# 下面的单元格用固定的随机种子为 4 个工作进程生成每一步的耗时（有些步会特别慢，成为掉队者），并比较两种方式在相同时间内各完成了多少次更新。

# %% [markdown] lang="pt"
# É exatamente por isso que os loops de treinamento personalizados do TensorFlow chamam
# `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)`: essa função divide pelo
# tamanho do lote global, e depois o otimizador **soma** os gradientes entre as réplicas. A lição 03
# faz isso com a API real.
# <!-- claim mean_of_means_wrong -->
#
# ## 2. Síncrono ou assíncrono?
#
# - Treinamento **síncrono** (`MirroredStrategy`, `MultiWorkerMirroredStrategy`, `TPUStrategy`):
#   todas as réplicas terminam o seu passo, o all-reduce combina os gradientes e todas aplicam a
#   mesma atualização. É uma barreira: cada passo dura o tempo da réplica mais lenta.
# - Treinamento **assíncrono** (`ParameterServerStrategy`): as variáveis ficam nos **servidores de
#   parâmetros**; cada **worker** as lê, calcula um gradiente e envia a sua atualização assim que
#   estiver pronto. Ninguém espera, mas o gradiente de um worker pode ter sido calculado com pesos
#   que outros já alteraram (a chamada **defasagem**, *staleness* em inglês).
#
# A célula abaixo sorteia, com uma semente fixa, os tempos de passo de 4 workers (alguns passos
# atrasam) e compara quantas atualizações cada modo conclui no mesmo tempo.

# %%
from sim.course.sync_vs_async import asynchronous_updates_by, step_times, synchronous_time

# 100 steps' worth of times per worker: asynchronous workers may run past step 50.
times = step_times(workers=4, steps=100, base=0.1, spread=0.3, seed=0)
sync_seconds = synchronous_time(times[:50])
async_updates = asynchronous_updates_by(times, deadline=sync_seconds)
print(t("lesson00.sync_line", steps=50, workers=4, n=50 * 4, s=sync_seconds))
print(t("lesson00.async_line", n=async_updates, s=sync_seconds))

# %%
import matplotlib.pyplot as plt
from sim.course.plots import label

fig, ax = plt.subplots(figsize=(7, 3))
ax.plot(np.arange(1, 51), np.cumsum(times[:50].max(axis=1)), label=label("sync"))
ax.plot(np.arange(1, 51), np.cumsum(times[:50].mean(axis=1)), label=label("async_mean_worker"))
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
# <!-- claim sync_climbs_faster: holds(bool(np.all(times[:50].max(axis=1) > times[:50].mean(axis=1))), "at every step the slowest of the 4 workers is slower than their mean") & above(async_updates, 50 * 4) -->
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

# %% [markdown] lang="zh"
# 同步曲线上升得更快：每一步它都要等 4 个工作进程中最慢的那个完成。异步训练让所有工作进程一直保持忙碌，代价是梯度可能已经陈旧。哪种方式*每秒*学得更快，取决于模型和集群；后面关于参数服务器的几节课会对此进行测量。<!-- claim sync_climbs_faster -->
#
# ## 3. 策略全景图
#
# | 策略 | 适用场景 | 同步？ | 变量存放位置 |
# |---|---|---|---|
# | 默认策略 | 单个设备，不进行分布 | — | 该设备上 |
# | `OneDeviceStrategy` | 指定的单个设备 | — | 该设备上 |
# | `MirroredStrategy` | 一台机器上的多个 GPU | 是（全归约） | 在每个 GPU 上镜像 |
# | `CentralStorageStrategy` | 一台机器上的多个 GPU | 是 | 只存一份，位于 CPU 上（或唯一的 GPU 上） |
# | `TPUStrategy` | 一个 TPU 的各个核心 | 是 | 在每个核心上镜像 |
# | `MultiWorkerMirroredStrategy` | 多台机器（`TF_CONFIG`） | 是（集合通信） | 在每个设备上镜像 |
# | `ParameterServerStrategy` | 工作进程 + 参数服务器 | 否 | 参数服务器上，可能分片存放 |
#
# TensorFlow 指南中列出的各策略所支持的训练 API：

# %% [markdown] lang="pt"
# A curva síncrona sobe mais rápido: a cada passo, ela paga o preço do mais lento dos quatro workers. O
# treinamento assíncrono mantém todos os workers ocupados, ao custo de gradientes defasados. Qual dos
# dois aprende mais rápido *por segundo* depende do modelo e do cluster; as lições sobre servidores de
# parâmetros medem isso.
# <!-- claim sync_climbs_faster -->
#
# ## 3. O mapa das estratégias
#
# | Estratégia | Onde roda | Síncrona? | Onde ficam as variáveis |
# |---|---|---|---|
# | estratégia padrão | um dispositivo, sem distribuição | — | nesse dispositivo |
# | `OneDeviceStrategy` | um dispositivo escolhido | — | nesse dispositivo |
# | `MirroredStrategy` | várias GPUs de uma máquina | sim (all-reduce) | espelhadas em cada GPU |
# | `CentralStorageStrategy` | várias GPUs de uma máquina | sim | uma única cópia, na CPU (ou na única GPU) |
# | `TPUStrategy` | os núcleos de uma TPU | sim | espelhadas em cada núcleo |
# | `MultiWorkerMirroredStrategy` | várias máquinas (`TF_CONFIG`) | sim (operações coletivas) | espelhadas em cada dispositivo |
# | `ParameterServerStrategy` | workers + servidores de parâmetros | não | nos servidores de parâmetros, possivelmente fragmentadas |
#
# Qual API de treinamento cada uma suporta, segundo o guia do TensorFlow:

# %% slide="figure"
from sim.course import strategy_map

strategy_map.show()

# %% [markdown] lang="en"
# ## 4. How this course works
#
# You write TensorFlow code. `import sim.tf as tf` gives the same API on a **simulated machine**
# (the default is a workstation with 4 GPUs on a shared PCIe switch); change that one line to
# `import tensorflow as tf` and the same code runs on real TensorFlow with the same numbers, as long
# as it is code TensorFlow accepts: where TensorFlow refuses something (a Keras 3 `fit` whose first
# batch splits unevenly, lesson 04) the simulator refuses it too, with TensorFlow's error. A line
# marked `# sim-only` uses one of the simulator's own tools (its clock, its timelines, the course's
# printed labels, its error display); TensorFlow has no such name, so leave those lines out on real
# TensorFlow. Here is the simulated machine as TensorFlow sees it:

# %% [markdown] lang="zh"
# ## 4. 本课程的使用方式
#
# 你编写的是 TensorFlow 代码。`import sim.tf as tf` 在一台**模拟机器**上提供相同的 API（默认是一台工作站，4 个 GPU 共用一个 PCIe 交换机）；把这一行改成 `import tensorflow as tf`，同样的代码就会在真正的 TensorFlow 上运行，并得到相同的数值，前提是 TensorFlow 接受这段代码：凡是 TensorFlow 拒绝的写法（比如第一个批次不能均匀切分的 Keras 3 `fit`，见第 04 课），模拟器也会以 TensorFlow 的错误拒绝。标有 `# sim-only` 的代码行用的是模拟器自带的工具（模拟时钟、时间线、课程的输出标签、错误显示），TensorFlow 中没有这些名字，在真正的 TensorFlow 上运行时删掉这些行即可。下面是 TensorFlow 眼中的这台模拟机器：

# %% [markdown] lang="pt"
# ## 4. Como este curso funciona
#
# Você escreve código TensorFlow. `import sim.tf as tf` oferece a mesma API em uma **máquina
# simulada** (por padrão, uma estação de trabalho com 4 GPUs ligadas a um mesmo switch PCIe);
# troque essa única linha por `import tensorflow as tf` e o mesmo código roda no TensorFlow de
# verdade, com os mesmos números, desde que seja código que o TensorFlow aceita: onde o TensorFlow
# recusa algo (um `fit` do Keras 3 cujo primeiro lote se divide de forma desigual, lição 04), o
# simulador também recusa, com o erro do TensorFlow. Uma linha marcada com `# sim-only` usa uma ferramenta própria do
# simulador (o relógio, as linhas do tempo, os rótulos impressos do curso, a exibição de erros); o
# TensorFlow não tem esses nomes, então deixe essas linhas de fora no TensorFlow de verdade. Veja a
# máquina simulada do jeito que o TensorFlow a enxerga:

# %%
import sim.tf as tf

print(tf.config.list_physical_devices("GPU"))
strategy = tf.distribute.MirroredStrategy()
print("num_replicas_in_sync:", strategy.num_replicas_in_sync)

# %% [markdown] lang="en"
# - Every strategy call advances a **simulated clock**, so you can see what communication costs and
#   draw a **timeline** of devices and links, without owning a cluster.
# - Each lesson has exercises with a **checker**: it runs your function on several cases and tells
#   you what is right, what is wrong, and often which mistake you made. Here is the checker of this
#   lesson's exercise fed the "mean of means" from above; it explains the mistake:
# <!-- claim default_four_gpus: holds(len(tf.config.list_physical_devices("GPU")) == 4 and strategy.num_replicas_in_sync == 4, "the default machine shows 4 GPUs, 4 replicas in sync") -->

# %% [markdown] lang="zh"
# - 每次调用策略都会推进**模拟时钟**，因此无需拥有集群，你也能看到通信的开销，并画出设备和链路的**时间线**。
# - 每节课都配有练习和**检查器**：检查器会用多个用例运行你的函数，告诉你哪些对、哪些错，而且往往还能指出你犯的是哪种错误。下面把上文的“均值的均值”交给本节课练习的检查器，它会解释错在哪里：<!-- claim default_four_gpus -->

# %% [markdown] lang="pt"
# - Cada chamada à estratégia avança um **relógio simulado**, e assim você vê quanto custa a
#   comunicação e desenha uma **linha do tempo** dos dispositivos e enlaces, sem precisar ter um
#   cluster.
# - Cada lição tem exercícios com um **verificador**: ele executa a sua função em vários casos e diz o
#   que está certo, o que está errado e, muitas vezes, qual erro você cometeu. Abaixo, o verificador do
#   exercício desta lição recebe a "média das médias" calculada acima e explica o erro:
# <!-- claim default_four_gpus -->

# %% tags=["raises-exception"]
from sim.course.exercises.lesson00_data_parallel import check_data_parallel_gradient

def mean_of_means_gradient(w, x, y, num_replicas):
    shards = zip(np.array_split(x, num_replicas), np.array_split(y, num_replicas))
    return np.mean([gradient_sum(w, xs, ys) / len(xs) for xs, ys in shards if len(xs)], axis=0)

check_data_parallel_gradient(mean_of_means_gradient)

# %% [markdown] lang="en"
# ## Summary
#
# - Data parallelism: every replica holds the model, takes a slice of the global batch, and an
#   all-reduce combines the gradients. Divide by the **global** batch size and the result equals
#   single-device training exactly. <!-- claim split_exact -->
# - Synchronous strategies wait for the slowest replica at each step; asynchronous parameter-server
#   training never waits but uses stale weights.
# - Next: lesson 01 measures what communication costs.
#
# **Exercise:** open `exercises/en/00_data_parallel_gradient.ipynb`.

# %% [markdown] lang="zh"
# ## 小结
#
# - 数据并行：每个副本都保存一份模型，处理全局批次中的一个分片，再由全归约合并梯度。只要除以**全局**批次大小，结果就与单设备训练完全相同。<!-- claim split_exact -->
# - 同步策略在每一步都要等待最慢的副本；异步的参数服务器训练从不等待，但使用的是陈旧的权重。
# - 接下来：第 01 课将测量通信的开销。
#
# **练习**：打开 `exercises/zh/00_data_parallel_gradient.ipynb`。

# %% [markdown] lang="pt"
# ## Resumo
#
# - Paralelismo de dados: cada réplica mantém o modelo e recebe uma fatia do lote global, e um
#   all-reduce combina os gradientes. Divida pelo tamanho do lote **global** e o resultado será
#   exatamente igual ao do treinamento em um único dispositivo. <!-- claim split_exact -->
# - As estratégias síncronas esperam a réplica mais lenta a cada passo; o treinamento assíncrono com
#   servidores de parâmetros nunca espera, mas usa pesos defasados.
# - A seguir: a lição 01 mede quanto custa a comunicação.
#
# **Exercício:** abra `exercises/pt/00_data_parallel_gradient.ipynb`.
