# %% [markdown] lang="en"
# # 04 · Keras `Model.fit` under a strategy
#
# With Keras, going from one device to several takes two changes: create a strategy, and build
# and compile the model inside `strategy.scope()`. `fit` does the rest. This lesson looks at what
# "the rest" is, because that is where the surprises hide:
#
# 1. the guide's code, unchanged except for the import, with the simulated time of each step;
# 2. how each **global** batch is cut into **per-replica** batches (not always evenly);
# 3. why a bigger global batch usually wants a bigger learning rate;
# 4. which number the `loss` in the progress line really is;
# 5. two errors provoked on purpose, and how to fix them.

# %% [markdown] lang="zh"
# # 04 · 在策略下使用 Keras `Model.fit`
#
# 用 Keras 从单个设备扩展到多个设备只需要两处改动：创建一个策略，然后在 `strategy.scope()` 中构建并编译模型，剩下的交给 `fit`。本课要看的正是“剩下的”这部分，因为意外往往藏在这里：
#
# 1. 指南中的代码，除了 import 之外原封不动，并显示每一步的模拟时间；
# 2. 每个**全局**批次如何被切成**每个副本的批次**（并不总是均匀的）；
# 3. 为什么更大的全局批次通常需要更大的学习率；
# 4. 进度行中的 `loss` 到底是哪个数；
# 5. 故意引发两个错误，并学会修正它们。

# %% [markdown] lang="pt"
# # 04 · Keras `Model.fit` com uma estratégia
#
# Com o Keras, passar de um dispositivo para vários exige duas mudanças: criar uma estratégia e
# construir e compilar o modelo dentro de `strategy.scope()`. O `fit` faz o resto. Esta lição examina
# esse "resto", porque é nele que as surpresas se escondem:
#
# 1. o código do guia, sem nenhuma mudança além do import, com o tempo simulado de cada passo;
# 2. como cada lote **global** é cortado em **lotes por réplica** (nem sempre por igual);
# 3. por que um lote global maior costuma pedir uma taxa de aprendizado maior;
# 4. que número é, de fato, a `loss` na linha de progresso;
# 5. dois erros provocados de propósito, e como corrigi-los.

# %% [markdown] lang="en"
# ## 1. The guide's snippet
#
# This is the code of the guide "Distributed training with TensorFlow", character for character;
# only the first import differs. `MirroredStrategy()` takes every GPU of the simulated machine
# (the course default has four), and the model and its optimizer are created in the scope, so
# their variables are mirrored on the four GPUs.

# %% [markdown] lang="zh"
# ## 1. 指南中的代码片段
#
# 下面是指南《使用 TensorFlow 进行分布式训练》中的代码，一字未改，只有第一行 import 不同。`MirroredStrategy()` 会使用模拟机器上的所有 GPU（课程默认的机器有 4 个），模型和它的优化器都在作用域内创建，所以它们的变量会被镜像到这 4 个 GPU 上。

# %% [markdown] lang="pt"
# ## 1. O trecho do guia
#
# Este é o código do guia "Treinamento distribuído com o TensorFlow", caractere por caractere; só o
# primeiro import muda. `MirroredStrategy()` usa todas as GPUs da máquina simulada (a máquina padrão
# do curso tem quatro), e o modelo e o otimizador são criados dentro do escopo, então as variáveis
# deles ficam espelhadas nas quatro GPUs.

# %%
import numpy as np
import sim.tf as tf

tf.keras.utils.set_random_seed(0)

mirrored_strategy = tf.distribute.MirroredStrategy()

with mirrored_strategy.scope():
  model = tf.keras.Sequential([
      tf.keras.layers.Dense(1, input_shape=(1,),
                            kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
  model.compile(loss='mse', optimizer='sgd')

# %%
dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(10)
with sim.show_error():   # sim-only: prints the error as "Type: message"
    model.fit(dataset, epochs=2)

# %% [markdown] lang="en"
# The guide's next line fails here, exactly as on TensorFlow 2.21 with four devices. The guide
# ran on one GPU, and with one replica nothing is split. With four, each batch of 10 is cut
# `[3, 3, 3, 1]` (section 2 shows how), and **Keras 3** (the `tf.keras` of TensorFlow 2.16 and
# later) starts `fit` and `evaluate` by reducing the first batch to the host CPU, to build the
# model from it (`_maybe_symbolic_build` calls `strategy.reduce("MEAN", batch, axis=None)`). That
# reduce adds the four slices element by element, and `AddN` cannot add a `[3, 1]` to a `[1, 1]`.
# tf-keras (Keras 2, the `tf.keras` the guide was written for) has no such step and trains on the
# same batches. Only the **first** batch must split evenly: pick a global batch that is a multiple
# of the number of replicas, here 8 = 4 × 2.

# %% [markdown] lang="zh"
# 指南的下一行在这里失败了，和在有 4 个设备的 TensorFlow 2.21 上完全一样。指南是在单个 GPU 上运行的，只有一个副本时什么都不用切分。有 4 个副本时，每个 10 个样本的批次被切成 `[3, 3, 3, 1]`（第 2 节会说明怎么切），而 **Keras 3**（TensorFlow 2.16 及之后版本的 `tf.keras`）在 `fit` 和 `evaluate` 开始时，会先把第一个批次归约到主机的 CPU 上，用它来构建模型（`_maybe_symbolic_build` 调用 `strategy.reduce("MEAN", batch, axis=None)`）。这次归约把 4 个分片逐元素相加，而 `AddN` 无法把 `[3, 1]` 和 `[1, 1]` 相加。tf-keras（Keras 2，即编写指南时的 `tf.keras`）没有这一步，会在同样的批次上正常训练。只有**第一个**批次必须能被均匀切分：请选一个是副本数整数倍的全局批次大小，这里用 8 = 4 × 2。

# %% [markdown] lang="pt"
# A linha seguinte do guia falha aqui, exatamente como no TensorFlow 2.21 com quatro dispositivos. O
# guia rodava em uma GPU, e com uma réplica nada é dividido. Com quatro, cada lote de 10 é cortado em
# `[3, 3, 3, 1]` (a seção 2 mostra como), e o **Keras 3** (o `tf.keras` do TensorFlow 2.16 em diante)
# começa o `fit` e o `evaluate` reduzindo o primeiro lote na CPU do host, para construir o modelo a
# partir dele (`_maybe_symbolic_build` chama `strategy.reduce("MEAN", batch, axis=None)`). Essa
# redução soma as quatro fatias elemento a elemento, e o `AddN` não consegue somar um `[3, 1]` com um
# `[1, 1]`. O tf-keras (Keras 2, o `tf.keras` para o qual o guia foi escrito) não tem esse passo e
# treina nos mesmos lotes. Só o **primeiro** lote precisa se dividir por igual: escolha um lote global
# que seja múltiplo do número de réplicas, aqui 8 = 4 × 2.

# %%
dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(8)
model.fit(dataset, epochs=2)
model.evaluate(dataset)

# %% [markdown] lang="en"
# The progress line looks like TensorFlow's, with one difference: the time is **simulated**. Each
# step costs what the four GPUs of the simulated workstation would take to run the forward and
# backward pass on their share of the batch (each op also pays a fixed launch cost, which is most
# of the step for a model this small), plus the all-reduce of the gradients. Your laptop's speed
# plays no part, so everyone sees the same numbers.
#
# The guide then trains on NumPy arrays (with `batch_size=10`, which fails the same way; here 8).
# `batch_size` is the **global** batch: Keras builds a dataset batched by 8 and distributes it
# like the one above.

# %% [markdown] lang="zh"
# 进度行看起来和 TensorFlow 的一样，只有一处不同：时间是**模拟**出来的。每一步的耗时，是模拟工作站上的 4 个 GPU 对各自那份批次做前向和反向计算所需的时间（每个操作还要付出固定的启动开销，对这么小的模型来说，它占了一步的大部分时间），再加上梯度全归约的时间。你的笔记本电脑有多快与此无关，所以每个人看到的数字都相同。
#
# 接着，指南在 NumPy 数组上训练（它用的 `batch_size=10` 会以同样的方式失败，这里改用 8）。`batch_size` 是**全局**批次：Keras 会构建一个按 8 分批的数据集，并像上面那样分发它。

# %% [markdown] lang="pt"
# A linha de progresso parece a do TensorFlow, com uma diferença: o tempo é **simulado**. Cada
# passo custa o que as quatro GPUs da estação de trabalho simulada levariam para fazer a passagem
# para a frente e para trás na sua parte do lote (cada operação paga ainda um custo fixo de
# lançamento, que é a maior parte do passo em um modelo tão pequeno), mais o all-reduce dos
# gradientes. A velocidade do seu notebook não entra na conta, então todo mundo vê os mesmos
# números.
#
# Em seguida o guia treina com arrays NumPy (com `batch_size=10`, que falha do mesmo jeito; aqui, 8).
# O `batch_size` é o lote **global**: o Keras monta um dataset em lotes de 8 e o distribui como o de
# cima.

# %%
inputs, targets = np.ones((100, 1)), np.ones((100, 1))
model.fit(inputs, targets, epochs=2, batch_size=8)

# %%
mirrored_strategy.num_replicas_in_sync

# %% [markdown] lang="en"
# ## 2. How a global batch is split
#
# Four replicas, batches of 10: who gets what? `strategy.experimental_distribute_dataset` is what
# `fit` uses to hand out the batches, and we can call it ourselves. Each element it yields holds
# one batch per replica; `experimental_local_results` lists them.

# %% [markdown] lang="zh"
# ## 2. 全局批次如何被切分
#
# 4 个副本，批次大小为 10：每个副本各拿到多少？`fit` 用 `strategy.experimental_distribute_dataset` 来分发批次，我们也可以自己调用它。它产生的每个元素都为每个副本各包含一个批次，`experimental_local_results` 会把它们逐个列出来。

# %% [markdown] lang="pt"
# ## 2. Como um lote global é dividido
#
# Quatro réplicas, lotes de 10: quem recebe o quê? O `fit` usa `strategy.experimental_distribute_dataset`
# para distribuir os lotes, e nós também podemos chamá-la. Cada elemento que ela produz contém um
# lote por réplica; `experimental_local_results` os lista.

# %%
def per_replica_sizes(strategy, dataset):
    """For each step, the batch size each replica receives."""
    steps = []
    for batch in strategy.experimental_distribute_dataset(dataset):
        steps.append([int(t.shape[0]) for t in strategy.experimental_local_results(batch)])
    return steps

dataset = tf.data.Dataset.range(10).batch(10)
print("AUTO:", per_replica_sizes(mirrored_strategy, dataset))

options = tf.data.Options()
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
print("OFF: ", per_replica_sizes(mirrored_strategy, dataset.with_options(options)))

# %% [markdown] lang="en"
# The same ten examples are split `[3, 3, 3, 1]` with the default policy and `[3, 3, 2, 2]` with
# the auto-shard policy `OFF`. TensorFlow has two rebatching algorithms:
#
# - the **legacy rebatch** cuts each input batch of `b` examples, on its own, into slices of
#   `ceil(b / replicas)`: here `ceil(10 / 4) = 3`, so 3 + 3 + 3 and whatever is left (1);
# - **RebatchV2** gives balanced sizes (they differ by at most one), `[3, 3, 2, 2]`, and takes them
#   from the data as one flat stream.
#
# Which one runs depends on the sharding policy. The default `AUTO` first tries to shard by
# file; a `range`, a `from_tensor_slices` or NumPy arrays have no files, so it falls back to
# sharding by `DATA`, and sharding by data only works with the legacy rebatch. With `OFF` nothing
# is sharded and RebatchV2 stays. That is why the guide calls the exact split an implementation
# detail: don't write code that depends on it. One consequence matters, though: the replicas of
# one step may hold **different** numbers of examples.
#
# When the data runs out in the middle of a step, some replicas get nothing at all. The guide's
# example: 8 numbers, batches of 4, 3 replicas.

# %% [markdown] lang="zh"
# 同样的 10 个样本，在默认的分片策略下被切成 `[3, 3, 3, 1]`，在自动分片策略 `OFF` 下则是 `[3, 3, 2, 2]`。TensorFlow 有两种重新分批的算法：
#
# - **旧版重新分批**（legacy rebatch）把每个含 `b` 个样本的输入批次单独切成大小为 `ceil(b / 副本数)` 的分片：这里 `ceil(10 / 4) = 3`，于是得到 3 + 3 + 3，再加上剩下的 1 个；
# - **RebatchV2** 给出均衡的大小（彼此最多相差 1），即 `[3, 3, 2, 2]`，并把数据当作一条扁平的数据流依次取用。
#
# 用哪一种取决于分片策略。默认的 `AUTO` 先尝试按文件分片；`range`、`from_tensor_slices` 或 NumPy 数组都没有文件，于是它退回到按 `DATA` 分片，而按数据分片只能配合旧版重新分批使用。在 `OFF` 分片策略下不做任何分片，RebatchV2 得以保留。这就是为什么指南说具体的切分方式是实现细节：不要写依赖它的代码。不过有一个后果很重要：同一步中各副本拿到的样本数可能**不同**。
#
# 如果数据在一步的中途耗尽，有些副本会什么都拿不到。指南中的例子是：8 个数，批次大小为 4，3 个副本。

# %% [markdown] lang="pt"
# Os mesmos dez exemplos são divididos em `[3, 3, 3, 1]` com a política padrão e em `[3, 3, 2, 2]`
# com a política de fragmentação automática `OFF`. O TensorFlow tem dois algoritmos de rebatch:
#
# - o **rebatch legado** corta cada lote de entrada de `b` exemplos, isoladamente, em fatias de
#   `ceil(b / réplicas)`: aqui `ceil(10 / 4) = 3`, então 3 + 3 + 3 e o que sobrar (1);
# - o **RebatchV2** dá tamanhos equilibrados (diferem no máximo em um), `[3, 3, 2, 2]`, e os tira
#   dos dados como um único fluxo contínuo.
#
# Qual deles roda depende da política de fragmentação. O `AUTO` padrão tenta primeiro fragmentar por
# arquivo; um `range`, um `from_tensor_slices` ou arrays NumPy não têm arquivos, então ele cai na
# fragmentação por `DATA`, e fragmentar por dados só funciona com o rebatch legado. Com `OFF` nada é
# fragmentado e vale o RebatchV2. Por isso o guia diz que a divisão exata é um detalhe de
# implementação: não escreva código que dependa dela. Uma consequência importa, porém: as réplicas
# de um mesmo passo podem ter quantidades **diferentes** de exemplos.
#
# Quando os dados acabam no meio de um passo, algumas réplicas não recebem nada. O exemplo do guia:
# 8 números, lotes de 4, 3 réplicas.

# %%
three = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1", "/gpu:2"])
for batch in three.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)):
    print([t.numpy().tolist() for t in three.experimental_local_results(batch)])

# %% [markdown] lang="en"
# `ceil(4 / 3) = 2`, so two slices of 2 use up each batch and the third replica gets an **empty
# dummy batch**. It still runs the step (a synchronous all-reduce needs everyone), it just
# contributes nothing. The same happens at the end of an epoch whose size is not a multiple of the
# global batch: the last batch is short. `drop_remainder=True` throws that short batch away, so
# every step is full, at the price of a few examples per epoch:

# %% [markdown] lang="zh"
# `ceil(4 / 3) = 2`，两个大小为 2 的分片就用完了一个批次，第三个副本拿到的是一个**空的占位批次**（dummy batch）。它仍然执行这一步（同步全归约需要所有副本都参与），只是不贡献任何东西。如果一个周期的样本数不是全局批次大小的整数倍，周期末尾也会出现同样的情况：最后一个批次较短。`drop_remainder=True` 会丢掉这个较短的批次，让每一步都是满的，代价是每个周期少用几个样本：

# %% [markdown] lang="pt"
# `ceil(4 / 3) = 2`, então duas fatias de 2 esgotam cada lote e a terceira réplica recebe um **lote
# fictício vazio**. Ela executa o passo mesmo assim (um all-reduce síncrono precisa de todos), só não
# contribui com nada. O mesmo acontece no fim de uma época cujo tamanho não é múltiplo do lote
# global: o último lote fica curto. `drop_remainder=True` descarta esse lote curto, e todo passo fica
# cheio, ao custo de alguns exemplos por época:

# %%
print(per_replica_sizes(mirrored_strategy, tf.data.Dataset.range(10).batch(4)))
print(per_replica_sizes(mirrored_strategy, tf.data.Dataset.range(10).batch(4, drop_remainder=True)))

# %% [markdown] lang="en"
# ## 3. Global batch, per-replica batch and the learning rate
#
# The batch you give `fit` (or the one in `dataset.batch`) is the **global** batch, shared by all
# replicas. If each GPU should work on 5 examples, multiply by the number of replicas, as the
# guide does. The guide then picks the learning rate from a table indexed by the global batch:

# %% [markdown] lang="zh"
# ## 3. 全局批次、每个副本的批次与学习率
#
# 你交给 `fit` 的批次（或 `dataset.batch` 中的批次）是**全局**批次，由所有副本共同分担。如果希望每个 GPU 处理 5 个样本，就要像指南那样乘以副本数。随后，指南根据全局批次大小从一张表中选出学习率：

# %% [markdown] lang="pt"
# ## 3. Lote global, lote por réplica e a taxa de aprendizado
#
# O lote que você passa ao `fit` (ou o de `dataset.batch`) é o lote **global**, dividido entre todas
# as réplicas. Se cada GPU deve trabalhar com 5 exemplos, multiplique pelo número de réplicas, como
# o guia faz. Depois o guia escolhe a taxa de aprendizado em uma tabela indexada pelo lote global:

# %%
# Compute a global batch size using a number of replicas.
BATCH_SIZE_PER_REPLICA = 5
global_batch_size = (BATCH_SIZE_PER_REPLICA *
                     mirrored_strategy.num_replicas_in_sync)
dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100)
dataset = dataset.batch(global_batch_size)

LEARNING_RATES_BY_BATCH_SIZE = {5: 0.1, 10: 0.15, 20:0.175}
learning_rate = LEARNING_RATES_BY_BATCH_SIZE[global_batch_size]
print(global_batch_size, learning_rate)

# %% [markdown] lang="en"
# Why should the learning rate depend on the batch? Keep the number of epochs fixed and add
# replicas with the same per-replica batch: the global batch grows `N` times, so an epoch has `N`
# times **fewer** steps. Each step averages the gradient over more examples (a less noisy
# direction), but with the same learning rate the model moves the same distance per step, and
# makes fewer steps. The **linear scaling rule** (Goyal et al., 2017) says: multiply the batch by
# `k`, multiply the learning rate by `k`. It is a rule of thumb: it works up to some batch size,
# often needs a few warm-up epochs, and breaks down beyond that. The guide's table grows more
# slowly than linear, a reminder that the final word comes from tuning:

# %% [markdown] lang="zh"
# 学习率为什么要随批次变化？保持周期数不变，在每个副本的批次不变的前提下增加副本：全局批次变为原来的 `N` 倍，于是一个周期的步数**减少**为原来的 `1/N`。每一步在更多样本上平均梯度（方向的噪声更小），但如果学习率不变，模型每一步走的距离还是一样，而步数却变少了。**线性缩放规则**（Goyal 等人，2017）说：批次乘以 `k`，学习率也乘以 `k`。这只是经验法则：它在一定的批次大小以内有效，往往需要几个周期的预热（warm-up），超过这个范围就会失效。指南中的表格增长得比线性慢，这提醒我们：最终还得靠调参来决定。

# %% [markdown] lang="pt"
# Por que a taxa de aprendizado deveria depender do lote? Fixe o número de épocas e acrescente
# réplicas com o mesmo lote por réplica: o lote global cresce `N` vezes, então uma época tem só `1/N` dos passos. Cada passo faz a média do gradiente sobre mais exemplos (uma direção menos
# ruidosa), mas com a mesma taxa de aprendizado o modelo anda a mesma distância por passo, e dá
# menos passos. A **regra de escalonamento linear** (Goyal et al., 2017) diz: multiplicou o lote por
# `k`, multiplique a taxa de aprendizado por `k`. É uma regra prática: funciona até certo tamanho de
# lote, muitas vezes precisa de algumas épocas de aquecimento (warm-up) e deixa de valer além disso.
# A tabela do guia cresce mais devagar do que a regra linear, um lembrete de que quem dá a palavra
# final é o ajuste fino:

# %%
from sim.i18n import number_list, t   # sim-only

for g, lr in LEARNING_RATES_BY_BATCH_SIZE.items():
    print(t("lesson04.lr_rule", g=g, lr=lr, linear=0.1 * g / 5))

# %% [markdown] lang="en"
# Now a small experiment on the simulator: a little network (16 inputs, 64 hidden units) fitted
# for 5 epochs on 1024 examples, 16 examples per replica, on 1, 2 and 4 GPUs, with the base
# learning rate 0.02 kept as it is or multiplied by the number of replicas. Each run starts from
# the same weights (`set_random_seed(0)`), and `sim.runtime.clock()` gives the simulated time.

# %% [markdown] lang="zh"
# 现在在模拟器上做个小实验：一个小网络（16 个输入，64 个隐藏单元）在 1024 个样本上训练 5 个周期，每个副本 16 个样本，分别使用 1、2、4 个 GPU，基础学习率 0.02 要么保持不变，要么乘以副本数。每次运行都从相同的权重开始（`set_random_seed(0)`），`sim.runtime.clock()` 给出模拟时间。

# %% [markdown] lang="pt"
# Agora um pequeno experimento no simulador: uma rede pequena (16 entradas, 64 unidades ocultas)
# treinada por 5 épocas em 1024 exemplos, 16 exemplos por réplica, em 1, 2 e 4 GPUs, com a taxa de
# aprendizado base 0,02 mantida como está ou multiplicada pelo número de réplicas. Cada execução
# parte dos mesmos pesos (`set_random_seed(0)`), e `sim.runtime.clock()` dá o tempo simulado.

# %%
from sim.runtime import clock   # sim-only

rng = np.random.default_rng(0)
x = rng.normal(size=(1024, 16)).astype("float32")
w_true = rng.normal(size=(16, 1)).astype("float32")
y = (np.tanh(x @ w_true) + 0.1 * rng.normal(size=(1024, 1))).astype("float32")

BASE_LEARNING_RATE, BATCH_SIZE_PER_REPLICA, EPOCHS = 0.02, 16, 5

def train(num_replicas, learning_rate):
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(0)
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(num_replicas)])
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(64, activation="relu", input_shape=(16,)),
            tf.keras.layers.Dense(1)])
        model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate))
    global_batch = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
    start, first_step = clock().now, len(clock().steps)
    history = model.fit(x, y, epochs=EPOCHS, batch_size=global_batch, verbose=0)
    return history.history["loss"], clock().now - start, len(clock().steps) - first_step

results, timings = {}, {}
table = [t("lesson04.lr_table_header")]
for num_replicas, scaled in [(1, False), (2, False), (2, True), (4, False), (4, True)]:
    lr = BASE_LEARNING_RATE * (num_replicas if scaled else 1)
    losses, seconds, steps = train(num_replicas, lr)
    results[num_replicas, scaled] = (lr, losses)
    timings[num_replicas, scaled] = (seconds, steps)
    table.append(t("lesson04.lr_table_row", replicas=num_replicas, batch=BATCH_SIZE_PER_REPLICA * num_replicas,
                   lr=lr, steps=steps, loss=losses[-1], ms=seconds * 1e3, us=seconds / steps * 1e6))
print("\n".join(table))

# %% slide="figure"
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(7, 3.8))
epochs = np.arange(1, EPOCHS + 1)
for (num_replicas, scaled), (lr, losses) in results.items():
    key = "plot_baseline" if num_replicas == 1 else "plot_scaled" if scaled else "plot_unscaled"
    ax.plot(epochs, losses, marker="o", color=f"C{num_replicas // 2}",
            linestyle="-" if scaled or num_replicas == 1 else "--",
            label=t(f"lesson04.{key}", n=num_replicas, lr=lr))
ax.set_xlabel(t("lesson04.plot_epoch"))
ax.set_ylabel(t("lesson04.plot_loss"))
ax.set_title(t("lesson04.plot_lr_title"))
ax.set_xticks(epochs)
ax.legend(fontsize=8)
plt.show()

# %% [markdown] lang="en"
# Two lessons in one table:
#
# - **Learning rate.** With the rate unchanged (dashed lines), 2 and 4 replicas end the same
#   number of epochs with a clearly higher loss: they simply made 2 and 4 times fewer steps.
#   Scaled linearly (solid lines), they land close to the single GPU.
# - **Time.** Look at the last two columns. Each step takes a little *longer* with more GPUs: a
#   step of this little model is mostly the fixed launch cost of its ops, which every replica
#   pays in full whatever the size of its slice, and the all-reduce of the gradients comes on
#   top. Yet the 5 epochs take about half the time on 2 GPUs and a quarter on 4: with the
#   per-replica batch fixed, each step handles 2 or 4 times more examples, so an epoch needs 2 or
#   4 times fewer steps. The gain comes from the bigger global batch, not from a faster step,
#   which is exactly why the learning rate has to follow it. Lesson 03 showed the other side:
#   with the global batch fixed, more GPUs only made a tiny model's step slower.
# <!-- claim lr_unscaled_higher: holds(all(results[n, False][1][-1] > results[n, True][1][-1] for n in (2, 4)), "unscaled ends higher than scaled at 2 and 4 replicas") & holds(all(abs(results[n, True][1][-1] - results[1, False][1][-1]) < abs(results[n, False][1][-1] - results[1, False][1][-1]) for n in (2, 4)), "scaled lands closer to one GPU") -->
# <!-- claim step_slower_epoch_faster: holds(timings[1, False][0] / timings[1, False][1] < timings[2, True][0] / timings[2, True][1] < timings[4, True][0] / timings[4, True][1], "each step longer with more GPUs") & between(timings[2, True][0] / timings[1, False][0], 0.4, 0.65) & between(timings[4, True][0] / timings[1, False][0], 0.2, 0.35) -->

# %% [markdown] lang="zh"
# 一张表，两个教训：
#
# - **学习率。** 学习率不变时（虚线），2 个和 4 个副本在相同周期数结束时的损失明显更高：它们的步数只有原来的 1/2 和 1/4。按线性规则缩放后（实线），结果就接近单个 GPU 了。
# - **时间。** 看最后两列。GPU 越多，每一步反而略微*变慢*：这个小模型的一步主要是各个操作的固定启动开销，无论分片多大，每个副本都要全额付出，而梯度的全归约还要再加上去。然而 5 个周期的总时间在 2 个 GPU 上约为一半，在 4 个 GPU 上约为四分之一：每个副本的批次不变，每一步处理的样本数就变为原来的 2 倍或 4 倍，所以一个周期的步数只有原来的 1/2 或 1/4。收益来自更大的全局批次，而不是更快的一步，这正是学习率必须随之调整的原因。第 03 课展示了另一面：全局批次不变时，GPU 越多，小模型的每一步只会越慢。<!-- claim lr_unscaled_higher --><!-- claim step_slower_epoch_faster -->

# %% [markdown] lang="pt"
# Duas lições em uma tabela:
#
# - **Taxa de aprendizado.** Com a taxa inalterada (linhas tracejadas), 2 e 4 réplicas terminam o
#   mesmo número de épocas com uma perda claramente maior: elas simplesmente deram metade e um quarto
#   dos passos. Com a taxa escalonada linearmente (linhas contínuas), elas chegam perto da GPU única.
# - **Tempo.** Olhe as duas últimas colunas. Cada passo demora um pouco *mais* com mais GPUs: um
#   passo deste modelo pequeno é quase só o custo fixo de lançamento das suas operações, que cada
#   réplica paga inteiro, seja qual for o tamanho da sua fatia, e o all-reduce dos gradientes vem
#   por cima. Mesmo assim, as 5 épocas levam cerca de metade do tempo em 2 GPUs e um quarto em 4:
#   com o lote por réplica fixo, cada passo processa 2 ou 4 vezes mais exemplos, então uma época precisa de metade ou de um quarto dos passos. O ganho vem do lote global maior, não de um passo mais
#   rápido, e é exatamente por isso que a taxa de aprendizado precisa acompanhá-lo. A lição 03
#   mostrou o outro lado: com o lote global fixo, mais GPUs só deixaram mais lento o passo de um
#   modelo minúsculo.
# <!-- claim lr_unscaled_higher --><!-- claim step_slower_epoch_faster -->

# %% [markdown] lang="en"
# ## 4. The loss in the progress line
#
# Each replica computes the loss on its own slice. Which number does `fit` print? Take one batch
# of 10 examples on the four replicas (split `[3, 3, 3, 1]`), compute each replica's mean squared
# error with `strategy.run`, then let `fit` make exactly one step on that batch and read its log.
# Keras 3 refuses an uneven **first** batch (section 1), so `fit` first makes a step on an even
# batch of 8 and then one on our batch of 10: with `steps_per_epoch=1` each epoch is one step,
# and the second epoch's loss is the log of that one step. A callback computes the replicas'
# losses at the start of the second epoch, from the weights that step starts with (the loss is
# logged before the weights change, so the numbers are comparable).

# %% [markdown] lang="zh"
# ## 4. 进度行中的损失
#
# 每个副本都在自己的分片上计算损失。`fit` 打印的是哪个数？取一个 10 个样本的批次分给 4 个副本（切分为 `[3, 3, 3, 1]`），用 `strategy.run` 算出每个副本的均方误差，然后让 `fit` 在这个批次上恰好走一步，再读取它的日志。Keras 3 不接受不均匀的**第一个**批次（见第 1 节），所以 `fit` 先在一个 8 个样本的均匀批次上走一步，再在我们这个 10 个样本的批次上走一步：设置 `steps_per_epoch=1` 后，每个周期只有一步，第二个周期的损失就是那一步的日志。一个回调在第二个周期开始时，用那一步开始时的权重算出各副本的损失（损失是在权重更新之前记录的，所以这些数可以直接比较）。

# %% [markdown] lang="pt"
# ## 4. A perda na linha de progresso
#
# Cada réplica calcula a perda na sua fatia. Que número o `fit` imprime? Pegue um lote de 10
# exemplos nas quatro réplicas (divisão `[3, 3, 3, 1]`), calcule o erro quadrático médio de cada
# réplica com `strategy.run` e depois deixe o `fit` dar exatamente um passo nesse lote e leia o
# log dele. O Keras 3 recusa um **primeiro** lote desigual (seção 1), então o `fit` dá antes um passo
# em um lote igual de 8 e depois um no nosso lote de 10: com `steps_per_epoch=1` cada época é um
# passo, e a perda da segunda época é o log desse único passo. Um callback calcula as perdas das
# réplicas no início da segunda época, a partir dos pesos com que esse passo começa (a perda é
# registrada antes de os pesos mudarem, então os números são comparáveis).

# %%
tf.keras.backend.clear_session()
tf.keras.utils.set_random_seed(0)
with mirrored_strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1))

x = np.arange(10, dtype="float32").reshape(10, 1) / 10
y = 2 * x + 1
even = tf.data.Dataset.from_tensor_slices((x[:8], y[:8])).batch(8)      # [2, 2, 2, 2]
uneven = tf.data.Dataset.from_tensor_slices((x, y)).batch(10)          # [3, 3, 3, 1]

def replica_loss(inputs):
    features, labels = inputs
    return tf.reduce_mean(tf.square(labels - model(features))), tf.shape(features)[0]

class BeforeTheUnevenStep(tf.keras.callbacks.Callback):
    """At the start of epoch 1: the replicas' losses on the uneven batch, and the weights."""
    def on_epoch_begin(self, epoch, logs=None):
        if epoch == 1:
            batch = next(iter(mirrored_strategy.experimental_distribute_dataset(uneven)))
            losses, sizes = mirrored_strategy.run(replica_loss, args=(batch,))
            self.losses = np.array([float(v) for v in mirrored_strategy.experimental_local_results(losses)])
            self.sizes = np.array([int(v) for v in mirrored_strategy.experimental_local_results(sizes)])
            self.kernel, self.bias = self.model.get_weights()

look = BeforeTheUnevenStep()
history = model.fit(even.concatenate(uneven), epochs=2, steps_per_epoch=1, callbacks=[look], verbose=0)
losses, sizes, kernel, bias = look.losses, look.sizes, look.kernel, look.bias
print(t("lesson04.fit_sizes", value=sizes.tolist()))
print(t("lesson04.fit_losses", value=number_list(losses, ".4f")))
print(t("lesson04.fit_weighted", value=round(float(np.sum(sizes * losses) / sizes.sum()), 4)))
print(t("lesson04.fit_mean", value=round(float(losses.mean()), 4)))
print(t("lesson04.fit_logged", value=round(history.history["loss"][1], 4)))

# %% [markdown] lang="en"
# The logged loss is the **mean over the global batch**: each replica's mean weighted by the
# number of examples it had. Keras keeps the loss as a metric whose state is summed across
# replicas, so the single example of the fourth replica counts once, not as a quarter of the total.
# <!-- claim logged_is_weighted: about(history.history["loss"][1], float(np.sum(sizes * losses) / sizes.sum()), abs=1e-4) & holds(abs(history.history["loss"][1] - losses.mean()) > 0.1, "logged differs from the mean of the four") -->
#
# The gradient is a different story. Under `fit`, each replica takes the mean loss of its own
# slice and multiplies it by `1 / replicas`; the all-reduce then **sums** the gradients. With an
# even split that is exactly the gradient of the global mean (with 2 replicas and losses 0.4 and
# 0.8, each back-propagates 0.2 and 0.4, and 0.2 + 0.4 = 0.6 is the global mean). With an uneven
# split it is the mean of the replicas' means. We can read the gradient the step used from the
# change of the bias (`b ← b − 0.1 · g`) and compare:

# %% [markdown] lang="zh"
# 记录下来的损失是**全局批次上的均值**：各副本的均值按各自的样本数加权。Keras 把损失当作一个指标来维护，它的状态在各副本之间求和，所以第四个副本中那唯一的样本只算一次，而不是占总数的四分之一。<!-- claim logged_is_weighted -->
#
# 梯度则是另一回事。在 `fit` 中，每个副本取自己分片上的平均损失，再乘以 `1 / 副本数`；随后全归约把各副本的梯度**求和**。均匀切分时，这恰好是全局均值的梯度（2 个副本、损失分别为 0.4 和 0.8 时，它们各自反向传播 0.2 和 0.4，而 0.2 + 0.4 = 0.6 正是全局均值）。不均匀切分时，它是各副本均值的均值。我们可以从偏置的变化（`b ← b − 0.1 · g`）读出这一步实际使用的梯度，并加以比较：

# %% [markdown] lang="pt"
# A perda registrada é a **média sobre o lote global**: a média de cada réplica ponderada pelo número
# de exemplos que ela teve. O Keras guarda a perda como uma métrica cujo estado é somado entre as
# réplicas, então o único exemplo da quarta réplica conta uma vez, e não como um quarto do total.
# <!-- claim logged_is_weighted -->
#
# O gradiente é outra história. No `fit`, cada réplica pega a perda média da sua fatia e a multiplica
# por `1 / réplicas`; depois o all-reduce **soma** os gradientes. Com uma divisão uniforme, isso é
# exatamente o gradiente da média global (com 2 réplicas e perdas 0,4 e 0,8, cada uma retropropaga
# 0,2 e 0,4, e 0,2 + 0,4 = 0,6 é a média global). Com uma divisão desigual, é a média das médias das
# réplicas. Dá para ler o gradiente que o passo usou pela mudança do viés (`b ← b − 0.1 · g`) e
# comparar:

# %%
residual = (x @ kernel + bias - y).ravel()
slices = np.split(2 * residual, np.cumsum(sizes)[:-1])
print(t("lesson04.grad_used", value=round(float((bias - model.get_weights()[1])[0] / 0.1), 4)))
print(t("lesson04.grad_global_mean", value=round(float(np.mean(2 * residual)), 4)))
print(t("lesson04.grad_mean_of_means", value=round(float(np.mean([s.mean() for s in slices])), 4)))

# %% [markdown] lang="en"
# So with `fit`, an uneven last batch slightly over-weights the examples of the short replicas in
# that one step (TensorFlow does the same; under Keras 3 it is never the first batch, which must
# split evenly). Over an epoch the effect is small; if it matters, batch with
# `drop_remainder=True` and a global batch divisible by the number of replicas.
# <!-- claim gradient_mean_of_means: about(float((bias - model.get_weights()[1])[0] / 0.1), float(np.mean([s.mean() for s in slices])), abs=1e-3) & holds(abs(float(np.mean([s.mean() for s in slices])) - float(np.mean(2 * residual))) > 0.1, "mean of means differs from the global mean") -->
#
# ## 5. Two errors, on purpose
#
# First, a model built **outside** the scope and compiled inside it. Its variables are ordinary
# variables on one device, not mirrored ones. Which call fails depends on the Keras version:
#
# - **Keras 3** (`tf.keras` since TensorFlow 2.16, the default, and this course's) accepts the
#   model at `compile`; the first training step fails, when the optimizer tries to update the
#   variables on every replica, with an `AssertionError` that TensorFlow leaves empty (sim adds
#   why and the fix);
# - **tf-keras** (Keras 2, the `tf.keras` the guide was written for; `TF_USE_LEGACY_KERAS=1`)
#   refuses it at `compile` with a `ValueError` that names the first variable,
#   `<tf.Variable 'dense/kernel:0' ...>`. Keras 3 names that variable `kernel` (its `path`,
#   `sequential/dense/kernel`, says which layer it belongs to).

# %% [markdown] lang="zh"
# 所以在 `fit` 中，一个不均匀的最后批次会在那一步里稍稍加重样本较少的副本中各样本的权重（TensorFlow 也是如此；在 Keras 3 下它不会是第一个批次，因为第一个批次必须能被均匀切分）。<!-- claim gradient_mean_of_means -->放在整个周期里看，这个影响很小；如果它对你很重要，就用 `drop_remainder=True` 分批，并让全局批次大小能被副本数整除。
#
# ## 5. 故意引发的两个错误
#
# 第一个：在作用域**之外**构建模型，却在作用域之内编译它。它的变量是单个设备上的普通变量，而不是镜像变量。哪一步会失败取决于 Keras 的版本：
#
# - **Keras 3**（TensorFlow 2.16 起默认的 `tf.keras`，也是本课程使用的版本）：`compile` 时接受这个模型；到第一个训练步，优化器要在每个副本上更新这些变量时才失败，抛出一个 TensorFlow 没有附带任何消息的 `AssertionError`（sim 会补充原因和修正方法）；
# - **tf-keras**（Keras 2，即编写指南时的 `tf.keras`；需设置 `TF_USE_LEGACY_KERAS=1`）：在 `compile` 时就以 `ValueError` 拒绝它，消息中会写出第一个变量 `<tf.Variable 'dense/kernel:0' ...>`。Keras 3 把这个变量命名为 `kernel`（它的 `path` 为 `sequential/dense/kernel`，说明它属于哪一层）。

# %% [markdown] lang="pt"
# Então, com o `fit`, um último lote desigual dá um pouco mais de peso aos exemplos das réplicas
# com menos exemplos naquele passo (o TensorFlow faz o mesmo; no Keras 3 ele nunca é o primeiro lote,
# que precisa se dividir por igual). Ao longo de uma época o efeito é pequeno; se ele importar,
# use `drop_remainder=True` e um lote global divisível pelo número de réplicas.
# <!-- claim gradient_mean_of_means -->
#
# ## 5. Dois erros, de propósito
#
# Primeiro, um modelo construído **fora** do escopo e compilado dentro dele. As variáveis dele são
# variáveis comuns em um único dispositivo, não variáveis espelhadas. Qual chamada falha depende
# da versão do Keras:
#
# - o **Keras 3** (o `tf.keras` desde o TensorFlow 2.16, o padrão, e o deste curso) aceita o
#   modelo no `compile`; o primeiro passo de treinamento falha, quando o otimizador tenta
#   atualizar as variáveis em todas as réplicas, com um `AssertionError` que o TensorFlow deixa
#   sem mensagem (o sim acrescenta o motivo e a correção);
# - o **tf-keras** (Keras 2, o `tf.keras` para o qual o guia foi escrito; `TF_USE_LEGACY_KERAS=1`)
#   o recusa já no `compile` com um `ValueError` que cita a primeira variável,
#   `<tf.Variable 'dense/kernel:0' ...>`. O Keras 3 chama essa variável de `kernel` (o `path`
#   dela, `sequential/dense/kernel`, diz a qual camada ela pertence).

# %%
with sim.show_error():   # sim-only: prints the error as "Type: message"
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    with mirrored_strategy.scope():
        model.compile(loss="mse", optimizer="sgd")   # Keras 3 accepts it here
    model.fit(x, y, epochs=1, verbose=0)             # and fails at the first step

# %% [markdown] lang="en"
# The fix: create the model (its layers, and the optimizer if you build one yourself) and call
# `compile` in the same `with strategy.scope():` block, as in section 1. Calling `fit` outside the
# scope is fine: the model remembers its strategy.
#
# Second, `distribute_datasets_from_function`, the other way to feed a strategy. There TensorFlow
# does no rebatching: your function batches by the **per-replica** size, which
# `InputContext.get_per_replica_batch_size` computes from the global one. It accepts only a global
# batch that splits evenly; 10 examples over 4 replicas do not:

# %% [markdown] lang="zh"
# 修正方法：在同一个 `with strategy.scope():` 块中创建模型（包括它的各层；如果你自己构建优化器，也包括优化器）并调用 `compile`，就像第 1 节那样。在作用域之外调用 `fit` 没有问题：模型记得自己的策略。
#
# 第二个：`distribute_datasets_from_function`，这是给策略提供输入的另一种方式。这种方式下 TensorFlow 不会重新分批：你的函数要按**每个副本的批次**大小来分批，而 `InputContext.get_per_replica_batch_size` 会根据全局批次大小算出它。它只接受能被均匀切分的全局批次；10 个样本分给 4 个副本就不行：

# %% [markdown] lang="pt"
# A correção: crie o modelo (as camadas dele, e o otimizador se você mesmo o construir) e chame
# `compile` no mesmo bloco `with strategy.scope():`, como na seção 1. Chamar `fit` fora do escopo
# não tem problema: o modelo se lembra da sua estratégia.
#
# Segundo, `distribute_datasets_from_function`, a outra maneira de alimentar uma estratégia. Nela o
# TensorFlow não faz rebatch: a sua função monta lotes do tamanho **por réplica**, que
# `InputContext.get_per_replica_batch_size` calcula a partir do global. Ela só aceita um lote global
# que se divide por igual; 10 exemplos em 4 réplicas não se dividem:

# %%
with sim.show_error():   # sim-only: prints the error as "Type: message"
    def dataset_fn(input_context):
        batch_size = input_context.get_per_replica_batch_size(10)
        return tf.data.Dataset.range(40).batch(batch_size)

    mirrored_strategy.distribute_datasets_from_function(dataset_fn)

# %% [markdown] lang="en"
# Pick a global batch that is a multiple of `num_replicas_in_sync`, for instance
# `BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync` as in section 3.
#
# ## Summary
#
# - Create the strategy, then build **and** compile the model inside `strategy.scope()`; `fit`,
#   `evaluate` and `predict` need no change.
# - `dataset.batch(n)` and `fit(..., batch_size=n)` set the **global** batch; each replica gets
#   about `n / replicas`. Compute it as `BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync`.
# - The split is an implementation detail: in-memory data gets the legacy `ceil(b / replicas)`
#   slices (`[3, 3, 3, 1]`), `AutoShardPolicy.OFF` balanced sizes (`[3, 3, 2, 2]`); short last
#   batches and empty dummy batches happen unless you use `drop_remainder=True`.
# - More replicas with the same per-replica batch means fewer steps per epoch: scale the learning
#   rate (linearly as a first guess, then tune), and measure the time: each step gets a little
#   slower with more replicas, and an epoch gets faster only because it has fewer steps.
# - The logged loss is the mean over the global batch.
#
# **Exercise 04** asks you to predict the per-replica batch sizes TensorFlow produces, step by
# step, for any dataset size, global batch, number of replicas and policy.

# %% [markdown] lang="zh"
# 请选一个是 `num_replicas_in_sync` 整数倍的全局批次大小，例如像第 3 节那样用 `BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync`。
#
# ## 小结
#
# - 先创建策略，再在 `strategy.scope()` 中构建**并**编译模型；`fit`、`evaluate` 和 `predict` 都无需改动。
# - `dataset.batch(n)` 和 `fit(..., batch_size=n)` 设置的是**全局**批次；每个副本大约分到 `n / 副本数`。请用 `BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync` 来计算它。
# - 具体的切分方式是实现细节：内存中的数据按旧版的 `ceil(b / 副本数)` 切分（`[3, 3, 3, 1]`），`AutoShardPolicy.OFF` 则给出均衡的大小（`[3, 3, 2, 2]`）；除非使用 `drop_remainder=True`，否则会出现较短的最后批次和空的占位批次。
# - 每个副本的批次不变而副本增多，意味着每个周期的步数变少：要缩放学习率（先按线性规则估计，再调参），还要测量时间：副本越多，每一步会略微变慢，一个周期变快只是因为步数变少了。
# - 记录下来的损失是全局批次上的均值。
#
# **练习 04** 要求你预测 TensorFlow 在任意数据集大小、全局批次大小、副本数和分片策略下，每一步分给各副本的批次大小。

# %% [markdown] lang="pt"
# Escolha um lote global que seja múltiplo de `num_replicas_in_sync`, por exemplo
# `BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync`, como na seção 3.
#
# ## Resumo
#
# - Crie a estratégia e depois construa **e** compile o modelo dentro de `strategy.scope()`; `fit`,
#   `evaluate` e `predict` não mudam.
# - `dataset.batch(n)` e `fit(..., batch_size=n)` definem o lote **global**; cada réplica recebe cerca
#   de `n / réplicas`. Calcule-o como `BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync`.
# - A divisão é um detalhe de implementação: dados em memória recebem as fatias legadas de
#   `ceil(b / réplicas)` (`[3, 3, 3, 1]`), e `AutoShardPolicy.OFF`, tamanhos equilibrados
#   (`[3, 3, 2, 2]`); lotes finais curtos e lotes fictícios vazios acontecem, a menos que você use
#   `drop_remainder=True`.
# - Mais réplicas com o mesmo lote por réplica significam menos passos por época: escalone a taxa de
#   aprendizado (linearmente como primeiro palpite, depois ajuste) e meça o tempo: cada passo fica
#   um pouco mais lento com mais réplicas, e uma época só fica mais rápida porque tem menos passos.
# - A perda registrada é a média sobre o lote global.
#
# O **Exercício 04** pede que você preveja os tamanhos de lote por réplica que o TensorFlow produz,
# passo por passo, para qualquer tamanho de dataset, lote global, número de réplicas e política.
