# %% [markdown] lang="en"
# # 03 · MirroredStrategy and the custom training loop
#
# `MirroredStrategy` puts one **replica** of your model on every GPU of one machine. In a custom
# training loop you write the step yourself, so two details that `Model.fit` hides become your
# job: how each replica's loss is scaled, and what happens to the gradients between the replicas.
# This lesson runs TensorFlow's own custom-loop code on the simulated 4-GPU workstation and checks
# every claim with numbers:
#
# 1. a hand-made look at the pieces: `strategy.run`, `PerReplica` values, replica ids;
# 2. the guide's training loop, one call at a time;
# 3. proof that four replicas train exactly like one device given the whole global batch;
# 4. the simulated clock: when do more GPUs make a step faster?
# 5. three classic mistakes, provoked on purpose.

# %% [markdown] lang="zh"
# # 03 · MirroredStrategy 与自定义训练循环
#
# `MirroredStrategy` 在一台机器的每个 GPU 上放一个模型**副本**。在自定义训练循环中，训练步由你自己编写，于是 `Model.fit` 替你处理的两个细节要由你自己来处理：每个副本的损失如何缩放，以及梯度在副本之间如何处理。本节课在模拟的 4 GPU 工作站上运行 TensorFlow 自己的自定义训练循环代码，并用数字验证每一个结论：
#
# 1. 亲手看一看各个组成部分：`strategy.run`、`PerReplica` 值、副本编号；
# 2. 指南中的训练循环，一次调用一次调用地看；
# 3. 证明 4 个副本的训练结果与单个设备处理整个全局批次的结果完全相同；
# 4. 模拟时钟：什么时候 GPU 越多，每一步越快？
# 5. 故意触发三个经典错误。

# %% [markdown] lang="pt"
# # 03 · MirroredStrategy e o loop de treinamento personalizado
#
# `MirroredStrategy` coloca uma **réplica** do seu modelo em cada GPU de uma máquina. Em um loop de
# treinamento personalizado, é você quem escreve o passo; por isso, dois detalhes que o `Model.fit`
# esconde passam a ser seu trabalho: como a perda de cada réplica é escalonada e o que acontece com
# os gradientes entre as réplicas. Esta lição executa o próprio código de loop personalizado do
# TensorFlow na estação de trabalho simulada de 4 GPUs e confere cada afirmação com números:
#
# 1. as peças vistas de perto, à mão: `strategy.run`, valores `PerReplica`, ids das réplicas;
# 2. o loop de treinamento do guia, uma chamada de cada vez;
# 3. a prova de que quatro réplicas treinam exatamente como um único dispositivo com o lote global
#    inteiro;
# 4. o relógio simulado: quando mais GPUs deixam um passo mais rápido?
# 5. três erros clássicos, provocados de propósito.

# %% [markdown] lang="en"
# ## 1. A hand-made look
#
# With no arguments, `MirroredStrategy()` takes every GPU it finds; on the course's default
# machine that is four.

# %% [markdown] lang="zh"
# ## 1. 亲手看一看
#
# 不带参数时，`MirroredStrategy()` 会使用它找到的所有 GPU；在课程默认的机器上就是 4 个。

# %% [markdown] lang="pt"
# ## 1. As peças, de perto
#
# Sem argumentos, `MirroredStrategy()` usa todas as GPUs que encontrar; na máquina padrão do curso,
# são quatro.

# %%
import numpy as np
import matplotlib.pyplot as plt
import sim.tf as tf
from sim.i18n import number, t   # sim-only: the course's labels, numbers in its language

strategy = tf.distribute.MirroredStrategy()
print(strategy.num_replicas_in_sync)
print(strategy.extended.worker_devices)

# %% [markdown] lang="en"
# `strategy.run(fn)` calls `fn` once per replica, each time in that replica's **replica
# context**, where `tf.distribute.get_replica_context()` tells the function which replica it is.
# The four results come back bundled in one `PerReplica` value, and
# `experimental_local_results` unpacks it into a tuple, in replica order.
# <!-- claim four_replicas: holds(strategy.num_replicas_in_sync == 4 and len(strategy.extended.worker_devices) == 4, "MirroredStrategy() takes the 4 GPUs") -->

# %% [markdown] lang="zh"
# `strategy.run(fn)` 为每个副本调用一次 `fn`，每次都处在该副本的**副本上下文**中，函数可以通过 `tf.distribute.get_replica_context()` 知道自己是哪个副本。四个结果被打包成一个 `PerReplica` 值返回，`experimental_local_results` 则按副本顺序把它拆成一个元组。<!-- claim four_replicas -->

# %% [markdown] lang="pt"
# `strategy.run(fn)` chama `fn` uma vez por réplica, cada vez no **contexto de réplica** daquela
# réplica, onde `tf.distribute.get_replica_context()` diz à função qual réplica ela é. Os quatro
# resultados voltam empacotados em um único valor `PerReplica`, e `experimental_local_results` o
# desempacota em uma tupla, na ordem das réplicas.
# <!-- claim four_replicas -->

# %%
def replica_step():
    ctx = tf.distribute.get_replica_context()
    return tf.cast(ctx.replica_id_in_sync_group, tf.float32) * 10.0

per_replica = strategy.run(replica_step)
print(per_replica)
print([float(v) for v in strategy.experimental_local_results(per_replica)])

# %% [markdown] lang="en"
# `strategy.experimental_distribute_values_from_function(fn)` builds a `PerReplica` value by hand: it
# calls `fn` once per replica with a `tf.distribute.ValueContext`, whose `replica_id_in_sync_group`
# says which replica the value is for (here replica `r` gets `r + 1`). Arguments then follow one
# rule: a `PerReplica` argument gives replica `r` its component `r`; anything else (here the
# constant `100.0`) reaches every replica unchanged. Back in the **cross-replica
# context**, `strategy.reduce` turns the four components into one tensor: `SUM` adds them, `MEAN`
# divides that sum by the number of replicas.
# <!-- claim replica_order: holds([float(v) for v in strategy.experimental_local_results(per_replica)] == [0.0, 10.0, 20.0, 30.0], "replica r returns 10·r, in replica order") -->

# %% [markdown] lang="zh"
# `strategy.experimental_distribute_values_from_function(fn)` 可以手工构造一个 `PerReplica` 值：它为每个副本调用一次 `fn`，传入一个 `tf.distribute.ValueContext`，其中的 `replica_id_in_sync_group` 说明这个值属于哪个副本（这里副本 `r` 得到 `r + 1`）。参数遵循一条规则：`PerReplica` 参数把第 `r` 个分量交给副本 `r`；其他任何值（这里是常量 `100.0`）原封不动地传给每个副本。回到**跨副本上下文**后，`strategy.reduce` 把四个分量合成一个张量：`SUM` 把它们相加，`MEAN` 再把这个和除以副本数。<!-- claim replica_order -->

# %% [markdown] lang="pt"
# `strategy.experimental_distribute_values_from_function(fn)` monta um valor `PerReplica` à mão:
# chama `fn` uma vez por réplica com um `tf.distribute.ValueContext`, cujo
# `replica_id_in_sync_group` diz a qual réplica o valor se destina (aqui a réplica `r` recebe
# `r + 1`). Os argumentos seguem uma regra: um argumento `PerReplica` entrega à réplica `r` o seu componente
# `r`; qualquer outra coisa (aqui a constante `100.0`) chega sem mudança a todas as réplicas. De
# volta ao **contexto entre réplicas**, `strategy.reduce` transforma os quatro componentes em um único
# tensor: `SUM` os soma, `MEAN` divide essa soma pelo número de réplicas.
# <!-- claim replica_order -->

# %%
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group + 1)))
squares = strategy.run(lambda v, c: v * v + c, args=(values, tf.constant(100.0)))
print([float(v) for v in strategy.experimental_local_results(squares)])
total = strategy.reduce(tf.distribute.ReduceOp.SUM, squares, axis=None)
average = strategy.reduce(tf.distribute.ReduceOp.MEAN, squares, axis=None)
print(total)
print(average)

# %% [markdown] lang="en"
# ## 2. The guide's custom training loop
#
# From here on the code is the TensorFlow guide's, with `import sim.tf as tf` and our own data.
# First the model and the optimizer, **inside** `strategy.scope()`: every variable created there
# becomes a `MirroredVariable`, one copy per GPU. Keras 3 wraps each layer weight in its own
# `Variable` around the mirrored one, so that is the type printed below (tf-keras prints
# `MirroredVariable`). (Create them outside the scope and the
# optimizer later refuses to mix scopes, a common stumble.) We use a learning rate of 0.1 so the
# weights move visibly, and keep the initial weights for section 3.
# <!-- claim sum_and_mean: holds([float(v) for v in strategy.experimental_local_results(squares)] == [(r + 1) ** 2 + 100.0 for r in range(4)], "replica r gets r + 1 and the same 100") & about(float(total), 430.0, rel=1e-6) & about(float(average), float(total) / 4, rel=1e-6) -->

# %% [markdown] lang="zh"
# ## 2. 指南中的自定义训练循环
#
# 从这里开始，代码来自 TensorFlow 指南，只是换成了 `import sim.tf as tf` 和我们自己的数据。首先在 `strategy.scope()` **之内**创建模型和优化器：在作用域内创建的每个变量都会成为 `MirroredVariable`，每个 GPU 上一份。Keras 3 会把每个层权重包装在它自己的 `Variable` 中，里面才是镜像变量，所以下面打印出的类型是 `Variable`（tf-keras 打印的是 `MirroredVariable`）。（如果在作用域之外创建它们，优化器之后会拒绝混用不同的作用域，这是一个常见的坑。）我们把学习率设为 0.1，让权重的变化清晰可见，并保存初始权重留到第 3 节使用。<!-- claim sum_and_mean -->

# %% [markdown] lang="pt"
# ## 2. O loop de treinamento personalizado do guia
#
# Daqui em diante o código é o do guia do TensorFlow, com `import sim.tf as tf` e os nossos próprios dados.
# Primeiro o modelo e o otimizador, **dentro** de `strategy.scope()`: cada variável criada ali vira
# uma `MirroredVariable`, uma cópia por GPU. O Keras 3 encapsula cada peso de camada em uma
# `Variable` própria, com a variável espelhada dentro, e é esse o tipo impresso abaixo (o tf-keras
# imprime `MirroredVariable`). (Se você criá-los fora do escopo, o otimizador depois se
# recusa a misturar escopos, um tropeço comum.) Usamos taxa de aprendizado 0,1 para que os pesos se mexam
# visivelmente e guardamos os pesos iniciais para a seção 3.
# <!-- claim sum_and_mean -->

# %%
tf.keras.utils.set_random_seed(0)
with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(1, input_shape=(1,),
                              kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
initial_weights = model.get_weights()
print(type(model.trainable_variables[0]).__name__)

# %% [markdown] lang="en"
# The dataset is batched by the **global** batch size, 20 here: the number of examples one
# training step consumes on all GPUs together. `experimental_distribute_dataset` then splits each
# global batch between the replicas. Fifty examples give two full batches, 5 examples per
# replica, and a short last batch of 10, which TensorFlow cuts into slices of ⌈10/4⌉ = 3:
# 3, 3, 3 and 1 (lesson 04 explains this rule; lesson 00's `np.array_split` gave 3, 3, 2, 2).
# Whatever a replica sees, the batch you chose is the global one.
# <!-- claim keras3_variable: holds(type(model.trainable_variables[0]).__name__ == "Variable", "Keras 3 prints Variable") -->

# %% [markdown] lang="zh"
# 数据集按**全局**批次大小（这里是 20）分批：全局批次大小就是所有 GPU 合起来在一步训练中处理的样本数。随后 `experimental_distribute_dataset` 把每个全局批次分给各个副本。50 个样本构成两个完整批次（每个副本 5 个样本）和一个只有 10 个样本的最后批次，TensorFlow 把它切成大小为 ⌈10/4⌉ = 3 的分片：3、3、3 和 1（第 04 课会解释这条规则；第 00 课的 `np.array_split` 分成的是 3、3、2、2）。无论每个副本看到多少样本，你设定的批次大小都是全局的。<!-- claim keras3_variable -->

# %% [markdown] lang="pt"
# O dataset é dividido em lotes pelo tamanho do lote **global**, 20 aqui: o número de exemplos que
# um passo de treinamento consome em todas as GPUs juntas. Depois `experimental_distribute_dataset`
# divide cada lote global entre as réplicas. Cinquenta exemplos dão dois lotes completos, 5 exemplos
# por réplica, e um último lote curto de 10, que o TensorFlow corta em fatias de ⌈10/4⌉ = 3: 3, 3, 3
# e 1 (a lição 04 explica essa regra; o `np.array_split` da lição 00 dava 3, 3, 2, 2). Não importa o
# que cada réplica veja: o lote que você escolhe é o global.
# <!-- claim keras3_variable -->

# %%
rng = np.random.default_rng(0)
features = rng.normal(size=(50, 1)).astype("float32")
labels = (features + 0.5 * rng.normal(size=(50, 1)) > 0).astype("float32")

global_batch_size = 20
dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(global_batch_size)
dist_dataset = strategy.experimental_distribute_dataset(dataset)

slice_shapes = []
for dist_features, dist_labels in dist_dataset:
    slice_shapes.append([tuple(x.shape) for x in strategy.experimental_local_results(dist_features)])
    print(t("lesson03.per_replica_shapes"), slice_shapes[-1])

# %% [markdown] lang="en"
# Now the step each replica runs. Three lines carry the whole lesson:
#
# - the Keras loss is built with `reduction=NONE`, so it returns one loss **per example**;
# - `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)` adds this replica's
#   per-example losses and divides by the **global** batch size, not by the replica's own
#   slice. The guide leaves `global_batch_size` out (then it is this slice's size × the number of
#   replicas); passing it by keyword keeps the short last batch right too;
# - `tf.nn.scale_regularization_loss` divides the regularization term by the number of replicas.
#
# Why? `apply_gradients` will **add** the replicas' gradients. If replica `r` minimises
# `Σ_{i∈r} ℓ_i / G`, the sum over replicas is `Σ_i ℓ_i / G`: exactly the mean over the global
# batch, whatever the size of each slice. The regularization term, on the other hand, is the same
# on every replica; divided by N, it counts once after the sum.
# <!-- claim slices_of_50: holds([[s[0] for s in shapes] for shapes in slice_shapes] == [[5, 5, 5, 5], [5, 5, 5, 5], [3, 3, 3, 1]], "5 per replica twice, then 3, 3, 3, 1") -->

# %% [markdown] lang="zh"
# 下面是每个副本运行的训练步。整节课的要点都在其中三行：
#
# - Keras 损失以 `reduction=NONE` 构建，所以它为**每个样本**返回一个损失；
# - `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)` 把本副本的逐样本损失相加，再除以**全局**批次大小，而不是本副本分片的大小。指南中省略了 `global_batch_size`（此时它等于本分片大小 × 副本数）；用关键字参数显式传入它，最后那个较短的批次也能算对；
# - `tf.nn.scale_regularization_loss` 把正则化项除以副本数。
#
# 为什么？因为 `apply_gradients` 会把各副本的梯度**相加**。如果副本 `r` 最小化的是 `Σ_{i∈r} ℓ_i / G`，那么各副本之和就是 `Σ_i ℓ_i / G`：无论每个分片有多大，它都恰好是全局批次上的均值。正则化项则不同，它在每个副本上都一样；除以 N 之后，求和时它只被计入一次。<!-- claim slices_of_50 -->

# %% [markdown] lang="pt"
# Agora o passo que cada réplica executa. A lição inteira está em três linhas:
#
# - a perda do Keras é criada com `reduction=NONE`, então devolve uma perda **por exemplo**;
# - `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)` soma as perdas por
#   exemplo desta réplica e divide pelo tamanho do lote **global**, não pelo tamanho da fatia da
#   réplica. O guia omite `global_batch_size` (aí ele vale o tamanho desta fatia × o número de
#   réplicas); passá-lo como argumento nomeado garante que o último lote, mais
#   curto, também saia certo;
# - `tf.nn.scale_regularization_loss` divide o termo de regularização pelo número de réplicas.
#
# Por quê? `apply_gradients` vai **somar** os gradientes das réplicas. Se a réplica `r` minimiza
# `Σ_{i∈r} ℓ_i / G`, a soma sobre as réplicas é `Σ_i ℓ_i / G`: exatamente a média sobre o lote
# global, seja qual for o tamanho de cada fatia. Já o termo de regularização é o mesmo em todas as
# réplicas; dividido por N, ele conta uma vez só depois da soma.
# <!-- claim slices_of_50 -->

# %%
# Sets `reduction=NONE` to leave it to tf.nn.compute_average_loss() below.
loss_object = tf.keras.losses.BinaryCrossentropy(
    from_logits=True,
    reduction=tf.keras.losses.Reduction.NONE)

def train_step(inputs):
    features, labels = inputs

    with tf.GradientTape() as tape:
        predictions = model(features, training=True)
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)
        model_losses = model.losses
        if model_losses:
            loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))

    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss

@tf.function
def distributed_train_step(dist_inputs):
    per_replica_losses = strategy.run(train_step, args=(dist_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

# %% [markdown] lang="en"
# Before training, look at that sum with your own eyes. Take 10 examples (slices 3, 3, 3, 1), let
# each replica compute the gradient of the kernel from `compute_average_loss`, and compare the
# SUM of the four with the gradient of the mean loss over all 10 examples on one device:

# %% [markdown] lang="zh"
# 训练之前，先亲眼看看这个求和。取 10 个样本（分片为 3、3、3、1），让每个副本根据 `compute_average_loss` 计算权重矩阵（kernel）的梯度，再把四个梯度的 SUM 与单个设备上 10 个样本平均损失的梯度相比较：

# %% [markdown] lang="pt"
# Antes de treinar, veja essa soma com os próprios olhos. Pegue 10 exemplos (fatias 3, 3, 3, 1),
# deixe cada réplica calcular o gradiente do kernel a partir de `compute_average_loss` e compare a
# SOMA dos quatro com o gradiente da perda média sobre os 10 exemplos em um único dispositivo:

# %%
batch_x, batch_y = features[:10], labels[:10]
inputs = next(iter(strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((batch_x, batch_y)).batch(10))))

def kernel_gradient(inputs):
    x, y = inputs
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(loss_object(y, model(x)), global_batch_size=10)
    return tape.gradient(loss, model.trainable_variables)[0]

per_replica_grads = strategy.run(kernel_gradient, args=(inputs,))
shares = [round(float(g.numpy()[0, 0]), 6) for g in strategy.experimental_local_results(per_replica_grads)]
summed = round(float(strategy.reduce("SUM", per_replica_grads, axis=None).numpy()[0, 0]), 6)
print(shares)
print(summed)

with tf.GradientTape() as tape:
    one_device_loss = tf.reduce_mean(loss_object(batch_y, model(batch_x)))
one_device_gradient = round(float(tape.gradient(one_device_loss, model.trainable_variables)[0].numpy()[0, 0]), 6)
print(one_device_gradient)

# %% [markdown] lang="en"
# The four shares differ (each comes from other examples, and the last replica holds only one),
# yet their sum is the one-device gradient, digit for digit. This is what `optimizer.apply_gradients` does
# inside `strategy.run`: it **SUM**-all-reduces the gradients across the replicas, then applies
# the same update to every copy of every variable. One step, then the four copies of the kernel:
# <!-- claim shares_sum: holds([int(x.shape[0]) for x in strategy.experimental_local_results(inputs[0])] == [3, 3, 3, 1], "slices 3, 3, 3, 1") & holds(len(set(shares)) == 4, "the four shares differ") & holds(summed == one_device_gradient, "their SUM is the one-device gradient to the printed digits") -->

# %% [markdown] lang="zh"
# 四份梯度各不相同（它们来自不同的样本，最后一个副本只有一个样本），但它们的和与单设备上的梯度一位不差。这就是 `optimizer.apply_gradients` 在 `strategy.run` 内部所做的事：它先在各副本之间对梯度做 **SUM** 全归约，再把同一个更新应用到每个变量的每一份拷贝上。运行一步，然后看看权重矩阵的四份拷贝：<!-- claim shares_sum -->

# %% [markdown] lang="pt"
# As quatro parcelas são diferentes (cada uma é calculada sobre exemplos diferentes, e a última réplica tem um
# só), mas a soma delas é o gradiente de um único dispositivo, dígito por dígito. É isso que `optimizer.apply_gradients`
# faz dentro de `strategy.run`: faz o all-reduce dos gradientes com **SUM** entre as réplicas e
# depois aplica a mesma atualização a cada cópia de cada variável. Um passo e, em seguida, as quatro
# cópias do kernel:
# <!-- claim shares_sum -->

# %%
iterator = iter(dist_dataset)
step_losses = [distributed_train_step(next(iterator))]
print(step_losses[0])
components = strategy.experimental_local_results(model.trainable_variables[0])
print([round(float(c.numpy()[0, 0]), 6) for c in components])
print(t("lesson03.mirrors_equal", same=all(np.array_equal(c.numpy(), components[0].numpy()) for c in components)))

# %% [markdown] lang="en"
# The value printed by `distributed_train_step` is `strategy.reduce(SUM, ...)` of the four
# per-replica losses: since each is already divided by the global batch, their sum is the loss of
# the global batch. The two remaining steps (the last one with slices 3, 3, 3, 1). The last batch
# holds only 10 examples, yet its loss is still divided by the global batch size of 20: the printed
# value is about half that batch's mean loss, not a sudden improvement.
# <!-- claim mirrors_equal: holds(all(np.array_equal(c.numpy(), components[0].numpy()) for c in components), "the four copies of the kernel are equal after the step") -->

# %% [markdown] lang="zh"
# `distributed_train_step` 打印的值是四个副本损失的 `strategy.reduce(SUM, ...)`：每个损失都已经除以全局批次大小，所以它们的和就是全局批次的损失。剩下的两步（最后一步的分片为 3、3、3、1）。最后一个批次只有 10 个样本，但它的损失仍然除以全局批次大小 20：打印出的值大约是这个批次平均损失的一半，并不是训练突然变好了。<!-- claim mirrors_equal -->

# %% [markdown] lang="pt"
# O valor impresso por `distributed_train_step` é o `strategy.reduce(SUM, ...)` das quatro perdas
# por réplica: como cada uma já foi dividida pelo lote global, a soma delas é a perda do lote
# global. Os dois passos restantes (o último com fatias 3, 3, 3, 1). O último lote tem só 10
# exemplos, mas a perda dele continua dividida pelo tamanho do lote global, 20: o valor impresso é
# cerca de metade da perda média desse lote, e não uma melhora repentina.
# <!-- claim mirrors_equal -->

# %%
for dist_inputs in iterator:
    step_losses.append(distributed_train_step(dist_inputs))
    print(step_losses[-1])
print([np.round(w.ravel(), 6) for w in model.get_weights()])

# %% [markdown] lang="en"
# ## 3. The same training on one device
#
# Now the claim in full: a plain model with the same initial weights, trained **without** a
# strategy on the same global batches of 20, 20 and 10, with the same loss, must end with the same
# weights.
# <!-- claim last_batch_half: about(2 * float(step_losses[2]), float(tf.reduce_mean(loss_object(labels[40:], model(features[40:])))), rel=0.05) & below(float(step_losses[2]), float(step_losses[1])) -->

# %% [markdown] lang="zh"
# ## 3. 在单个设备上做同样的训练
#
# 现在验证完整的结论：一个普通模型，初始权重相同，**不使用**策略，在同样的全局批次（20、20 和 10）上用同样的损失训练，最后必须得到相同的权重。<!-- claim last_batch_half -->

# %% [markdown] lang="pt"
# ## 3. O mesmo treinamento em um único dispositivo
#
# Agora a afirmação completa: um modelo comum com os mesmos pesos iniciais, treinado **sem**
# estratégia nos mesmos lotes globais de 20, 20 e 10, com a mesma perda, tem de terminar com os
# mesmos pesos.
# <!-- claim last_batch_half -->

# %%
single_model = tf.keras.Sequential([
    tf.keras.layers.Dense(1, input_shape=(1,),
                          kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
single_model.set_weights(initial_weights)
single_optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

single_losses = []
for batch_features, batch_labels in dataset:
    with tf.GradientTape() as tape:
        per_example_loss = loss_object(batch_labels, single_model(batch_features, training=True))
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)
        loss += tf.nn.scale_regularization_loss(tf.add_n(single_model.losses))
    gradients = tape.gradient(loss, single_model.trainable_variables)
    single_optimizer.apply_gradients(zip(gradients, single_model.trainable_variables))
    single_losses.append(loss)
    print(loss)

difference = max(float(np.max(np.abs(a - b)))
                 for a, b in zip(model.get_weights(), single_model.get_weights()))
print(t("lesson03.max_difference"), number(difference, ".1e"))

# %% [markdown] lang="en"
# The losses match step by step, and the weights differ only in the last bits of float32 (the
# four replicas add their numbers in a different order than one device does). Four GPUs did not
# change *what* is learned, only *where* it was computed. That is the contract of synchronous data
# parallelism, and `compute_average_loss` plus the SUM all-reduce is how TensorFlow keeps it.
# <!-- claim same_as_one_device: holds(all(abs(float(a) - float(b)) < 1e-6 for a, b in zip(step_losses, single_losses)), "the losses agree step by step") & below(difference, 1e-6) -->

# %% [markdown] lang="zh"
# 每一步的损失都一致，权重只在 float32 的最后几位上有差别（4 个副本对这些数求和的顺序与单个设备不同）。4 个 GPU 没有改变学到*什么*，只改变了在*哪里*计算。这就是同步数据并行的约定，而 `compute_average_loss` 加上 SUM 全归约正是 TensorFlow 遵守这个约定的方式。<!-- claim same_as_one_device -->

# %% [markdown] lang="pt"
# As perdas coincidem passo a passo, e os pesos diferem só nos últimos bits do float32 (as quatro
# réplicas somam os seus números em uma ordem diferente da de um único dispositivo). Quatro GPUs não
# mudaram *o que* é aprendido, só *onde* foi calculado. Esse é o contrato do paralelismo de dados
# síncrono, e `compute_average_loss` mais o all-reduce com SUM é como o TensorFlow o cumpre.
# <!-- claim same_as_one_device -->

# %% [markdown] lang="en"
# ## 4. The simulated clock: is it faster?
#
# Every `strategy.run` advances the simulated clock. Each replica's FLOPs become time on its GPU
# (a V100 here, 14 TFLOP/s), and every op it runs also pays a fixed launch overhead of 4 µs, as
# an eager op does on a real GPU. The all-reduce becomes time on the PCIe links (12 GB/s through
# one switch), and the step lasts as long as the slowest replica. `strategy.extended.last_step_time`
# gives the step's seconds, `strategy.extended.last_step_trace` its events. The function below
# trains one step of an MLP on 1, 2 or 4 GPUs; we try a tiny model and a larger one.

# %% [markdown] lang="zh"
# ## 4. 模拟时钟：变快了吗？
#
# 每次 `strategy.run` 都会推进模拟时钟。每个副本的 FLOP 变成它所在 GPU 上的时间（这里是 V100，14 TFLOP/s），而且它运行的每个操作还要付出 4 µs 的固定启动开销，就像真实 GPU 上的 eager 操作一样。全归约变成 PCIe 链路上的时间（经过同一个交换机，12 GB/s），而一步的耗时取决于最慢的副本。`strategy.extended.last_step_time` 给出这一步的秒数，`strategy.extended.last_step_trace` 给出它的事件。下面的函数在 1、2 或 4 个 GPU 上训练一个 MLP 一步；我们分别试一个极小的模型和一个较大的模型。

# %% [markdown] lang="pt"
# ## 4. O relógio simulado: ficou mais rápido?
#
# Cada `strategy.run` avança o relógio simulado. Os FLOPs de cada réplica viram tempo na sua GPU
# (uma V100 aqui, 14 TFLOP/s), e cada operação que ela executa paga ainda um custo fixo de
# lançamento de 4 µs, como uma operação eager em uma GPU de verdade. O all-reduce vira tempo nos
# enlaces PCIe (12 GB/s por um único switch), e o passo dura o tempo da réplica mais lenta. `strategy.extended.last_step_time` dá os
# segundos do passo, e `strategy.extended.last_step_trace`, os seus eventos. A função abaixo treina
# um passo de um MLP em 1, 2 ou 4 GPUs; testamos um modelo minúsculo e um maior.

# %%
def one_step(num_gpus, layer_sizes, global_batch, seed=0):
    """Train one step of an MLP on `num_gpus` simulated GPUs; return the strategy."""
    strategy = tf.distribute.MirroredStrategy(devices=[f"/gpu:{i}" for i in range(num_gpus)])
    tf.keras.utils.set_random_seed(seed)
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(global_batch, layer_sizes[0])).astype("float32")
    y = rng.integers(0, layer_sizes[-1], size=global_batch)
    with strategy.scope():
        mlp = tf.keras.Sequential(
            [tf.keras.Input(shape=(layer_sizes[0],))]
            + [tf.keras.layers.Dense(n, activation="relu") for n in layer_sizes[1:-1]]
            + [tf.keras.layers.Dense(layer_sizes[-1])])
        sgd = tf.keras.optimizers.SGD(learning_rate=0.01)
    ce = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

    def step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(ce(yb, mlp(xb, training=True)),
                                              global_batch_size=global_batch)
        grads = tape.gradient(loss, mlp.trainable_variables)
        sgd.apply_gradients(zip(grads, mlp.trainable_variables))
        return loss

    data = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch)
    strategy.run(step, args=(next(iter(strategy.experimental_distribute_dataset(data))),))
    return strategy

models = {"tiny_model": ([3, 2], 8), "larger_model": ([784, 512, 512, 10], 8192)}
gpus = [1, 2, 4]
step_us = {}
for name, (sizes, batch) in models.items():
    step_us[name] = [one_step(n, sizes, batch).extended.last_step_time * 1e6 for n in gpus]   # sim-only
    print(t(f"lesson03.{name}"))
    print("   µs:", [number(us, ".4g") for us in step_us[name]])
    print("  ", t("lesson03.speedup"), [number(step_us[name][0] / us, ".3g") for us in step_us[name]])

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
for ax, name in zip(axes, models):
    ax.bar([str(n) for n in gpus], step_us[name], color="tab:blue")
    ax.set_title(t(f"lesson03.{name}"), fontsize=10)
    ax.set_xlabel(t("lesson03.replicas"))
    ax.set_ylabel(t("lesson03.step_time_us"))
fig.suptitle(t("lesson03.step_time_title"))
fig.tight_layout()
plt.show()

# %% [markdown] lang="en"
# The tiny model does almost no arithmetic: its FLOPs would take about a nanosecond on a V100.
# Its step costs what its ops cost to launch: 16 ops (forward pass, loss, backward pass, update)
# at 4 µs each, the 64 µs on one GPU. Splitting the batch saves none of that, because every
# replica launches the same ops on its smaller slice; it only adds an all-reduce, whose messages
# pay the PCIe latency however few bytes they carry. So the step grows to 66 µs on two GPUs and
# 70 µs on four: here more GPUs make training **slower**. This is the honest answer to "I added
# GPUs and it got slower": if a step has little computation, fixed costs (op launches,
# communication latency) dominate, and every replica you add only adds communication.
#
# The larger model (670 thousand parameters, 8192 examples per step) has plenty of computation to
# share: 4 GPUs take about half the time per step, not a quarter, because neither the all-reduce of 2.7 MB of
# gradients nor the launch overhead of each op shrinks when you add GPUs. The timeline of one of its steps on 4 GPUs shows
# where the time goes:
# <!-- claim tiny_slower: between(step_us["tiny_model"][0] - 16 * 4, 0.0005, 0.002) & rounds_to(step_us["tiny_model"][1], 66) & rounds_to(step_us["tiny_model"][2], 70) & rises(step_us["tiny_model"]) -->
# <!-- claim larger_half: about(sum(a * b + b for a, b in zip(models["larger_model"][0][:-1], models["larger_model"][0][1:])), 670e3, rel=0.01) & between(step_us["larger_model"][2] / step_us["larger_model"][0], 0.4, 0.6) -->

# %% [markdown] lang="zh"
# 这个极小的模型几乎没有算术运算：它的 FLOP 在 V100 上只需大约 1 ns。它一步的耗时其实是启动操作的开销：16 个操作（前向传播、损失、反向传播、更新），每个 4 µs，就是单个 GPU 上的 64 µs。拆分批次省不掉其中任何一部分，因为每个副本都要在自己更小的分片上启动同样的操作；它只会多出一次全归约，而全归约的每条消息无论携带多少字节都要付出 PCIe 的延迟。于是一步在 2 个 GPU 上增加到 66 µs，在 4 个 GPU 上增加到 70 µs：在这里，GPU 越多训练反而越**慢**。这就是对“我加了 GPU 反而变慢了”的诚实回答：如果一步中的计算量很小，固定开销（操作的启动、通信的延迟）就会占据主导，每多加一个副本只会多一份通信。
#
# 较大的模型（67 万个参数，每步 8192 个样本）有大量可以分摊的计算：用 4 个 GPU 时，每一步的耗时缩短到约一半，而不是四分之一，因为 2.7 MB 梯度的全归约和每个操作的启动开销都不会因为 GPU 变多而缩短。它在 4 个 GPU 上一步的时间线显示了时间都花在了哪里：<!-- claim tiny_slower --><!-- claim larger_half -->

# %% [markdown] lang="pt"
# O modelo minúsculo quase não faz contas: os seus FLOPs levariam cerca de um nanossegundo em uma
# V100. O que o seu passo custa é o lançamento das operações: 16 operações (passagem para a frente,
# perda, passagem para trás, atualização) a 4 µs cada, os 64 µs em uma GPU. Dividir o lote não
# economiza nada disso, porque cada réplica lança as mesmas operações sobre a sua fatia menor; só
# acrescenta um all-reduce, cujas mensagens pagam a latência do PCIe por menos bytes que levem.
# Assim o passo sobe para 66 µs com duas GPUs e 70 µs com quatro: aqui mais GPUs deixam o
# treinamento **mais lento**. Esta é a resposta honesta para "coloquei mais GPUs e ficou mais
# lento": se um passo tem pouco cálculo, os custos fixos (lançamento de operações, latência da
# comunicação) dominam, e cada réplica que você acrescenta só acrescenta comunicação.
#
# O modelo maior (670 mil parâmetros, 8192 exemplos por passo) tem muito cálculo para dividir:
# com 4 GPUs o passo leva cerca de metade do tempo, e não um quarto, porque nem o all-reduce de 2,7 MB de gradientes
# nem o custo de lançamento de cada operação encolhem quando você acrescenta GPUs. A linha do tempo de um dos seus passos em 4 GPUs mostra para
# onde vai o tempo:
# <!-- claim tiny_slower -->
# <!-- claim larger_half -->

# %% slide="figure"
big = one_step(4, [784, 512, 512, 10], 8192)
trace = big.extended.last_step_trace   # sim-only
short = {d: d.split("device:")[-1] for d in big.extended.worker_devices}
events = [e._replace(where=short.get(e.where, t("lesson03.links"))) for e in trace]

from sim.course.plots.timeline import draw   # sim-only

fig = draw(events, title=t("lesson03.timeline_title", n=len(short)))
plt.show()
for event in trace:
    if event.kind != "compute":
        print(event.name, number(event.nbytes / 1e6, ".2f"), "MB", number((event.end - event.start) * 1e3, ".3f"), "ms")
print(number(big.extended.last_step_time * 1e3, ".3f"), "ms")   # sim-only

# %% [markdown] lang="en"
# Each GPU computes its forward and backward pass on 2048 examples at the same time; then all of
# them wait for one all-reduce of every gradient, packed into one message, on the links (on
# TensorFlow 2.21 MirroredStrategy's default is a `CollectiveReduceV2` over NCCL, run on one
# concatenation of all the gradients; the simulator's trace calls it `NcclAllReduce`); then
# each applies the identical update. The all-reduce is the part that does not shrink: with 8 GPUs
# the arithmetic would halve again, the all-reduce (and the launch of every op) would not. What to do about that (overlap,
# bigger per-replica batches, faster links) is the subject of later lessons.
# <!-- claim one_allreduce: holds(len([e for e in trace if e.kind != "compute"]) == 1, "one all-reduce message") & about(sum(e.nbytes for e in trace if e.kind != "compute") / 1e6, 2.7, rel=0.02) -->

# %% [markdown] lang="zh"
# 每个 GPU 同时对 2048 个样本做前向和反向计算；然后所有 GPU 都等待链路上的一次全归约，所有梯度打包成一条消息（在 TensorFlow 2.21 上，MirroredStrategy 默认用基于 NCCL 的 `CollectiveReduceV2`，作用于所有梯度拼接成的一个张量；模拟器的时间线把它记作 `NcclAllReduce`）；最后每个 GPU 应用完全相同的更新。全归约是不会缩短的那一部分：换成 8 个 GPU，算术运算的时间会再减半，全归约（以及每个操作的启动）却不会。如何应对（计算与通信重叠、更大的单副本批次、更快的链路）是后面几课的主题。<!-- claim one_allreduce -->

# %% [markdown] lang="pt"
# Cada GPU calcula a sua passagem para a frente e para trás sobre 2048 exemplos ao mesmo tempo;
# depois todas esperam por um all-reduce de todos os gradientes, empacotados em uma só mensagem, nos
# enlaces (no TensorFlow 2.21 o padrão da MirroredStrategy é um `CollectiveReduceV2` sobre o NCCL,
# feito em uma concatenação de todos os gradientes; a linha do tempo do simulador o chama de
# `NcclAllReduce`); depois cada uma aplica a mesma atualização. O all-reduce é a parte que não encolhe: com 8
# GPUs as contas cairiam pela metade de novo, o all-reduce (e o lançamento de cada operação) não. O que fazer a respeito (sobreposição,
# lotes por réplica maiores, enlaces mais rápidos) é assunto de lições posteriores.
# <!-- claim one_allreduce -->

# %% [markdown] lang="en"
# ## 5. Provoking the classic mistakes
#
# **MEAN instead of SUM.** The first mistake raises no error at all; it only prints a wrong
# number. Take the 10 examples from section 2 again (slices 3, 3, 3, 1) and the trained model.
# Each replica's `compute_average_loss` is already a share of the global mean, so the shares must
# be **added**. Reducing them with MEAN divides by 4 once more. Reducing per-replica *means*
# (`tf.reduce_mean` in each replica) with MEAN gives the "mean of means", which weighs the
# one-example slice as much as the three-example ones:

# %% [markdown] lang="zh"
# ## 5. 故意犯几个经典错误
#
# **用 MEAN 代替 SUM。** 第一个错误根本不会报错，只会打印一个错误的数字。再次取第 2 节的 10 个样本（分片为 3、3、3、1）和训练好的模型。每个副本的 `compute_average_loss` 已经是全局均值的一部分，所以这些部分必须**相加**。用 MEAN 归约会再除以 4。而把各副本的*均值*（每个副本里用 `tf.reduce_mean`）用 MEAN 归约，得到的是“均值的均值”，它让只有一个样本的分片与有三个样本的分片权重相同：

# %% [markdown] lang="pt"
# ## 5. Provocando os erros clássicos
#
# **MEAN em vez de SUM.** O primeiro erro não gera exceção nenhuma; só imprime um número errado.
# Pegue de novo os 10 exemplos da seção 2 (fatias 3, 3, 3, 1) e o modelo treinado. O
# `compute_average_loss` de cada réplica já é uma parte da média global, então as partes precisam
# ser **somadas**. Reduzi-las com MEAN divide por 4 mais uma vez. Reduzir as *médias* por réplica
# (`tf.reduce_mean` em cada réplica) com MEAN dá a "média das médias", que atribui à fatia de um exemplo o
# mesmo peso das fatias de três:

# %%
def scaled_loss(inputs):
    x, y = inputs
    return tf.nn.compute_average_loss(loss_object(y, model(x)), global_batch_size=10)

def local_mean_loss(inputs):
    x, y = inputs
    return tf.reduce_mean(loss_object(y, model(x)))

true_mean = float(tf.reduce_mean(loss_object(batch_y, model(batch_x))))
scaled = strategy.run(scaled_loss, args=(inputs,))
means = strategy.run(local_mean_loss, args=(inputs,))
loss_sum = float(strategy.reduce("SUM", scaled, axis=None))
loss_mean = float(strategy.reduce("MEAN", scaled, axis=None))
mean_of_means = float(strategy.reduce("MEAN", means, axis=None))
print(t("lesson03.single_device_loss"), number(true_mean, ".6g"))
print(t("lesson03.loss_sum"), number(loss_sum, ".6g"))
print(t("lesson03.loss_mean"), number(loss_mean, ".6g"))
print(t("lesson03.loss_mean_of_means"), number(mean_of_means, ".6g"))

# %% [markdown] lang="en"
# **A Keras loss with its default reduction.** Without `reduction=NONE`, a Keras loss averages
# over the batch it is given, which inside `strategy.run` is only this replica's slice. What
# happens next depends on the Keras version, one of the few places where they differ for this
# course:
#
# - **tf-keras** (Keras 2, the `tf.keras` the guide was written for; `pip install tf-keras` and
#   `TF_USE_LEGACY_KERAS=1`) refuses it in a custom loop under a strategy with a `ValueError`
#   (inside `Model.fit` it is allowed, because `fit` scales the loss itself);
# - **Keras 3** (`tf.keras` since TensorFlow 2.16, the default) accepts it and divides each
#   replica's mean by `num_replicas_in_sync`. The SUM over replicas is then the mean of the means
#   above: right when every slice has the same size, wrong on this uneven batch (3, 3, 3, 1).
#
# sim.tf follows the version your environment selects, as TensorFlow does (Keras 3 here):
# <!-- claim mean_divides_again: about(loss_sum, true_mean, rel=1e-5) & about(loss_mean, loss_sum / 4, rel=1e-5) & above(abs(mean_of_means - true_mean), 0.01) -->

# %% [markdown] lang="zh"
# **使用默认归约方式的 Keras 损失。** 不设置 `reduction=NONE` 时，Keras 损失会对传给它的批次取平均，而在 `strategy.run` 内部，这只是本副本的分片。接下来会发生什么取决于 Keras 的版本，这是本课程中两个版本少数几处不同之一：
#
# - **tf-keras**（Keras 2，即编写指南时的 `tf.keras`；需要 `pip install tf-keras` 并设置 `TF_USE_LEGACY_KERAS=1`）：在策略下的自定义训练循环中会以 `ValueError` 拒绝这种用法（在 `Model.fit` 中则允许，因为 `fit` 会自己缩放损失）；
# - **Keras 3**（TensorFlow 2.16 起默认的 `tf.keras`）：接受这种用法，并把每个副本的均值除以 `num_replicas_in_sync`。于是各副本之和就是上面的“均值的均值”：各分片大小相同时是对的，在这个不均匀的批次（3、3、3、1）上则是错的。
#
# 与 TensorFlow 一样，sim.tf 遵循环境所选的版本（这里是 Keras 3）：<!-- claim mean_divides_again -->

# %% [markdown] lang="pt"
# **Uma perda do Keras com a redução padrão.** Sem `reduction=NONE`, uma perda do Keras tira a
# média sobre o lote que recebe, que dentro de `strategy.run` é só a fatia desta réplica. O que
# acontece depois depende da versão do Keras, um dos poucos pontos em que elas diferem neste
# curso:
#
# - o **tf-keras** (Keras 2, o `tf.keras` para o qual o guia foi escrito; `pip install tf-keras`
#   e `TF_USE_LEGACY_KERAS=1`) a recusa com um `ValueError` em um loop personalizado sob uma
#   estratégia (dentro do `Model.fit` ela é permitida, porque o `fit` escalona a perda por conta
#   própria);
# - o **Keras 3** (o `tf.keras` desde o TensorFlow 2.16, o padrão) a aceita e divide a média de
#   cada réplica por `num_replicas_in_sync`. A soma (SUM) sobre as réplicas passa a ser a média
#   das médias de antes: certa quando todas as fatias têm o mesmo tamanho, errada neste lote
#   desigual (3, 3, 3, 1).
#
# O sim.tf segue a versão que o seu ambiente seleciona, como o TensorFlow (aqui, o Keras 3):
# <!-- claim mean_divides_again -->

# %%
default_loss = tf.keras.losses.BinaryCrossentropy(from_logits=True)

def careless_step(inputs):
    x, y = inputs
    return default_loss(y, model(x))

with sim.show_error():   # sim-only: prints the error as "Type: message" (tf-keras raises here)
    careless = strategy.run(careless_step, args=(inputs,))
    careless_sum = float(strategy.reduce("SUM", careless, axis=None))
    print(t("lesson03.loss_sum"), "(Keras 3)", number(careless_sum, ".6g"))

# %% [markdown] lang="en"
# **Reducing a plain tensor with SUM.** `strategy.reduce` expects the `PerReplica` value that
# `strategy.run` returned. Give it an ordinary tensor computed outside the replicas and SUM would
# have to count the same number four times, so TensorFlow raises a `ValueError` (MEAN would
# return the tensor unchanged):
# <!-- claim keras3_mean_of_means: about(careless_sum, mean_of_means, rel=1e-5) & above(abs(careless_sum - true_mean), 0.01) -->

# %% [markdown] lang="zh"
# **用 SUM 归约一个普通张量。** `strategy.reduce` 需要的是 `strategy.run` 返回的 `PerReplica` 值。如果给它一个在副本之外算出的普通张量，SUM 就得把同一个数重复计入 4 次，所以 TensorFlow 会抛出 `ValueError`（而 MEAN 会原样返回这个张量）：<!-- claim keras3_mean_of_means -->

# %% [markdown] lang="pt"
# **Reduzir um tensor comum com SUM.** `strategy.reduce` espera o valor `PerReplica` que
# `strategy.run` devolveu. Dê a ele um tensor comum, calculado fora das réplicas, e o SUM teria de
# contar o mesmo número quatro vezes, então o TensorFlow lança um `ValueError` (o MEAN devolveria
# o tensor sem mudança):
# <!-- claim keras3_mean_of_means -->

# %%
with sim.show_error():   # sim-only: prints the error as "Type: message"
    strategy.reduce(tf.distribute.ReduceOp.SUM, tf.constant(true_mean), axis=None)

# %% [markdown] lang="en"
# ## Summary
#
# - `strategy.run` calls your step once per replica; results come back as `PerReplica` values,
#   which `experimental_local_results` unpacks and `strategy.reduce` combines.
# - Batch the dataset by the **global** batch size; `experimental_distribute_dataset` splits it
#   (uneven slices included).
# - In each replica: a Keras loss with `reduction=NONE`, then
#   `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)`, plus
#   `tf.nn.scale_regularization_loss(...)` for regularization.
# - `optimizer.apply_gradients` SUM-all-reduces the gradients and applies the same update to every
#   mirror: the result equals one device training on the whole global batch.
# - Report the loss with `strategy.reduce(SUM, ...)`, not MEAN.
# - More GPUs pay off only when a step has enough computation to hide the all-reduce.
#
# **Exercise:** open `exercises/en/03_custom_loop_loss.ipynb`.
# <!-- claim same_as_one_device -->
# <!-- claim tiny_slower -->
# <!-- claim larger_half -->

# %% [markdown] lang="zh"
# ## 小结
#
# - `strategy.run` 为每个副本调用一次你的训练步；结果以 `PerReplica` 值返回，可以用 `experimental_local_results` 拆开，用 `strategy.reduce` 合并。
# - 按**全局**批次大小对数据集分批；`experimental_distribute_dataset` 负责切分（包括大小不等的分片）。
# - 在每个副本中：使用 `reduction=NONE` 的 Keras 损失，然后调用 `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)`，正则化项再加上 `tf.nn.scale_regularization_loss(...)`。
# - `optimizer.apply_gradients` 对梯度做 SUM 全归约，并对每个镜像应用相同的更新：结果等于单个设备在整个全局批次上训练。
# - 报告损失时用 `strategy.reduce(SUM, ...)`，而不是 MEAN。
# - 只有当一步中的计算量足以掩盖全归约时，更多的 GPU 才划算。
#
# **练习**：打开 `exercises/zh/03_custom_loop_loss.ipynb`。<!-- claim same_as_one_device --><!-- claim tiny_slower --><!-- claim larger_half -->

# %% [markdown] lang="pt"
# ## Resumo
#
# - `strategy.run` chama o seu passo uma vez por réplica; os resultados voltam como valores
#   `PerReplica`, que `experimental_local_results` desempacota e `strategy.reduce` combina.
# - Divida o dataset em lotes pelo tamanho do lote **global**; `experimental_distribute_dataset` o
#   divide (fatias desiguais inclusive).
# - Em cada réplica: uma perda do Keras com `reduction=NONE`, depois
#   `tf.nn.compute_average_loss(per_example_loss, global_batch_size=...)`, mais
#   `tf.nn.scale_regularization_loss(...)` para a regularização.
# - `optimizer.apply_gradients` faz o all-reduce dos gradientes com SUM e aplica a mesma
#   atualização a cada espelho: o resultado é igual ao de um único dispositivo treinando no lote
#   global inteiro.
# - Informe a perda com `strategy.reduce(SUM, ...)`, não com MEAN.
# - Mais GPUs só compensam quando um passo tem cálculo suficiente para esconder o all-reduce.
#
# **Exercício:** abra `exercises/pt/03_custom_loop_loss.ipynb`.
# <!-- claim same_as_one_device -->
# <!-- claim tiny_slower -->
# <!-- claim larger_half -->
