# %% [markdown] lang="en"
# # 05 · CentralStorage, OneDevice, the default strategy and TPUStrategy
#
# Lessons 03 and 04 mirrored every variable on every GPU. This lesson looks at the other
# single-machine strategies, and asks one question of each: **where do the variables live, and
# what does that cost on the timeline?**
#
# 1. the **default strategy** and `OneDeviceStrategy`: the strategy API with one replica;
# 2. `CentralStorageStrategy`: one copy of each variable on the CPU, compared step for step with
#    `MirroredStrategy` on the same 4-GPU PCIe workstation;
# 3. `TPUStrategy` on a simulated TPU v3-8: 8 replicas and static shapes;
# 4. errors and surprises provoked on purpose;
# 5. a summary table.
#
# ## 1. The default strategy
#
# When no strategy is in scope, `tf.distribute.get_strategy()` still returns one: the **default
# strategy**, a singleton that distributes nothing. Its `run(fn)` just calls `fn`, it has one
# replica, and its `reduce` hands the value back.

# %% [markdown] lang="zh"
# # 05 · CentralStorage、OneDevice、默认策略与 TPUStrategy
#
# 第 03 课和第 04 课把每个变量镜像到每个 GPU 上。本节课来看单机上的其他几种策略，并对每一种都问同一个问题：**变量放在哪里，这在时间线上要付出什么代价？**
#
# 1. **默认策略**和 `OneDeviceStrategy`：只有一个副本的策略 API；
# 2. `CentralStorageStrategy`：每个变量只在 CPU 上存一份，在同一台 4 GPU 的 PCIe 工作站上，就同一个训练步与 `MirroredStrategy` 作比较；
# 3. 在模拟的 TPU v3-8 上运行 `TPUStrategy`：8 个副本和静态形状；
# 4. 故意引发的错误和意外；
# 5. 一张总结表。
#
# ## 1. 默认策略
#
# 即使作用域中没有任何策略，`tf.distribute.get_strategy()` 也会返回一个策略：**默认策略**。它是一个单例，不做任何分布。它的 `run(fn)` 只是调用 `fn`，它只有一个副本，它的 `reduce` 会把值原样返回。

# %% [markdown] lang="pt"
# # 05 · CentralStorage, OneDevice, a estratégia padrão e TPUStrategy
#
# As lições 03 e 04 espelharam cada variável em cada GPU. Esta lição examina as outras estratégias
# de uma única máquina e faz a mesma pergunta a cada uma: **onde ficam as variáveis, e quanto isso
# custa na linha do tempo?**
#
# 1. a **estratégia padrão** e a `OneDeviceStrategy`: a API de estratégias com uma réplica;
# 2. `CentralStorageStrategy`: uma única cópia de cada variável na CPU, comparada passo por passo
#    com a `MirroredStrategy` na mesma estação de trabalho com 4 GPUs em PCIe;
# 3. `TPUStrategy` em uma TPU v3-8 simulada: 8 réplicas e formas estáticas;
# 4. erros e surpresas provocados de propósito;
# 5. uma tabela de resumo.
#
# ## 1. A estratégia padrão
#
# Quando nenhuma estratégia está no escopo, `tf.distribute.get_strategy()` ainda retorna uma: a
# **estratégia padrão**, um singleton que não distribui nada. O `run(fn)` dela apenas chama `fn`,
# ela tem uma réplica, e o `reduce` devolve o valor.

# %%
import numpy as np
import matplotlib.pyplot as plt
import sim.runtime   # sim-only
import sim.tf as tf
from sim.i18n import number_list, t   # sim-only

default_strategy = tf.distribute.get_strategy()
print(default_strategy)
print(t("lesson05.replicas", n=default_strategy.num_replicas_in_sync))

# %% [markdown] lang="en"
# Why have a strategy that does nothing? So that **library code** can be written once. Keras's
# optimizers call `tf.distribute.get_strategy()` and reduce through it; with no strategy they get
# the default one, and the same lines work. This is the guide's snippet:
# <!-- claim default_one_replica: holds(default_strategy.num_replicas_in_sync == 1, "the default strategy has one replica") -->

# %% [markdown] lang="zh"
# 一个什么都不做的策略有什么用？它让**库代码**只需编写一次。Keras 的优化器会调用 `tf.distribute.get_strategy()` 并通过它做归约；没有策略时，它们拿到的就是默认策略，同样的代码照样能运行。下面是指南中的代码段：<!-- claim default_one_replica -->

# %% [markdown] lang="pt"
# Para que serve uma estratégia que não faz nada? Para que o **código de biblioteca** seja escrito
# uma única vez. Os otimizadores do Keras chamam `tf.distribute.get_strategy()` e fazem a redução
# por meio dela; sem estratégia, recebem a padrão, e as mesmas linhas funcionam. Este é o trecho do
# guia:
# <!-- claim default_one_replica -->

# %%
# In optimizer or other library code
# Get currently active strategy
strategy = tf.distribute.get_strategy()
strategy.reduce("SUM", 1., axis=None)  # reduce some values

# %% [markdown] lang="en"
# The guide's second snippet picks a strategy by what the machine has. Our simulated workstation
# has 4 GPUs, so the `if` takes `MirroredStrategy` and the variable comes out mirrored; on a
# machine without GPU the same code would take the default strategy and print a plain variable
# (section 4 tries it).
# <!-- claim default_reduce_hands_back: holds(float(tf.distribute.get_strategy().reduce("SUM", 1., axis=None)) == 1.0, "the default strategy's reduce(SUM, 1.) is 1.0") -->

# %% [markdown] lang="zh"
# 指南中的第二个代码段根据机器上有什么来选择策略。我们模拟的工作站有 4 个 GPU，所以 `if` 选择了 `MirroredStrategy`，得到的变量是镜像变量；在没有 GPU 的机器上，同样的代码会选择默认策略，并打印一个普通变量（第 4 节会试一试）。<!-- claim default_reduce_hands_back -->

# %% [markdown] lang="pt"
# O segundo trecho do guia escolhe a estratégia conforme o que a máquina tem. A nossa estação de
# trabalho simulada tem 4 GPUs, então o `if` escolhe a `MirroredStrategy` e a variável sai
# espelhada; em uma máquina sem GPU, o mesmo código escolheria a estratégia padrão e imprimiria uma
# variável comum (a seção 4 testa isso).
# <!-- claim default_reduce_hands_back -->

# %%
if tf.config.list_physical_devices('GPU'):
  strategy = tf.distribute.MirroredStrategy()
else:  # Use the Default Strategy
  strategy = tf.distribute.get_strategy()

with strategy.scope():
  # Do something interesting
  print(tf.Variable(1.))

# %% [markdown] lang="en"
# Now a small "library" function written against `get_strategy()`. Under the default strategy,
# `experimental_distribute_dataset` returns **the dataset itself** (there is nothing to split) and
# `run` is one plain call. Under `MirroredStrategy` the same function receives a batch split over 4
# replicas, and `reduce` adds the 4 partial sums. Same answer, no `if` in the library.
# <!-- claim four_gpus_mirrored: holds(len(tf.config.list_physical_devices("GPU")) == 4 and type(strategy).__name__ == "MirroredStrategy", "4 GPUs, so the if takes MirroredStrategy") -->

# %% [markdown] lang="zh"
# 下面是一个针对 `get_strategy()` 编写的小“库”函数。在默认策略下，`experimental_distribute_dataset` 返回的就是**数据集本身**（没有什么需要切分），`run` 只是一次普通调用。在 `MirroredStrategy` 下，同一个函数收到的是切分到 4 个副本上的批次，`reduce` 把 4 个部分和加起来。答案相同，库里不需要任何 `if`。<!-- claim four_gpus_mirrored -->

# %% [markdown] lang="pt"
# Agora, uma pequena função de "biblioteca" escrita em cima de `get_strategy()`. Na estratégia padrão,
# `experimental_distribute_dataset` retorna **o próprio dataset** (não há nada a dividir) e `run` é
# uma chamada comum. Na `MirroredStrategy`, a mesma função recebe um lote dividido entre 4 réplicas,
# e `reduce` soma as 4 somas parciais. Mesma resposta, nenhum `if` na biblioteca.
# <!-- claim four_gpus_mirrored -->

# %%
def sum_of_squares(batch):
    """Library code: written once, against whatever strategy is current."""
    strategy = tf.distribute.get_strategy()
    per_replica = strategy.run(lambda x: tf.reduce_sum(tf.square(x)), args=(batch,))
    return strategy.reduce("SUM", per_replica, axis=None)

dataset = tf.data.Dataset.range(8).map(lambda x: tf.cast(x, tf.float32)).batch(8)

default = tf.distribute.get_strategy()
print(t("lesson05.default_same_dataset", same=default.experimental_distribute_dataset(dataset) is dataset))
for batch in default.experimental_distribute_dataset(dataset):
    default_total = sum_of_squares(batch).numpy()
    print(t("lesson05.default_run", batch=number_list(default.run(lambda x: x, args=(batch,)).numpy(), "g"),
            total=default_total))

mirrored = tf.distribute.MirroredStrategy()
with mirrored.scope():
    for batch in mirrored.experimental_distribute_dataset(dataset):
        batches = "[" + ", ".join(number_list(x.numpy(), "g") for x in mirrored.experimental_local_results(batch)) + "]"
        mirrored_total = sum_of_squares(batch).numpy()
        print(t("lesson05.mirrored_run", batches=batches, total=mirrored_total))

# %% [markdown] lang="en"
# ### `OneDeviceStrategy`
#
# `OneDeviceStrategy(device="/gpu:0")` also has one replica, but unlike the default strategy it
# **places** every variable created in its scope and every `run` on that device, and its
# `experimental_distribute_dataset` goes through the distribution machinery (it returns a
# distributed dataset, prefetched to the device, not split). Use it to test code that will later
# run under `MirroredStrategy`: the calls are the same ones.
# <!-- claim library_same_answer: holds(default.experimental_distribute_dataset(dataset) is dataset, "the default strategy returns the dataset itself") & holds(len(mirrored.experimental_local_results(batch)) == 4, "MirroredStrategy splits the batch over 4 replicas") & holds(float(default_total) == float(mirrored_total) == 140.0, "the same sum, 140, under both") -->

# %% [markdown] lang="zh"
# ### `OneDeviceStrategy`
#
# `OneDeviceStrategy(device="/gpu:0")` 同样只有一个副本。与默认策略不同的是，在其作用域中创建的每个变量、每次 `run` 都会被**放置**到这个设备上；`experimental_distribute_dataset` 也会经过分布机制：返回一个预取到该设备上的分布式数据集，但不做切分。之后要在 `MirroredStrategy` 下运行的代码，可以先在这个策略下测试：调用的 API 完全相同。<!-- claim library_same_answer -->

# %% [markdown] lang="pt"
# ### `OneDeviceStrategy`
#
# `OneDeviceStrategy(device="/gpu:0")` também tem uma réplica, mas, ao contrário da estratégia
# padrão, ela **posiciona** nesse dispositivo cada variável criada no seu escopo e cada `run`, e o
# seu `experimental_distribute_dataset` passa pelo mecanismo de distribuição (retorna um dataset
# distribuído, pré-carregado no dispositivo, sem divisão). Use-a para testar código que depois vai
# rodar na `MirroredStrategy`: as chamadas são as mesmas.
# <!-- claim library_same_answer -->

# %%
strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")

with strategy.scope():
    v = tf.Variable(1.)
print(t("lesson05.od_variable", device=v.device))
print(t("lesson05.od_replicas", n=strategy.num_replicas_in_sync))
print(t("lesson05.od_run", value=float(strategy.run(lambda x: x * 2, args=(tf.constant(3.0),)))))
dist_dataset = strategy.experimental_distribute_dataset(dataset)
print(t("lesson05.od_dataset", name=type(dist_dataset).__name__))
with strategy.scope():
    for batch in dist_dataset:
        print(t("lesson05.od_batch", batch=number_list(batch.numpy(), "g"), total=sum_of_squares(batch).numpy()))

# %% [markdown] lang="en"
# ## 2. `CentralStorageStrategy`: the variables live once, on the CPU
#
# `CentralStorageStrategy` replicates the computation on every GPU like `MirroredStrategy`, but it
# does **not** mirror the variables: each one lives once, on the **parameter device**, which is the
# CPU (or the GPU, when there is exactly one). Let us create the same 1024×1024 kernel under both
# strategies and ask each replica where the variable it reads lives.
# <!-- claim one_device_places: holds(v.device.endswith("GPU:0") and strategy.num_replicas_in_sync == 1, "one replica, the variable on GPU:0") & holds(type(dist_dataset).__name__ == "DistributedDataset" and [float(x) for x in batch.numpy()] == [float(i) for i in range(8)], "a distributed dataset, the batch not split") -->

# %% [markdown] lang="zh"
# ## 2. `CentralStorageStrategy`：变量只存一份，放在 CPU 上
#
# `CentralStorageStrategy` 像 `MirroredStrategy` 一样把计算复制到每个 GPU 上，但它**不**镜像变量：每个变量只存一份，放在**参数设备**上，也就是 CPU（如果恰好只有一个 GPU，就放在这个 GPU 上）。下面在两种策略下分别创建同一个 1024×1024 的权重矩阵，并询问每个副本它读取的变量位于哪里。<!-- claim one_device_places -->

# %% [markdown] lang="pt"
# ## 2. `CentralStorageStrategy`: uma única cópia das variáveis, na CPU
#
# A `CentralStorageStrategy` replica a computação em cada GPU como a `MirroredStrategy`, mas **não**
# espelha as variáveis: existe uma única cópia de cada uma, no **dispositivo de parâmetros**, que é a CPU (ou
# a GPU, quando há exatamente uma). Vamos criar a mesma matriz de pesos 1024×1024 nas duas
# estratégias e perguntar a cada réplica onde fica a variável que ela lê.
# <!-- claim one_device_places -->

# %%
central_storage_strategy = tf.distribute.experimental.CentralStorageStrategy()
mirrored_strategy = tf.distribute.MirroredStrategy()

with mirrored_strategy.scope():
    mirrored_kernel = tf.Variable(tf.zeros([1024, 1024]), name="kernel")
with central_storage_strategy.scope():
    central_kernel = tf.Variable(tf.zeros([1024, 1024]), name="kernel")

print(t("lesson05.mirrored_copies", kind=type(mirrored_kernel).__name__, n=len(mirrored_kernel.values)))
for device in mirrored_strategy.experimental_local_results(mirrored_strategy.run(lambda: mirrored_kernel.device)):
    print(t("lesson05.a_copy_on", device=device))
print(t("lesson05.central_copy", kind=type(central_kernel).__name__, device=central_kernel.device))
for device in central_storage_strategy.experimental_local_results(central_storage_strategy.run(lambda: central_kernel.device)):
    print(t("lesson05.replica_reads", device=device))
print(t("lesson05.compute_devices", devices=central_storage_strategy.extended.worker_devices))
print(t("lesson05.parameter_device", devices=central_storage_strategy.extended.parameter_devices))

# %% [markdown] lang="en"
# Mirrored: four copies, one per GPU, kept identical by an all-reduce of the gradients.
# CentralStorage: one `AggregatingVariable` on the CPU that all four replicas read; their gradients
# are **reduced to the CPU** and the update is **applied once**, there. The `AggregatingVariable`
# is not a distributed value: it wraps one ordinary variable, so it has no `.values`, and asking
# for them raises the `AttributeError` of the variable inside, as TensorFlow does:
# <!-- claim where_variables_live: holds(type(mirrored_kernel).__name__ == "MirroredVariable" and len(mirrored_kernel.values) == 4, "four mirrored copies") & holds(type(central_kernel).__name__ == "AggregatingVariable" and central_kernel.device.endswith("CPU:0"), "one AggregatingVariable on the CPU") -->

# %% [markdown] lang="zh"
# Mirrored：四份拷贝，每个 GPU 一份，通过对梯度做全归约保持一致。CentralStorage：CPU 上的一个 `AggregatingVariable`，四个副本都读取它；它们的梯度被**归约到 CPU**，更新也在那里**只应用一次**。`AggregatingVariable` 不是分布式值：它只包装了一个普通变量，所以没有 `.values`，访问它会像 TensorFlow 一样抛出内部那个变量的 `AttributeError`：<!-- claim where_variables_live -->

# %% [markdown] lang="pt"
# Mirrored: quatro cópias, uma por GPU, mantidas idênticas por um all-reduce dos gradientes.
# CentralStorage: uma única `AggregatingVariable` na CPU, que as quatro réplicas leem; os gradientes
# delas são **reduzidos na CPU** e a atualização é **aplicada uma só vez**, lá. A `AggregatingVariable`
# não é um valor distribuído: ela envolve uma única variável comum, então não tem `.values`, e pedir
# por ela gera o `AttributeError` da variável de dentro, como no TensorFlow:
# <!-- claim where_variables_live -->

# %%
with sim.show_error():   # sim-only: prints the error as "Type: message"
    central_kernel.values

# %% [markdown] lang="en"
# Now one training step of two `Dense(1024)` layers (about 2.1 million parameters, a global batch
# of 64) with the guide's custom-loop pattern, under `OneDeviceStrategy`, `MirroredStrategy` and
# `CentralStorageStrategy`, all seeded the same way. We compare the weights after the step and the
# simulated time of the step.

# %% [markdown] lang="zh"
# 现在用指南中自定义训练循环的写法，对两层 `Dense(1024)`（约 210 万个参数，全局批次大小为 64）训练一步，分别在 `OneDeviceStrategy`、`MirroredStrategy` 和 `CentralStorageStrategy` 下运行，随机种子都相同。我们比较这一步之后的权重，以及这一步的模拟时间。

# %% [markdown] lang="pt"
# Agora, um passo de treinamento de duas camadas `Dense(1024)` (cerca de 2,1 milhões de
# parâmetros, lote global de 64) com o padrão de loop de treinamento personalizado do guia, na
# `OneDeviceStrategy`, na `MirroredStrategy` e na `CentralStorageStrategy`, todas com a mesma
# semente. Comparamos os pesos depois do passo e o tempo simulado do passo.

# %%
def train_one_step(strategy, units=1024, global_batch=64):
    """One training step of two Dense(units) layers, the guide's custom-loop pattern."""
    tf.keras.utils.set_random_seed(0)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(units, activation="relu"),
                                     tf.keras.layers.Dense(units)])
        model.build((None, units))
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(global_batch, units)).astype("float32")
    y = rng.normal(size=(global_batch, units)).astype("float32")
    dist_dataset = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch))

    @tf.function
    def train_step(inputs):
        def step_fn(inputs):
            features, labels = inputs
            with tf.GradientTape() as tape:
                per_example_loss = tf.reduce_mean(tf.square(model(features, training=True) - labels), axis=1)
                loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        per_replica_losses = strategy.run(step_fn, args=(inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    loss = train_step(next(iter(dist_dataset)))
    return {"loss": float(loss), "weights": model.get_weights(), "params": model.count_params(),
            "seconds": strategy.extended.last_step_time, "trace": strategy.extended.last_step_trace}   # sim-only

runs = {"OneDeviceStrategy": train_one_step(tf.distribute.OneDeviceStrategy("/gpu:0")),
        "MirroredStrategy": train_one_step(mirrored_strategy),
        "CentralStorageStrategy": train_one_step(central_storage_strategy)}
reference = runs["OneDeviceStrategy"]["weights"]
print(t("lesson05.parameters", n=runs["OneDeviceStrategy"]["params"]))
for name, run in runs.items():
    gap = max(float(np.max(np.abs(a - b))) for a, b in zip(run["weights"], reference))
    print(t("lesson05.step_row", name=name, loss=run["loss"], ms=run["seconds"] * 1e3, gap=gap))

# %% [markdown] lang="en"
# The three strategies compute **the same step**: same loss, and weights equal to the one-device
# weights up to float32 rounding (the sum of four partial gradients is not added in the same order
# as one big sum). Where the variables live changes the cost, not the numbers.
#
# The cost differs a lot. Here is the timeline of the step under both multi-GPU strategies:
# <!-- claim same_step: about(runs["OneDeviceStrategy"]["params"], 2.1e6, rel=0.01) & holds(len({round(r["loss"], 6) for r in runs.values()}) == 1, "the same loss to 6 digits") & below(max(float(np.max(np.abs(a - b))) for r in runs.values() for a, b in zip(r["weights"], reference)), 1e-6) -->

# %% [markdown] lang="zh"
# 三种策略算出的是**同一步**：损失相同，权重与单设备的权重只差 float32 的舍入误差（四个部分梯度之和与一次性求和的相加顺序不同）。变量放在哪里改变的是代价，而不是数值。
#
# 代价却相差很大。下面是两种多 GPU 策略下这一步的时间线：<!-- claim same_step -->

# %% [markdown] lang="pt"
# As três estratégias calculam **o mesmo passo**: a mesma perda, e pesos iguais aos de um único
# dispositivo a menos do arredondamento de float32 (a soma de quatro gradientes parciais não é feita
# na mesma ordem que uma soma única). Onde as variáveis ficam muda o custo, não os números.
#
# O custo, porém, muda muito. Eis a linha do tempo do passo nas duas estratégias com várias GPUs:
# <!-- claim same_step -->

# %% slide="figure"
from matplotlib.patches import Patch

def draw_step(ax, trace, title):
    """A Gantt chart of one step: a row per device, compute and transfers in two colours."""
    colours = {"compute": "tab:blue", "update": "tab:green", "transfer": "tab:orange"}
    rows = {}
    def row(name):
        short = name.split("device:")[-1].lower() if "device:" in name else name
        return rows.setdefault(short, len(rows))
    bars = []
    for e in trace:
        if e.end <= e.start:
            continue
        if e.kind == "transfer" and "→" in e.where:
            src, dst = e.where.split("→")
            places = [dst if "gpu" in dst else src]
        elif e.kind == "transfer":
            places = e.where.split(",")
        else:
            places = [e.where]
        kind = "transfer" if e.kind == "transfer" else ("update" if e.name == "update" else "compute")
        for place in places:
            bars.append((row(place.strip("/")), e.start, e.end, kind))
    for r, start, end, kind in bars:
        ax.broken_barh([(start * 1e3, (end - start) * 1e3)], (r - 0.4, 0.8), color=colours[kind])
    ax.set_yticks(range(len(rows)), list(rows))
    ax.invert_yaxis()
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(t("lesson05.timeline_time"))
    ax.legend(handles=[Patch(color=colour, label=t(f"lesson05.timeline_{kind}"))
                       for kind, colour in colours.items()], loc="lower right", fontsize=8)

fig, axes = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True)
for ax, name in zip(axes, ["MirroredStrategy", "CentralStorageStrategy"]):
    draw_step(ax, runs[name]["trace"], t("lesson05.timeline_title", strategy=name, machine="workstation-4gpu"))
fig.tight_layout()
plt.show()

# %% [markdown] lang="en"
# Read the two rows of bars. With `MirroredStrategy` the GPUs compute (blue, very short here), then
# one ring all-reduce of all the gradients runs between the GPUs, under the PCIe switch, and each
# GPU updates its own copy. With `CentralStorageStrategy` every GPU first **copies the variables
# from the CPU** (at every step: that is how it sees the last update), computes, then **sends its
# gradients to the CPU**; the update runs once on the CPU (green), and nothing is copied back.
# (In TensorFlow's graph each gradient's copy to the CPU and its sum there can start as soon as
# backward has produced that gradient; only the update waits for all of them. The simulator sends
# them after the backward pass, which changes little here, where the compute is a sliver of the
# step.) All four GPUs cross the **same** PCIe uplink between the switch and the CPU, so they
# share its bandwidth: that shared link is what CentralStorage pays.
#
# Does the gap depend on the model? Let us sweep the layer width.
# <!-- claim timeline_story: holds([e.name for e in runs["MirroredStrategy"]["trace"] if e.kind == "transfer"] == ["NcclAllReduce"], "MirroredStrategy: one all-reduce between the GPUs") & below(sum(e.end - e.start for e in runs["MirroredStrategy"]["trace"] if e.kind == "compute" and e.where.endswith("GPU:0")), [e.end - e.start for e in runs["MirroredStrategy"]["trace"] if e.kind == "transfer"][0]) & holds([e.name for e in runs["CentralStorageStrategy"]["trace"] if e.kind == "transfer"][:4] == ["read_variables"] * 4 and all(e.where.startswith("/cpu:0") for e in runs["CentralStorageStrategy"]["trace"] if e.name == "read_variables") and all(e.where.endswith("/cpu:0") for e in runs["CentralStorageStrategy"]["trace"] if e.name == "ReductionToOneDevice"), "CentralStorage: variables read from the CPU, gradients sent to it") & holds([e.where for e in runs["CentralStorageStrategy"]["trace"] if e.name == "update"] == ["/job:localhost/replica:0/task:0/device:CPU:0"], "one update, on the CPU") & holds(not any(e.kind == "transfer" and e.start >= max(u.start for u in runs["CentralStorageStrategy"]["trace"] if u.name == "update") for e in runs["CentralStorageStrategy"]["trace"]), "nothing copied back after the update") -->

# %% [markdown] lang="zh"
# 看这两组条形。使用 `MirroredStrategy` 时，各 GPU 先计算（蓝色，这里非常短），然后在 PCIe 交换机下方的各 GPU 之间对所有梯度做一次环形全归约，每个 GPU 再更新自己的那一份。使用 `CentralStorageStrategy` 时，每个 GPU 先**从 CPU 复制变量**（每一步都要复制：它就是这样看到上一次更新的），再计算，然后**把梯度发送到 CPU**；更新只在 CPU 上运行一次（绿色），之后不会再复制回 GPU。（在 TensorFlow 的计算图中，反向传播一算出某个梯度，它向 CPU 的复制和在 CPU 上的求和就可以开始；只有更新要等所有梯度到齐。模拟器在反向传播结束后才发送梯度，这在这里影响很小，因为计算只占这一步的一小部分。）四个 GPU 都要经过交换机与 CPU 之间**同一条** PCIe 上行链路，只能分享它的带宽：这条共享链路就是 CentralStorage 付出的代价。
#
# 差距是否取决于模型大小？下面改变层的宽度来看一看。<!-- claim timeline_story -->

# %% [markdown] lang="pt"
# Leia as duas linhas de barras. Com a `MirroredStrategy`, as GPUs calculam (azul, bem curto aqui),
# depois um único all-reduce em anel de todos os gradientes roda entre as GPUs, abaixo do switch
# PCIe, e cada GPU atualiza a própria cópia. Com a `CentralStorageStrategy`, cada GPU primeiro
# **copia as variáveis da CPU** (a cada passo: é assim que ela vê a última atualização), calcula e
# depois **envia seus gradientes para a CPU**; a atualização roda uma única vez na CPU (verde), e
# nada é copiado de volta. (No grafo do TensorFlow, a cópia de cada gradiente para a CPU e a soma
# dele lá podem começar assim que a retropropagação o produz; só a atualização espera por todos. O
# simulador os envia depois da retropropagação, o que muda pouco aqui, onde a computação é uma
# fração mínima do passo.) As quatro GPUs atravessam o **mesmo** enlace PCIe entre o switch
# e a CPU, então dividem a largura de banda dele: esse enlace compartilhado é o que a CentralStorage
# paga.
#
# A diferença depende do modelo? Vamos variar a largura das camadas.
# <!-- claim timeline_story -->

# %%
sizes = [128, 256, 512, 1024]
sweep = {name: [] for name in runs}
for units in sizes:
    for name, make in [("OneDeviceStrategy", lambda: tf.distribute.OneDeviceStrategy("/gpu:0")),
                       ("MirroredStrategy", lambda: mirrored_strategy),
                       ("CentralStorageStrategy", lambda: central_storage_strategy)]:
        run = runs[name] if units == 1024 else train_one_step(make(), units=units)
        sweep[name].append((run["params"], run["seconds"]))
for name, points in sweep.items():
    print(f"{name:23s}", "  ".join(t("lesson05.sweep_point", p=p, ms=s * 1e3) for p, s in points))

fig, ax = plt.subplots(figsize=(7, 3.5))
for name, points in sweep.items():
    ax.plot([p for p, _ in points], [s * 1e3 for _, s in points], marker="o", label=name)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel(t("lesson05.sweep_x"))
ax.set_ylabel(t("lesson05.sweep_y"))
ax.set_title(t("lesson05.sweep_title"))
ax.legend()
plt.show()

# %% [markdown] lang="en"
# Both multi-GPU lines grow with the number of parameters (the bytes to move grow with it), and the
# gap between them grows too: at 2 million parameters CentralStorage loses several milliseconds per
# step. Per GPU, a ring all-reduce moves `2(p-1)/p × 4P` bytes each way over the GPU's own link;
# CentralStorage moves `4P` up and `4P` down per GPU, and all `p` GPUs squeeze through one uplink.
# The exercise asks you to count these bytes.
#
# Notice also the honest line at the bottom: with a batch of 64, **one GPU is faster than four**.
# There is so little computation per step that fixed costs dominate: the one-GPU line rises much
# more slowly than the parameters (which grow 64-fold), because its step is mostly the launch of
# its ops, a cost every replica pays in full, and the four GPUs pay the communication on top (the
# classic "more GPUs made it slower"). More replicas pay off only when each step has enough work
# to hide the traffic.
#
# ## 3. `TPUStrategy` on a simulated TPU v3-8
#
# A Cloud TPU v3-8 has 4 chips with 2 cores each: 8 TPU devices on one host, linked by the
# chips' fast interconnect (ICI). The guide's three steps reach it: a `TPUClusterResolver` finds the
# TPU, `experimental_connect_to_cluster` connects to it, and `initialize_tpu_system` must run
# **before** the strategy is built. Here the address names the simulated preset, and connecting
# makes it the current machine.
# <!-- claim sweep_gap_grows: rises([s for _, s in sweep["MirroredStrategy"]]) & rises([s for _, s in sweep["CentralStorageStrategy"]]) & rises([c - m for (_, c), (_, m) in zip(sweep["CentralStorageStrategy"], sweep["MirroredStrategy"])]) & between((sweep["CentralStorageStrategy"][-1][1] - sweep["MirroredStrategy"][-1][1]) * 1e3, 2, 9) -->
# <!-- claim one_gpu_fastest: holds(all(o < m and o < c for (_, o), (_, m), (_, c) in zip(sweep["OneDeviceStrategy"], sweep["MirroredStrategy"], sweep["CentralStorageStrategy"])), "one GPU is fastest at every size") & about(sweep["OneDeviceStrategy"][-1][0] / sweep["OneDeviceStrategy"][0][0], 64, rel=0.02) & below(sweep["OneDeviceStrategy"][-1][1] / sweep["OneDeviceStrategy"][0][1], 2) -->

# %% [markdown] lang="zh"
# 两条多 GPU 曲线都随参数个数增长（要传输的字节数随之增长），两者之间的差距也在增长：在 200 万个参数时，CentralStorage 每一步要多花好几毫秒。对每个 GPU 而言，环形全归约在 GPU 自己的链路上每个方向传输 `2(p-1)/p × 4P` 字节；CentralStorage 则让每个 GPU 上行 `4P`、下行 `4P`，而且全部 `p` 个 GPU 都要挤过同一条上行链路。练习会请你计算这些字节数。
#
# 还要注意最下面那条曲线，它如实地显示：批次大小为 64 时，**一个 GPU 比四个 GPU 更快**。每一步的计算量太少，固定开销占了主导：单 GPU 曲线的上升远比参数个数的增长（64 倍）缓慢，因为它的一步主要是各个操作的启动开销，这份开销每个副本都要全额付出，而四个 GPU 还要额外付出通信的代价（典型的“GPU 越多反而越慢”）。只有当每一步有足够的计算量来掩盖通信时，更多的副本才划算。
#
# ## 3. 在模拟的 TPU v3-8 上运行 `TPUStrategy`
#
# 一个 Cloud TPU v3-8 有 4 个芯片，每个芯片 2 个核心：一台主机上共 8 个 TPU 设备，通过芯片之间的高速互连（ICI）相连。按指南的三个步骤就能用上它：`TPUClusterResolver` 找到 TPU，`experimental_connect_to_cluster` 连接它，而 `initialize_tpu_system` 必须在创建策略**之前**运行。这里的地址是模拟预设的名称，连接之后它就成为当前机器。<!-- claim sweep_gap_grows --><!-- claim one_gpu_fastest -->

# %% [markdown] lang="pt"
# As duas linhas com várias GPUs crescem com o número de parâmetros (os bytes a mover crescem junto),
# e a diferença entre elas também cresce: com 2 milhões de parâmetros, a CentralStorage perde vários
# milissegundos por passo. Por GPU, um all-reduce em anel move `2(p-1)/p × 4P` bytes em cada sentido
# pelo enlace da própria GPU; a CentralStorage move `4P` para cima e `4P` para baixo por GPU, e todas
# as `p` GPUs se espremem em um único enlace. O exercício pede que você conte esses bytes.
#
# Repare também na linha lá embaixo, que não esconde nada: com um lote de 64, **uma GPU é mais rápida do que
# quatro**. Há tão pouca computação por passo que os custos fixos dominam: a linha de uma GPU sobe
# bem mais devagar do que os parâmetros (que crescem 64 vezes), porque o seu passo é quase só o
# lançamento das operações, um custo que cada réplica paga inteiro, e as quatro GPUs ainda pagam a comunicação
# por cima (o clássico "mais GPUs deixaram tudo mais lento"). Mais réplicas só compensam quando
# cada passo tem trabalho suficiente para esconder o tráfego.
#
# ## 3. `TPUStrategy` em uma TPU v3-8 simulada
#
# Uma Cloud TPU v3-8 tem 4 chips com 2 núcleos cada: 8 dispositivos TPU em um único host, ligados
# pela interconexão rápida entre os chips (ICI). Os três passos do guia dão acesso a ela: um
# `TPUClusterResolver` localiza a TPU, `experimental_connect_to_cluster` se conecta a ela, e
# `initialize_tpu_system` precisa rodar **antes** de a estratégia ser criada. Aqui o endereço é o
# nome do preset simulado, e a conexão o torna a máquina atual.
# <!-- claim sweep_gap_grows -->
# <!-- claim one_gpu_fastest -->

# %%
tpu_address = "tpu-v3-8"     # the simulated Cloud TPU v3-8; on Colab you would pass nothing
cluster_resolver = tf.distribute.cluster_resolver.TPUClusterResolver(
    tpu=tpu_address)
tf.config.experimental_connect_to_cluster(cluster_resolver)
tf.tpu.experimental.initialize_tpu_system(cluster_resolver)
tpu_strategy = tf.distribute.TPUStrategy(cluster_resolver)

print(tpu_strategy)
print(t("lesson05.replicas", n=tpu_strategy.num_replicas_in_sync))
print(t("lesson05.machine", name=sim.runtime.current_machine().name))   # sim-only

# %% [markdown] lang="en"
# Each core is a replica, and the variables are mirrored on all 8 (like `MirroredStrategy`).
# TPUs compile the whole step with XLA, which is why the train step lives in a `tf.function`.
# XLA works best with **fixed shapes**, so the dataset uses `drop_remainder=True` with a global batch
# **divisible by 8**: every core then gets the same number of examples, 8, at every step.
# <!-- claim tpu_eight_replicas: holds(tpu_strategy.num_replicas_in_sync == 8 and sim.runtime.current_machine().name == "tpu-v3-8", "8 replicas on the tpu-v3-8") -->

# %% [markdown] lang="zh"
# 每个核心是一个副本，变量在全部 8 个核心上镜像（和 `MirroredStrategy` 一样）。TPU 用 XLA 编译整个训练步，所以训练步要放在 `tf.function` 中。XLA 最适合**固定形状**，因此数据集使用 `drop_remainder=True`，全局批次大小也**能被 8 整除**：这样每一步每个核心拿到的样本数都相同，都是 8 个。<!-- claim tpu_eight_replicas -->

# %% [markdown] lang="pt"
# Cada núcleo é uma réplica, e as variáveis são espelhadas nos 8 (como na `MirroredStrategy`). As
# TPUs compilam o passo inteiro com XLA; por isso o passo de treinamento fica em uma `tf.function`.
# O XLA funciona melhor com **formas fixas**, então o dataset usa `drop_remainder=True` com um
# tamanho de lote global **divisível por 8**: assim cada núcleo recebe a mesma quantidade de
# exemplos, 8, em todo passo.
# <!-- claim tpu_eight_replicas -->

# %%
GLOBAL_BATCH = 64                              # divisible by the 8 cores: 8 examples each
rng = np.random.default_rng(1)
x = rng.normal(size=(200, 16)).astype("float32")
y = (x @ rng.normal(size=(16, 1))).astype("float32")

tf.keras.utils.set_random_seed(0)
with tpu_strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.build((None, 16))
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH, drop_remainder=True)
print("element_spec:", dataset.element_spec[0])
dist_dataset = tpu_strategy.experimental_distribute_dataset(dataset)

@tf.function
def train_step(inputs):
    def step_fn(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            per_example_loss = tf.reduce_mean(tf.square(model(features, training=True) - labels), axis=1)
            loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    per_replica_losses = tpu_strategy.run(step_fn, args=(inputs,))
    return tpu_strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

tpu_shapes = []
for step, batch in enumerate(dist_dataset):
    shapes = {tuple(f.shape) for f in tpu_strategy.experimental_local_results(batch[0])}
    tpu_shapes.append(sorted(shapes))
    loss = train_step(batch)
    print(t("lesson05.tpu_step", step=step, shapes=sorted(shapes), loss=float(loss),
            us=tpu_strategy.extended.last_step_time * 1e6))   # sim-only

# %% [markdown] lang="en"
# What goes wrong otherwise? 200 examples in batches of 64 leave a last batch of 8: without
# `drop_remainder` the batch dimension is unknown (`None`) and the last step gives each core 1
# example instead of 8. A batch of 60 is not divisible by 8: one core gets 4 examples at every step.
# A real TPU compiles the step again for every new shape. Since TensorFlow 2.3, `TPUStrategy` also
# accepts a batch dimension of unknown size: it pads the batch to a fixed shape
# (`tf.distribute.RunOptions(experimental_enable_dynamic_batch_size=True)` is the default). Static
# shapes avoid both the padding and the recompilation, which is why `drop_remainder=True` is
# recommended, not required. The simulator compiles nothing, so it runs; print the shapes to see
# what a TPU would face.
# <!-- claim tpu_eight_each: holds(tpu_shapes == [[(8, 16)]] * 3, "every core gets 8 examples at each of the 3 steps") -->

# %% [markdown] lang="zh"
# 否则会出什么问题？200 个样本按 64 个一批，最后剩下一个 8 个样本的批次：不加 `drop_remainder` 时批次维度是未知的（`None`），最后一步每个核心只拿到 1 个样本，而不是 8 个。批次大小 60 不能被 8 整除：每一步都有一个核心只拿到 4 个样本。真实的 TPU 每遇到一种新形状就要重新编译一次训练步。从 TensorFlow 2.3 起，`TPUStrategy` 也接受大小未知的批次维度：它会把批次填充（pad）到固定形状（`tf.distribute.RunOptions(experimental_enable_dynamic_batch_size=True)` 是默认设置）。静态形状既省去了填充，也省去了重新编译，所以推荐使用 `drop_remainder=True`，但并非必需。模拟器不做任何编译，所以能运行；把形状打印出来，就能看到 TPU 会遇到什么。<!-- claim tpu_eight_each -->

# %% [markdown] lang="pt"
# O que dá errado sem isso? 200 exemplos em lotes de 64 deixam um último lote de 8: sem
# `drop_remainder` a dimensão do lote é desconhecida (`None`) e o último passo dá 1 exemplo a cada
# núcleo, em vez de 8. Um lote de 60 não é divisível por 8: um núcleo recebe 4 exemplos em todo
# passo. Uma TPU de verdade compila o passo de novo para cada forma nova. Desde o TensorFlow 2.3, a
# `TPUStrategy` também aceita uma dimensão de lote de tamanho desconhecido: ela preenche (*padding*)
# o lote até uma forma fixa (`tf.distribute.RunOptions(experimental_enable_dynamic_batch_size=True)`
# é o padrão). Formas estáticas evitam o preenchimento e a recompilação; por isso
# `drop_remainder=True` é recomendado, não obrigatório. O simulador não compila nada, então o código roda;
# imprima as formas para ver o que uma TPU enfrentaria.
# <!-- claim tpu_eight_each -->

# %%
def per_core_shapes(batch_size, drop_remainder):
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch_size, drop_remainder=drop_remainder)
    print(f"batch({batch_size}, drop_remainder={drop_remainder}): element_spec {ds.element_spec[0].shape}")
    steps = []
    for step, batch in enumerate(tpu_strategy.experimental_distribute_dataset(ds)):
        sizes = [f.shape[0] for f in tpu_strategy.experimental_local_results(batch[0])]
        print(t("lesson05.core_step", step=step, sizes=sizes))
        steps.append(sizes)
    return steps

short_last = per_core_shapes(64, drop_remainder=False)
not_divisible = per_core_shapes(60, drop_remainder=True)

# %% [markdown] lang="en"
# ## 4. Errors and surprises, on purpose
#
# **No GPU.** On a machine without GPU, `MirroredStrategy()` does not fail: it quietly takes the
# CPU as its only device, so `num_replicas_in_sync` is 1 and nothing is distributed (TensorFlow
# treats all CPU cores as one device). We build such a machine in three lines, look, and go back to
# the workstation.
# <!-- claim tpu_uneven: holds(short_last == [[8] * 8] * 3 + [[1] * 8], "batch 64 without drop_remainder: the last step gives each core 1") & holds(not_divisible == [[8] * 7 + [4]] * 3, "batch 60: one core gets 4 at every step") -->

# %% [markdown] lang="zh"
# ## 4. 故意引发的错误和意外
#
# **没有 GPU。** 在没有 GPU 的机器上，`MirroredStrategy()` 并不会报错：它悄悄地把 CPU 当作唯一的设备，于是 `num_replicas_in_sync` 为 1，什么也没有分布（TensorFlow 把所有 CPU 核心当作一个设备）。我们用三行代码搭一台这样的机器看一看，然后再回到工作站。<!-- claim tpu_uneven -->

# %% [markdown] lang="pt"
# ## 4. Erros e surpresas, de propósito
#
# **Sem GPU.** Em uma máquina sem GPU, `MirroredStrategy()` não falha: ela silenciosamente usa a
# CPU como único dispositivo, então `num_replicas_in_sync` é 1 e nada é distribuído (o TensorFlow
# trata todos os núcleos da CPU como um único dispositivo). Montamos essa máquina em três linhas,
# olhamos e voltamos para a estação de trabalho.
# <!-- claim tpu_uneven -->

# %%
from sim.hardware import Machine, devices   # sim-only

laptop = Machine("laptop", description="one CPU, no GPU")
laptop.add_device("CPU", devices.XEON_8380)
sim.runtime.use_machine(laptop)   # sim-only

print(t("lesson05.gpus", gpus=tf.config.list_physical_devices("GPU")))
strategy = tf.distribute.MirroredStrategy()
print(t("lesson05.replicas", n=strategy.num_replicas_in_sync), strategy.extended.worker_devices)

sim.runtime.use_machine("workstation-4gpu")   # sim-only
print(t("lesson05.back_on", name=sim.runtime.current_machine().name))   # sim-only

# %% [markdown] lang="en"
# **Reducing a plain value with SUM.** The default strategy's `reduce("SUM", 1.)` returned `1.0`.
# Library code that does the same under 4 replicas fails: a value that is not per-replica has no
# "4 parts" to add, and TensorFlow will not guess whether you meant 1 or 4.
# <!-- claim no_gpu_one_replica: holds(strategy.num_replicas_in_sync == 1 and strategy.extended.worker_devices[0].endswith("CPU:0"), "no GPU: 1 replica, on the CPU") & holds(sim.runtime.current_machine().name == "workstation-4gpu", "back on the workstation") -->
# <!-- claim default_reduce_hands_back -->

# %% [markdown] lang="zh"
# **用 SUM 归约一个普通值。** 默认策略的 `reduce("SUM", 1.)` 返回了 `1.0`。库代码在 4 个副本下做同样的事就会失败：一个不是按副本区分的值没有“4 个部分”可加，TensorFlow 也不会去猜你想要的是 1 还是 4。<!-- claim no_gpu_one_replica --><!-- claim default_reduce_hands_back -->

# %% [markdown] lang="pt"
# **Reduzir um valor comum com SUM.** O `reduce("SUM", 1.)` da estratégia padrão retornou `1.0`. Um
# código de biblioteca que faz o mesmo com 4 réplicas falha: um valor que não é por réplica não tem
# "4 partes" para somar, e o TensorFlow não vai adivinhar se você queria 1 ou 4.
# <!-- claim no_gpu_one_replica -->
# <!-- claim default_reduce_hands_back -->

# %%
with sim.show_error():   # sim-only: prints the error as "Type: message"
    strategy = tf.distribute.MirroredStrategy()
    strategy.reduce("SUM", tf.constant(1.0), axis=None)

# %% [markdown] lang="en"
# **A device the machine lacks.** The workstation has 4 GPUs, `/gpu:0` to `/gpu:3`. Asked for
# `/gpu:7`, TensorFlow does not refuse: its *soft placement* keeps the name and runs the work on a
# device that exists. Its placer drops the type and the index and takes the best device left: on
# this machine GPU:0 (a machine without GPUs would use the CPU). So a typo in a device name does not fail and nothing is printed (sim
# logs it at INFO level, shown after `tf.get_logger().setLevel("INFO")`):

# %% [markdown] lang="zh"
# **机器上没有的设备。** 工作站有 4 个 GPU，从 `/gpu:0` 到 `/gpu:3`。如果指定 `/gpu:7`，TensorFlow 并不会拒绝：它的*软放置*（soft placement）会保留这个名字，把计算放到一个存在的设备上：放置器去掉设备类型和编号，选剩下设备中最合适的那个，在这台机器上就是 GPU:0（没有 GPU 的机器则用 CPU）。所以设备名写错并不会报错，也不会打印任何信息（sim 会以 INFO 级别记录这一点，执行 `tf.get_logger().setLevel("INFO")` 后可以看到）：

# %% [markdown] lang="pt"
# **Um dispositivo que a máquina não tem.** A estação de trabalho tem 4 GPUs, de `/gpu:0` a
# `/gpu:3`. Se você pedir `/gpu:7`, o TensorFlow não recusa: o *posicionamento flexível* (soft
# placement) mantém o nome e roda o trabalho em um dispositivo que existe: o posicionador descarta o
# tipo e o índice e escolhe o melhor dispositivo restante, nesta máquina a GPU:0 (uma máquina sem
# GPUs usaria a CPU). Assim, um erro
# de digitação no nome do dispositivo não falha e nada é exibido (o sim registra isso no nível INFO,
# visível depois de `tf.get_logger().setLevel("INFO")`):

# %%
strategy = tf.distribute.OneDeviceStrategy(device="/gpu:7")
print(strategy.extended.worker_devices)

# %% [markdown] lang="en"
# ## Summary
#
# | Strategy | Replicas | Variables live | What a step moves |
# |---|---|---|---|
# | default strategy | 1 | where TensorFlow would put them anyway | nothing |
# | `OneDeviceStrategy("/gpu:0")` | 1 | on that device | nothing |
# | `MirroredStrategy` (4 GPUs) | 4 | a copy on every GPU | ring all-reduce: `2(p-1)/p × 4P` bytes per GPU each way, GPU to GPU |
# | `CentralStorageStrategy` (4 GPUs) | 4 | once, on the CPU (on the GPU if there is only one) | per GPU `4P` of gradients up and `4P` of variables down, all GPUs through one PCIe uplink |
# | `TPUStrategy` (v3-8) | 8 cores | a copy on every core | all-reduce over the ICI links; static shapes recommended |
#
# - The default strategy lets library code call `get_strategy()`, `run` and `reduce` whether or not
#   a strategy is in use; `OneDeviceStrategy` runs the same calls with real placement.
# - Where variables live changes what a step costs, never its numbers: all strategies computed the
#   single-device step.
# - On a PCIe workstation, CentralStorage pays for the shared link to the CPU, and the bigger the
#   model the more it pays.
# - On TPUs: `initialize_tpu_system` before the strategy, the step in `tf.function`,
#   `drop_remainder=True` and a global batch divisible by the number of cores.
#
# **Exercise:** open `exercises/en/05_bytes_per_step.ipynb` and count the bytes each strategy moves.
# <!-- claim same_step -->
# <!-- claim sweep_gap_grows -->
# <!-- claim soft_placement_keeps_name: holds(strategy.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:7",), "OneDeviceStrategy('/gpu:7') keeps the name it was given") -->

# %% [markdown] lang="zh"
# ## 小结
#
# | 策略 | 副本数 | 变量存放位置 | 每一步传输什么 |
# |---|---|---|---|
# | 默认策略 | 1 | TensorFlow 本来就会放的地方 | 不传输 |
# | `OneDeviceStrategy("/gpu:0")` | 1 | 该设备上 | 不传输 |
# | `MirroredStrategy`（4 个 GPU） | 4 | 每个 GPU 上一份 | 环形全归约：每个 GPU 每个方向 `2(p-1)/p × 4P` 字节，GPU 到 GPU |
# | `CentralStorageStrategy`（4 个 GPU） | 4 | 只存一份，在 CPU 上（只有一个 GPU 时在该 GPU 上） | 每个 GPU 上行 `4P` 的梯度、下行 `4P` 的变量，所有 GPU 共用一条 PCIe 上行链路 |
# | `TPUStrategy`（v3-8） | 8 个核心 | 每个核心上一份 | 经 ICI 链路做全归约；建议使用静态形状 |
#
# - 默认策略让库代码无论是否使用策略，都能调用 `get_strategy()`、`run` 和 `reduce`；`OneDeviceStrategy` 用真实的放置运行同样的调用。
# - 变量放在哪里改变的是一步的代价，而不是数值：所有策略算出的都是单设备的那一步。
# - 在 PCIe 工作站上，CentralStorage 要为通往 CPU 的共享链路付出代价，模型越大，代价越高。
# - 在 TPU 上：先 `initialize_tpu_system` 再创建策略，训练步放在 `tf.function` 中，使用 `drop_remainder=True`，全局批次大小能被核心数整除。
#
# **练习**：打开 `exercises/zh/05_bytes_per_step.ipynb`，数一数每种策略传输的字节数。<!-- claim same_step --><!-- claim sweep_gap_grows --><!-- claim soft_placement_keeps_name -->

# %% [markdown] lang="pt"
# ## Resumo
#
# | Estratégia | Réplicas | Onde ficam as variáveis | O que um passo move |
# |---|---|---|---|
# | estratégia padrão | 1 | onde o TensorFlow as colocaria de qualquer jeito | nada |
# | `OneDeviceStrategy("/gpu:0")` | 1 | nesse dispositivo | nada |
# | `MirroredStrategy` (4 GPUs) | 4 | uma cópia em cada GPU | all-reduce em anel: `2(p-1)/p × 4P` bytes por GPU em cada sentido, de GPU para GPU |
# | `CentralStorageStrategy` (4 GPUs) | 4 | uma única cópia, na CPU (na GPU, se houver só uma) | por GPU, `4P` de gradientes para cima e `4P` de variáveis para baixo, todas as GPUs por um único enlace PCIe |
# | `TPUStrategy` (v3-8) | 8 núcleos | uma cópia em cada núcleo | all-reduce pelos enlaces ICI; formas estáticas recomendadas |
#
# - A estratégia padrão permite que o código de biblioteca chame `get_strategy()`, `run` e `reduce`
#   com ou sem estratégia em uso; a `OneDeviceStrategy` executa as mesmas chamadas com posicionamento
#   real.
# - Onde as variáveis ficam muda o custo de um passo, nunca os números: todas as estratégias
#   calcularam o passo de um único dispositivo.
# - Em uma estação de trabalho PCIe, a CentralStorage paga pelo enlace compartilhado até a CPU, e
#   quanto maior o modelo, mais ela paga.
# - Em TPUs: `initialize_tpu_system` antes da estratégia, o passo em `tf.function`,
#   `drop_remainder=True` e um lote global divisível pelo número de núcleos.
#
# **Exercício:** abra `exercises/pt/05_bytes_per_step.ipynb` e conte os bytes que cada estratégia move.
# <!-- claim same_step -->
# <!-- claim sweep_gap_grows -->
# <!-- claim soft_placement_keeps_name -->
