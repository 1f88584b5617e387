# %% [markdown] lang="en"
# # 08 · Bigger batches, more replicas: scaling the learning rate
#
# Add replicas to a `MirroredStrategy` and keep the per-replica batch: the **global** batch grows
# with them. TensorFlow's guide says to multiply the per-replica batch by
# `num_replicas_in_sync` and to "re-tune the learning rate", and shows a small lookup table.
# This lesson measures what that re-tuning should be, on small but real training runs, and
# where adding GPUs stops paying off:
#
# 1. the guide's recipe, and three rules for the learning rate (linear, square root, none);
# 2. **warmup** as a Keras learning-rate schedule, inside `Model.fit` under `MirroredStrategy`;
# 3. steps to reach a target loss against the batch size: perfect scaling, then a wall, and the
#    **critical batch size** between them;
# 4. the best learning rate for each batch size, next to the guide's table;
# 5. the **gradient noise scale**, measured from the per-replica and the all-reduced gradients;
# 6. the rules at a fixed budget of epochs, and what warmup rescues;
# 7. simulated time to target against the number of GPUs;
# 8. a classroom demo: pick a batch and a rule, watch the loss.

# %% [markdown] lang="zh"
# # 08 · 更大的批次，更多的副本：缩放学习率
#
# 给 `MirroredStrategy` 增加副本、同时保持每个副本的批次不变，**全局**批次就会随之变大。TensorFlow 的指南告诉我们：把每个副本的批次乘以 `num_replicas_in_sync`，并且“重新调整学习率”，还给出了一张小小的查找表。本节课用规模虽小但货真价实的训练来实测：学习率究竟该怎样调整，以及从什么时候起增加 GPU 不再划算：
#
# 1. 指南的做法，以及学习率的三条规则（线性、平方根、不缩放）；
# 2. 把**预热**（warm-up）写成 Keras 的学习率调度，在 `MirroredStrategy` 下用于 `Model.fit`；
# 3. 达到目标损失所需的步数与批次大小的关系：先是理想缩放，然后撞墙，两者之间是**临界批次大小**；
# 4. 每个批次大小的最佳学习率，并与指南中的表格对照；
# 5. **梯度噪声尺度**：由每个副本的梯度和全归约之后的梯度测得；
# 6. 在固定的周期预算下比较几条规则，以及预热能挽救什么；
# 7. 达到目标的模拟时间与 GPU 数量的关系；
# 8. 课堂演示：选一个批次大小和一条规则，观察损失曲线。

# %% [markdown] lang="pt"
# # 08 · Lotes maiores, mais réplicas: escalonando a taxa de aprendizado
#
# Acrescente réplicas a uma `MirroredStrategy` mantendo o lote por réplica: o lote **global**
# cresce junto. O guia do TensorFlow manda multiplicar o lote por réplica por
# `num_replicas_in_sync` e "reajustar a taxa de aprendizado", e mostra uma pequena tabela de
# consulta. Esta lição mede qual deve ser esse reajuste, em treinamentos pequenos mas reais, e a
# partir de onde acrescentar GPUs deixa de compensar:
#
# 1. a receita do guia e três regras para a taxa de aprendizado (linear, raiz quadrada, nenhuma);
# 2. o **aquecimento** (warm-up) como um agendamento de taxa de aprendizado do Keras, dentro de
#    `Model.fit` com `MirroredStrategy`;
# 3. passos até uma perda-alvo em função do tamanho do lote: escalonamento perfeito, depois um
#    muro, e entre os dois o **tamanho crítico do lote**;
# 4. a melhor taxa de aprendizado para cada tamanho de lote, ao lado da tabela do guia;
# 5. a **escala de ruído do gradiente**, medida a partir dos gradientes por réplica e do gradiente
#    após o all-reduce;
# 6. as regras com um orçamento fixo de épocas, e o que o aquecimento resolve;
# 7. o tempo simulado até a meta em função do número de GPUs;
# 8. uma demonstração para a sala de aula: escolha um lote e uma regra e veja a perda.

# %% [markdown] lang="en"
# ## 1. The guide's recipe
#
# The guide computes the global batch from the per-replica batch; `scaling.global_batch_size`
# does the same product (it takes the strategy or a number). The course machine has four GPUs.

# %% [markdown] lang="zh"
# ## 1. 指南的做法
#
# 指南由每个副本的批次算出全局批次；`scaling.global_batch_size` 做的是同一个乘法（可以传入策略，也可以传入一个数）。课程的机器有 4 个 GPU。

# %% [markdown] lang="pt"
# ## 1. A receita do guia
#
# O guia calcula o lote global a partir do lote por réplica; `scaling.global_batch_size` faz o
# mesmo produto (aceita a estratégia ou um número). A máquina do curso tem quatro GPUs.

# %%
import numpy as np
import matplotlib.pyplot as plt
import sim.tf as tf
from sim import scaling
from sim.i18n import t
from sim.course.plots import scaling as scaling_plots
from sim.scaling import experiments

mirrored_strategy = tf.distribute.MirroredStrategy()

# Compute a global batch size using a number of replicas.
BATCH_SIZE_PER_REPLICA = 5
global_batch_size = (BATCH_SIZE_PER_REPLICA *
                     mirrored_strategy.num_replicas_in_sync)
print(global_batch_size, scaling.global_batch_size(BATCH_SIZE_PER_REPLICA, mirrored_strategy))

# %% [markdown] lang="en"
# The guide then reads the learning rate from `LEARNING_RATES_BY_BATCH_SIZE`. Put it next to the
# three rules, all starting from 0.1 at batch 5. When the batch grows `k` times:
#
# - **linear** (Goyal et al., 2017): the rate grows `k` times. One step with `k` times the
#   examples replaces `k` small steps, as long as the gradient barely changes over them;
# - **square root** (Krizhevsky, 2014; Hoffer et al., 2017): the rate grows `√k` times, which
#   keeps the variance of one update the same;
# - **none**: the same rate whatever the batch.

# %% [markdown] lang="zh"
# 接着，指南从 `LEARNING_RATES_BY_BATCH_SIZE` 中读取学习率。把它和三条规则放在一起比较，都从批次 5 时的 0.1 出发。当批次变为原来的 `k` 倍时：
#
# - **线性规则**（Goyal 等人，2017）：学习率也变为原来的 `k` 倍。只要梯度在这几步之间几乎不变，一个样本数为原来 `k` 倍的大步就能代替 `k` 个小步；
# - **平方根规则**（Krizhevsky，2014；Hoffer 等人，2017）：学习率变为原来的 `√k` 倍，这样每次更新的方差保持不变；
# - **不缩放**：无论批次多大，学习率都不变。

# %% [markdown] lang="pt"
# Depois o guia lê a taxa de aprendizado em `LEARNING_RATES_BY_BATCH_SIZE`. Coloque-a ao lado das
# três regras, todas partindo de 0,1 com lote 5. Quando o lote cresce `k` vezes:
#
# - **linear** (Goyal et al., 2017): a taxa cresce `k` vezes. Um passo com `k` vezes mais
#   exemplos substitui `k` passos pequenos, desde que o gradiente quase não mude ao longo deles;
# - **raiz quadrada** (Krizhevsky, 2014; Hoffer et al., 2017): a taxa cresce `√k` vezes, o que
#   mantém a variância de uma atualização;
# - **nenhuma**: a mesma taxa, seja qual for o lote.

# %%
LEARNING_RATES_BY_BATCH_SIZE = {5: 0.1, 10: 0.15, 20:0.175}
learning_rate = LEARNING_RATES_BY_BATCH_SIZE[global_batch_size]

print(t("lesson08.rules_header"))
for batch in LEARNING_RATES_BY_BATCH_SIZE:
    print(t("lesson08.rules_row", batch=batch,
            guide=scaling.scaled_learning_rate(None, None, batch, "guide"),
            none=scaling.scaled_learning_rate(0.1, 5, batch, "none"),
            sqrt=scaling.scaled_learning_rate(0.1, 5, batch, "sqrt"),
            linear=scaling.scaled_learning_rate(0.1, 5, batch, "linear")))

# %% [markdown] lang="en"
# The table grows by 1.5 from 5 to 10 (between √2 ≈ 1.41 and 2) and by only 1.17 from 10 to
# 20: from 5 to 20 it grows 1.75 times in all, less than the square-root rule's 2 and far from linear's 4.
# These are illustrative numbers for the guide's model, not a law. And a table only knows its
# own rows: with 8 GPUs the global batch is 40, and the guide's dictionary would raise a
# `KeyError`. `sim.scaling` says what to do instead:

# %% [markdown] lang="zh"
# 批次从 5 到 10 时，表中的学习率变为原来的 1.5 倍（介于 √2 ≈ 1.41 和 2 之间）；从 10 到 20 时只变为原来的 1.17 倍：从 5 到 20 总共变为原来的 1.75 倍，比平方根规则的 2 倍还小，离线性规则的 4 倍更远。这些数字只是针对指南中那个模型的示例，并不是定律。而且查找表只认识自己的那几行：如果有 8 个 GPU，全局批次就是 40，指南的字典会引发 `KeyError`。`sim.scaling` 会告诉你应该怎么做：

# %% [markdown] lang="pt"
# A tabela cresce 1,5 vez de 5 para 10 (entre √2 ≈ 1,41 e 2) e só 1,17 vez de 10 para 20: de 5
# para 20 ela cresce 1,75 vez no total, menos que os 2 da regra da raiz quadrada e longe dos 4 da linear. São
# números ilustrativos para o modelo do guia, não uma lei. E uma tabela só conhece as próprias
# linhas: com 8 GPUs o lote global é 40, e o dicionário do guia lançaria um `KeyError`. O
# `sim.scaling` diz o que fazer em vez disso:

# %%
with sim.show_error():   # sim-only: prints the error as "Type: message"
    scaling.scaled_learning_rate(0.1, 5, 40, "guide")

# %% [markdown] lang="en"
# ## 2. Warmup is a learning-rate schedule
#
# A large rate is dangerous at the very start, when the weights are random and the gradients
# large. Goyal et al. start at the small-batch rate and add the same amount every step until
# the scaled rate is reached (**gradual warmup**), then follow the normal schedule.
# `scaling.GradualWarmup` is a `tf.keras.optimizers.schedules.LearningRateSchedule` with the
# arguments of the TensorFlow Model Garden's `LinearWarmup`, so any optimizer takes it, and it
# serializes with `get_config`/`from_config`. Here: warm up from 0.1 to 0.4 over 2 epochs of 8
# steps, then a step decay ×0.1 after epoch 6. (`scaling.ConstantWarmup` holds the small rate
# and then jumps; Goyal et al. found it worse.)

# %% [markdown] lang="zh"
# ## 2. 预热是一种学习率调度
#
# 训练刚开始时，权重是随机的，梯度很大，这时大学习率最危险。Goyal 等人的做法是：从小批次时的学习率开始，每一步增加相同的量，直到达到缩放后的学习率（**渐进预热**），之后再按正常的调度进行。`scaling.GradualWarmup` 是一个 `tf.keras.optimizers.schedules.LearningRateSchedule`，参数与 TensorFlow Model Garden 中的 `LinearWarmup` 相同，所以任何优化器都能使用它，而且可以用 `get_config`/`from_config` 序列化。下面的例子：在 2 个周期（每个周期 8 步）内从 0.1 预热到 0.4，然后在第 6 个周期之后按阶梯衰减为原来的 0.1 倍。（`scaling.ConstantWarmup` 先保持小学习率，再一下子跳上去；Goyal 等人发现它的效果更差。）

# %% [markdown] lang="pt"
# ## 2. O aquecimento é um agendamento da taxa de aprendizado
#
# Uma taxa grande é perigosa bem no início, quando os pesos são aleatórios e os gradientes são
# grandes. Goyal et al. começam com a taxa do lote pequeno e somam a mesma quantidade a cada
# passo até chegar à taxa escalonada (**aquecimento gradual**), e depois seguem o agendamento
# normal. `scaling.GradualWarmup` é um `tf.keras.optimizers.schedules.LearningRateSchedule` com os
# argumentos do `LinearWarmup` do TensorFlow Model Garden, então qualquer otimizador o aceita, e
# ele é serializado com `get_config`/`from_config`. Aqui: aquecer de 0,1 a 0,4 em 2 épocas de 8
# passos e depois um decaimento em degrau ×0,1 após a época 6. (`scaling.ConstantWarmup` mantém a
# taxa pequena e depois salta; Goyal et al. constataram que ele é pior.)

# %%
schedules = tf.keras.optimizers.schedules
STEPS_PER_EPOCH = 8
after_warmup = schedules.PiecewiseConstantDecay(boundaries=[6 * STEPS_PER_EPOCH], values=[0.4, 0.04])
warmup = scaling.GradualWarmup(after_warmup, warmup_steps=2 * STEPS_PER_EPOCH, warmup_learning_rate=0.1)

print([round(float(warmup(step)), 4) for step in (0, 4, 8, 12, 16, 48, 49)])
print(warmup.get_config())
print(float(scaling.GradualWarmup.from_config(warmup.get_config())(12)) == float(warmup(12)))

# %% [markdown] lang="en"
# In `Model.fit` under `MirroredStrategy` the optimizer asks the schedule for the rate at its
# own step count, once per global batch: 3 epochs of 8 steps end at step 24, past the warmup.

# %% [markdown] lang="zh"
# 在 `MirroredStrategy` 下的 `Model.fit` 中，优化器每处理一个全局批次，就按自己的步数向调度询问一次学习率：3 个周期、每个周期 8 步，结束于第 24 步，此时预热已经结束。

# %% [markdown] lang="pt"
# No `Model.fit` com `MirroredStrategy`, o otimizador pede ao agendamento a taxa na sua própria
# contagem de passos, uma vez por lote global: 3 épocas de 8 passos terminam no passo 24, depois
# do aquecimento.

# %%
rng = np.random.default_rng(0)
x = rng.normal(size=(8 * 32, 16)).astype("float32")
y = (x @ rng.normal(size=(16, 1)) + 0.1 * rng.normal(size=(8 * 32, 1))).astype("float32")

tf.keras.utils.set_random_seed(0)
with mirrored_strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(16,))])
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=warmup))
history = model.fit(x, y, batch_size=32, epochs=3, verbose=0)

step = int(model.optimizer.iterations.numpy())
print(step, round(float(warmup(step)), 4), [round(v, 4) for v in history.history["loss"]])

# %% [markdown] lang="en"
# ## 3. Steps to target against batch size
#
# Now the measurement. The problem is the one of the reference's experiment E1: linear
# regression on a stream of fresh samples (16 inputs whose variances go from 1 down to 0.1,
# label noise 1), so nothing overfits and the loss is known exactly. For each global batch
# `B = 1, 2, 4, ..., 1024` we train with 21 learning rates (powers of √2 from 2⁻⁸ to 4) and keep
# the one that first brings the loss down to 5% (then 1%) of where it started; the median over
# 3 seeds is plotted. All 21 rates of one batch train **together**, as one stacked NumPy array on
# the same data: the whole sweep takes about a second (`bench/scaling_sweep.py` measures it
# against one rate at a time).
#
# McCandlish et al. (2018) predict `S(B) = S_min (1 + B_crit / B)`: far below the **critical
# batch size** `B_crit`, doubling the batch halves the steps (perfect scaling); far above it, the
# steps stop falling at `S_min`. At `B = B_crit` a run needs twice the fewest steps and twice the
# fewest examples.

# %% [markdown] lang="zh"
# ## 3. 达到目标所需的步数与批次大小
#
# 现在开始测量。问题取自参考资料中的实验 E1：在源源不断的新样本上做线性回归（16 个输入，方差从 1 递减到 0.1，标签噪声为 1），所以不会过拟合，损失也能精确算出。对每个全局批次大小 `B = 1, 2, 4, ..., 1024`，我们用 21 个学习率（从 2⁻⁸ 到 4，相邻两个相差 √2 倍）分别训练，保留最先把损失降到起始值 5%（然后是 1%）的那一个；图中画的是 3 个随机种子的中位数。同一个批次大小的 21 个学习率是**一起**训练的：它们叠成一个 NumPy 数组，使用相同的数据，所以整个扫描只需要大约一秒（`bench/scaling_sweep.py` 把它和逐个学习率训练的做法作了对比）。
#
# McCandlish 等人（2018）给出 `S(B) = S_min (1 + B_crit / B)`：当批次远小于**临界批次大小** `B_crit` 时，批次加倍，步数减半（理想缩放）；在远大于它时，步数停在 `S_min` 不再下降。在 `B = B_crit` 处，训练需要的步数是最少步数的 2 倍，样本数也是最少样本数的 2 倍。

# %% [markdown] lang="pt"
# ## 3. Passos até a meta em função do tamanho do lote
#
# Agora a medição. O problema é o do experimento E1 da referência: regressão linear sobre um
# fluxo de amostras sempre novas (16 entradas com variâncias de 1 até 0,1, ruído de rótulo 1),
# então nada sofre overfitting e a perda é conhecida exatamente. Para cada lote global
# `B = 1, 2, 4, ..., 1024` treinamos com 21 taxas de aprendizado (potências de √2 de 2⁻⁸ a 4) e
# ficamos com a que primeiro leva a perda a 5% (depois 1%) do valor inicial; o gráfico mostra a
# mediana de 3 sementes. Os 21 treinamentos de um lote (um por taxa) rodam **juntos**, como um único array NumPy
# empilhado sobre os mesmos dados: a varredura inteira leva cerca de um segundo
# (`bench/scaling_sweep.py` compara com uma taxa de cada vez).
#
# McCandlish et al. (2018) preveem `S(B) = S_min (1 + B_crit / B)`: bem abaixo do **tamanho
# crítico do lote** `B_crit`, dobrar o lote divide os passos por dois (escalonamento perfeito);
# bem acima, os passos deixam de cair e ficam em `S_min`. Em `B = B_crit` um treinamento precisa do dobro
# dos passos mínimos e do dobro dos exemplos mínimos.

# %% slide="figure"
e1 = experiments.e1()

fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
for k, ax in enumerate(axes):
    scaling_plots.steps_vs_batch(ax, e1, k)
plt.show()

for k, target in enumerate(e1.targets):
    fit = e1.fit(k)
    print(t("lesson08.fit_row", pct=100 * target, s_min=fit.s_min, b_crit=fit.b_crit,
            b_simple=np.median(e1.b_simple[:, k]), b_noise=np.median(e1.b_noise[:, k])))

# %% [markdown] lang="en"
# Read the 1% panel from left to right: each doubling of the batch first divides the steps by
# about 2, then by less and less, and the last doubling buys nothing. These are Shallue et
# al.'s three regimes (2019): perfect scaling, diminishing returns, maximal data parallelism.
# The tighter target has the larger `B_crit`: a loss closer to its floor has a smaller true
# gradient next to the same noise, so averaging over more examples keeps paying longer.

# %% [markdown] lang="zh"
# 从左往右读 1% 那幅图：批次每加倍一次，步数起初大约减半，随后减少得越来越少，最后一次加倍毫无收益。这就是 Shallue 等人（2019）说的三个阶段：理想缩放、收益递减、数据并行的极限。目标越严格，`B_crit` 越大：损失越接近它的下限，真实梯度就越小，而噪声并没有变小，所以在更多样本上求平均，收益能持续得更久。

# %% [markdown] lang="pt"
# Leia o painel de 1% da esquerda para a direita: cada vez que o lote dobra, os passos primeiro
# caem mais ou menos pela metade, depois cada vez menos, e a última duplicação não traz ganho nenhum. São os três
# regimes de Shallue et al. (2019): escalonamento perfeito, retornos decrescentes, paralelismo de
# dados máximo. A meta mais exigente tem o `B_crit` maior: uma perda mais perto do seu piso tem um
# gradiente verdadeiro menor diante do mesmo ruído, então fazer a média sobre mais exemplos
# continua compensando por mais tempo.

# %%
ratios = scaling.doubling_ratios(e1.batch_sizes, e1.median_steps[1])
for b, ratio in zip(e1.batch_sizes, ratios):
    print(t("lesson08.doubling_row", b=b, b2=2 * b, ratio=ratio))

# %% [markdown] lang="en"
# ## 4. The best learning rate for each batch
#
# The same sweep tells which rate won at each batch. For comparison with the guide's table we
# also run the sweep at its three sizes, 5, 10 and 20, with a finer grid (powers of 2^¼).

# %% [markdown] lang="zh"
# ## 4. 每个批次大小的最佳学习率
#
# 同一次扫描还告诉我们，每个批次大小下是哪个学习率胜出。为了和指南中的表格比较，我们还在表格的三个批次大小 5、10、20 上用更细的网格（2^¼ 的幂）做了扫描。

# %% [markdown] lang="pt"
# ## 4. A melhor taxa de aprendizado para cada lote
#
# A mesma varredura diz qual taxa venceu em cada lote. Para comparar com a tabela do guia, também
# rodamos a varredura nos três tamanhos dela, 5, 10 e 20, com uma grade mais fina (potências de
# 2^¼).

# %%
from sim.scaling.sweeps import steps_to_target

fine_grid = [2.0 ** (i / 4) for i in range(-24, 5)]
at_guide_sizes = steps_to_target((5, 10, 20), fine_grid, targets=(0.05,))
measured = dict(zip((5, 10, 20), at_guide_sizes.median_best_lr[0]))

fig, ax = plt.subplots(figsize=(7, 4.2))
scaling_plots.best_lr_vs_batch(ax, e1, guide=LEARNING_RATES_BY_BATCH_SIZE, guide_measured=measured)
plt.show()
for batch in (5, 10, 20):
    print(t("lesson08.guide_row", batch=batch, guide=LEARNING_RATES_BY_BATCH_SIZE[batch],
            measured=measured[batch]))

# %% [markdown] lang="en"
# At small batches the best rate grows about linearly with the batch (the dotted line); then it
# bends and stops below the stability limit `2 / λ_max` (here 2: the largest variance of an input
# is 1), even though the grid went up to 4. No single rule fits the whole range, which is what
# Shallue et al. found on real networks too. On this model the best rate grows much faster than
# the guide's table: the table belongs to the guide's model, and your model needs its own
# measurement.

# %% [markdown] lang="zh"
# 在批次较小时，最佳学习率大致随批次线性增长（点线）；之后曲线弯折，停在稳定性上限 `2 / λ_max` 之下（这里是 2：输入的最大方差为 1），尽管网格一直到 4。没有哪一条规则能覆盖整个范围，Shallue 等人在真实网络上也发现了这一点。在这个模型上，最佳学习率比指南中的表格增长得快得多：那张表属于指南中的模型，你的模型需要自己测量。

# %% [markdown] lang="pt"
# Com lotes pequenos a melhor taxa cresce mais ou menos linearmente com o lote (a linha
# pontilhada); depois a curva se achata e estaciona abaixo do limite de estabilidade `2 / λ_max` (aqui
# 2: a maior variância de uma entrada é 1), embora a grade fosse até 4. Nenhuma regra única serve
# para a faixa inteira, o que Shallue et al. também observaram em redes reais. Neste modelo a melhor
# taxa cresce bem mais rápido que a tabela do guia: a tabela pertence ao modelo do guia, e o seu
# modelo precisa da própria medição.

# %% [markdown] lang="en"
# ## 5. The gradient noise scale, from the replicas' own gradients
#
# Where is `B_crit` without running the whole sweep? McCandlish et al. estimate the **noise
# scale** `B_simple = tr(Σ) / |G|²` (the summed variance of one example's gradient over the
# squared norm of the true gradient) from gradient norms at two batch sizes. For a batch of `B` examples,
# `E|G_B|² = |G|² + tr(Σ)/B`, so two sizes give both terms. Synchronous data parallelism has both
# for free: each replica's **local** gradient (`b_small` = the per-replica batch) and the
# **all-reduced** one (`b_big` = the global batch). Below, `strategy.run` returns both squared
# norms at the start of training (`w = 0`); averaging the two estimates separately over the draws
# and then dividing gives `B_simple`, compared with its closed form for this problem.

# %% [markdown] lang="zh"
# ## 5. 梯度噪声尺度：来自各副本自己的梯度
#
# 不跑完整的扫描，怎么知道 `B_crit` 在哪里？McCandlish 等人用两个批次大小下的梯度范数来估计**噪声尺度** `B_simple = tr(Σ) / |G|²`（单个样本梯度的噪声方差之和，除以真实梯度范数的平方）。对于含 `B` 个样本的批次，`E|G_B|² = |G|² + tr(Σ)/B`，所以两个批次大小就能解出这两项。同步数据并行免费提供了这两者：每个副本的**本地**梯度（`b_small` = 每个副本的批次）和**全归约之后**的梯度（`b_big` = 全局批次）。下面的 `strategy.run` 在训练开始时（`w = 0`）返回这两个梯度的范数平方；先分别对两个估计值在多次抽样上求平均，再相除，就得到 `B_simple`，并与这个问题的解析解比较。

# %% [markdown] lang="pt"
# ## 5. A escala de ruído do gradiente, a partir dos gradientes das próprias réplicas
#
# Onde fica o `B_crit` sem rodar a varredura inteira? McCandlish et al. estimam a **escala de
# ruído** `B_simple = tr(Σ) / |G|²` (a soma das variâncias do gradiente de um exemplo sobre o
# quadrado da norma do gradiente verdadeiro) a partir das normas do gradiente em dois tamanhos de lote. Para um lote de
# `B` exemplos, `E|G_B|² = |G|² + tr(Σ)/B`, então dois tamanhos dão os dois termos. O paralelismo
# de dados síncrono entrega os dois de graça: o gradiente **local** de cada réplica (`b_small` = o
# lote por réplica) e o gradiente **após o all-reduce** (`b_big` = o lote global). Abaixo,
# `strategy.run` devolve as duas normas ao quadrado no início do treinamento (`w = 0`); fazer a
# média das duas estimativas separadamente sobre os sorteios e só então dividir dá o `B_simple`,
# comparado com o valor que a fórmula fechada dá para este problema.

# %%
from sim.scaling.regression import StreamingRegression

problem = StreamingRegression(seed=0)
PER_REPLICA, DRAWS = 32, 60
with mirrored_strategy.scope():
    w = tf.Variable(np.zeros((16, 1), np.float32))

def squared_norms(x, y):
    with tf.GradientTape() as tape:
        loss = 0.5 * tf.reduce_mean(tf.square(tf.matmul(x, w)[:, 0] - y))
    local = tape.gradient(loss, w)
    all_reduced = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.MEAN, local)
    return tf.reduce_sum(tf.square(local)), tf.reduce_sum(tf.square(all_reduced))

replicas = mirrored_strategy.num_replicas_in_sync
draws_rng = np.random.default_rng(1)
small, big = [], []
for _ in range(DRAWS):
    xs, ys = problem.draws(draws_rng, 1, PER_REPLICA * replicas)
    dataset = tf.data.Dataset.from_tensor_slices((xs[0].astype("float32"), ys[0].astype("float32")))
    batch = next(iter(mirrored_strategy.experimental_distribute_dataset(dataset.batch(PER_REPLICA * replicas))))
    local_sq, global_sq = mirrored_strategy.run(squared_norms, args=batch)
    small += [float(v) for v in mirrored_strategy.experimental_local_results(local_sq)]
    big += [float(v) for v in mirrored_strategy.experimental_local_results(global_sq)]

estimate = scaling.b_simple(small, big, PER_REPLICA, PER_REPLICA * replicas)
exact, _ = scaling.linear_regression_noise_scales(problem.cov, -problem.w_star, problem.noise_std)
print(t("lesson08.noise_row", draws=DRAWS, small=PER_REPLICA, big=PER_REPLICA * replicas,
        estimate=estimate, exact=exact))

# %% [markdown] lang="en"
# At the start the noise scale is small (about 22): the gradient is large and points the
# right way, so a big batch wastes examples. It grows as the loss falls: at the 5% and 1%
# targets of section 3 its closed form is in the hundreds. It over-estimates `B_crit` here
# (about 3 to 4 times) because the problem is ill-conditioned; on a problem with equal variances
# `B_simple` and `B_crit` agree much better. Measured every few steps, it tells you when a
# bigger batch starts paying off.

# %% [markdown] lang="zh"
# 训练开始时噪声尺度很小（约 22）：梯度很大，方向也对，大批次只会浪费样本。随着损失下降，它会变大：在第 3 节的 5% 和 1% 目标处，它的解析解达到几百。这里它的值是 `B_crit` 的 3 到 4 倍，明显偏高，因为这个问题是病态的；在各方向方差相等的问题上，`B_simple` 和 `B_crit` 会吻合得好得多。每隔几步测一次，它就能告诉你从什么时候起更大的批次开始划算。

# %% [markdown] lang="pt"
# No início a escala de ruído é pequena (cerca de 22): o gradiente é grande e aponta para o lado
# certo, então um lote grande desperdiça exemplos. Ela cresce à medida que a perda cai: nas metas
# de 5% e 1% da seção 3, o valor da fórmula fechada chega às centenas. Aqui ela superestima o `B_crit` (de
# 3 a 4 vezes) porque o problema é mal condicionado; em um problema com variâncias iguais, `B_simple`
# e `B_crit` concordam muito melhor. Medida a cada poucos passos, ela diz quando um lote maior
# começa a compensar.

# %% [markdown] lang="en"
# ## 6. A fixed budget of epochs: which rule, and what warmup rescues
#
# Real training usually fixes the number of **epochs**, not the target, so a bigger batch means
# fewer steps. The reference's experiments E2 and E3 use a classifier: 8,192 training points in
# 20 dimensions labelled by a random "teacher" network, a student MLP 20 → 128 ReLU → 10, plain
# SGD, a step decay ×0.1 after two thirds of training. The baseline is batch 32 at rate 0.1; the
# batch grows `k = 4, 16, 64` times and the rate follows each rule (linear with a 5-epoch warmup
# when `k ≥ 16`). One seed here to keep the notebook quick; the tests run three. All the runs of
# one batch size train together as stacked NumPy arrays; a test replays one of them with
# `Model.fit` under `MirroredStrategy` on four GPUs and gets the same weights, to float32 rounding.

# %% [markdown] lang="zh"
# ## 6. 固定的周期预算：选哪条规则，预热能挽救什么
#
# 实际训练通常固定的是**周期**数，而不是目标，所以批次越大，步数越少。参考资料中的实验 E2 和 E3 使用一个分类器：20 维空间中的 8192 个训练点，由一个随机的“教师”网络打标签；学生是一个 20 → 128 ReLU → 10 的 MLP，用普通 SGD 训练，在训练进行到三分之二时学习率按阶梯衰减为原来的 0.1 倍。基准是批次 32、学习率 0.1；批次变为原来的 `k = 4, 16, 64` 倍，学习率分别按各条规则调整（当 `k ≥ 16` 时，线性规则配合 5 个周期的预热）。为了让笔记本跑得快，这里只用一个随机种子；测试中用三个。同一个批次大小的所有训练都叠成 NumPy 数组一起进行；有一个测试在 4 个 GPU 上用 `MirroredStrategy` 下的 `Model.fit` 重放其中一次训练，得到的权重在 float32 舍入误差范围内一致。

# %% [markdown] lang="pt"
# ## 6. Um orçamento fixo de épocas: qual regra, e o que o aquecimento resolve
#
# O treinamento real costuma fixar o número de **épocas**, não a meta, então um lote maior
# significa menos passos. Os experimentos E2 e E3 da referência usam um classificador: 8.192
# pontos de treinamento em 20 dimensões rotulados por uma rede "professora" aleatória, uma MLP
# aluna 20 → 128 ReLU → 10, SGD simples, decaimento em degrau ×0,1 após dois terços do
# treinamento. A base é lote 32 com taxa 0,1; o lote cresce `k = 4, 16, 64` vezes e a taxa segue
# cada regra (a linear com 5 épocas de aquecimento quando `k ≥ 16`). Aqui usamos uma semente para o
# notebook ser rápido; os testes rodam três. Todos os treinamentos de um mesmo tamanho de lote rodam
# juntos, como arrays NumPy empilhados; um teste repete um deles com `Model.fit` e
# `MirroredStrategy` em quatro GPUs e obtém os mesmos pesos, a menos do arredondamento do float32.

# %%
e2 = experiments.e2(ks=(4, 16, 64), seeds=(0,))

print(t("lesson08.e2_header"))
print(t("lesson08.e2_row", k=1, batch=32, none=e2.baseline, sqrt=e2.baseline, linear=e2.baseline))
for k in (4, 16, 64):
    print(t("lesson08.e2_row", k=k, batch=32 * k, none=e2.test_loss[k, "none"],
            sqrt=e2.test_loss[k, "sqrt"], linear=e2.test_loss[k, "linear"]))

# %% [markdown] lang="en"
# Without scaling, a big batch simply runs out of steps: at `k = 64` the 10 epochs are only 40
# steps at rate 0.1. The square-root rule helps, the linear rule comes closest to the baseline,
# and at `k = 64` even linear falls clearly behind: the breakdown Goyal et al. saw beyond a
# batch of 8k on ImageNet.
# <!-- claim e2_rules: holds(all(e2.test_loss[k, "sqrt"] < e2.test_loss[k, "none"] for k in (4, 16, 64)), "sqrt below none at every k") & holds(all(abs(e2.test_loss[k, "linear"] - e2.baseline) < abs(e2.test_loss[k, "sqrt"] - e2.baseline) for k in (4, 16, 64)), "linear closest to the baseline at every k") & above(e2.test_loss[64, "linear"], e2.baseline, by=0.05) -->
#
# Now warmup (E3, 30 epochs): batch 2048 at the linearly scaled rate 6.4, with and without a
# 5-epoch warmup from 0.1, and batch 4096 at 12.8 with warmup. The plot shows the first 50
# steps.

# %% [markdown] lang="zh"
# 不缩放时，大批次的步数根本不够：在 `k = 64` 时，10 个周期只有 40 步，学习率还是 0.1。平方根规则有帮助，线性规则最接近基准；而在 `k = 64` 时，连线性规则也明显落后：这正是 Goyal 等人在 ImageNet 上批次超过 8k 后看到的断崖式下降。<!-- claim e2_rules -->
#
# 接下来看预热（E3，30 个周期）：批次 2048、按线性规则缩放到学习率 6.4，分别带或不带从 0.1 开始的 5 个周期预热；再加上带预热的批次 4096、学习率 12.8。图中是前 50 步。

# %% [markdown] lang="pt"
# Sem escalonamento, um lote grande simplesmente fica sem passos: com `k = 64` as 10 épocas são só
# 40 passos com taxa 0,1. A regra da raiz quadrada ajuda, a linear chega mais perto da base, e com
# `k = 64` até a linear fica claramente para trás: a degradação que Goyal et al. constataram acima de um
# lote de 8k no ImageNet.
# <!-- claim e2_rules -->
#
# Agora o aquecimento (E3, 30 épocas): lote 2048 com a taxa escalonada linearmente (6,4), com e sem
# 5 épocas de aquecimento a partir de 0,1, e lote 4096 com 12,8 e aquecimento. O gráfico mostra os
# primeiros 50 passos.

# %%
e3 = experiments.e3(seeds=(0,))

fig, ax = plt.subplots(figsize=(7, 4.2))
scaling_plots.warmup_first_steps(ax, {key: e3[key] for key in [(2048, False), (2048, True)]})
plt.show()

print(t("lesson08.e3_header"))
for (batch, warm), run in sorted(e3.items()):
    print(t("lesson08.e3_row", batch=batch, lr=scaling.scaled_learning_rate(0.1, 32, batch, "linear"),
            warmup=t("lesson08.yes" if warm else "lesson08.no"), loss=run.test_loss.mean(),
            accuracy=run.test_accuracy.mean(), dead=run.dead_fraction.mean()))

# %% [markdown] lang="en"
# Without warmup the second step already multiplies the loss several times over: the first
# huge steps push many hidden ReLU units into a region where they never fire again (**dead**
# units, a third of them here), and the network finishes with less capacity and a worse loss.
# <!-- claim no_warmup_spike: above(peak_over_start(e3[2048, False].train_loss.mean(axis=0), 2), 4) -->
# <!-- claim no_warmup_dead: about(e3[2048, False].dead_fraction.mean(), 1 / 3, abs=0.05) & above(e3[2048, False].test_loss.mean(), e3[2048, True].test_loss.mean()) -->
#
# Warmup does not make the start smooth: the loss falls for three steps, then, as the rate keeps
# climbing towards 6.4, it rises to about twice its start by step 5 before it settles. That spike
# is far smaller than the one without warmup, no unit dies, and the run ends between the two:
# better than without warmup, still behind the baseline. At 4096 the same warmup is not enough
# (its loss ends worse than batch 2048's without warmup): warmup helps a large batch start, it
# cannot make every batch size work.
#
# <!-- claim warmup_dips_then_spikes: falls(e3[2048, True].train_loss.mean(axis=0), 3) & between(peak_over_start(e3[2048, True].train_loss.mean(axis=0), 8), 1.7, 2.5) & holds(int(np.argmax(e3[2048, True].train_loss.mean(axis=0)[:50])) == 5, "the peak is at step 5") -->
# <!-- claim warmup_smaller_spike: below(peak_over_start(e3[2048, True].train_loss.mean(axis=0), 50), peak_over_start(e3[2048, False].train_loss.mean(axis=0), 50)) & holds(e3[2048, True].dead_fraction.mean() == 0, "no dead unit with warmup") -->
# <!-- claim warmup_between: below(e3[2048, True].test_loss.mean(), e3[2048, False].test_loss.mean()) & above(e3[2048, True].test_loss.mean(), e3[32, False].test_loss.mean()) -->
# <!-- claim warmup_4096_not_enough: above(e3[4096, True].test_loss.mean(), e3[2048, False].test_loss.mean()) -->

# %% [markdown] lang="zh"
# 没有预热时，第二步就让损失变为原来的好几倍：最初那几个巨大的步子把许多隐藏层 ReLU 单元推到了再也不会被激活的区域（**死亡**单元，这里大约占三分之一），网络最后的容量变小，损失也更差。<!-- claim no_warmup_spike --><!-- claim no_warmup_dead -->
#
# 预热并不能让起步一帆风顺：损失先下降三步，然后随着学习率继续向 6.4 攀升，到第 5 步时升到起点的两倍左右，之后才稳定下来。这个尖峰比没有预热时小得多，也没有单元死亡，最终结果介于两者之间：比不预热好，但仍不及基准。在 4096 时，同样的预热就不够了（它最后的损失比不预热的批次 2048 还差）：预热能帮助大批次起步，却不能让每一种批次大小都行得通。<!-- claim warmup_dips_then_spikes --><!-- claim warmup_smaller_spike --><!-- claim warmup_between --><!-- claim warmup_4096_not_enough -->

# %% [markdown] lang="pt"
# Sem aquecimento, o segundo passo já multiplica a perda várias vezes: os primeiros passos enormes
# empurram muitas unidades ReLU ocultas para uma região onde elas nunca mais disparam (unidades
# **mortas**, um terço delas aqui), e a rede termina com menos capacidade e uma perda pior.
# <!-- claim no_warmup_spike --><!-- claim no_warmup_dead -->
#
# O aquecimento não deixa o começo suave: a perda cai por três passos e depois, enquanto a taxa
# continua subindo rumo a 6,4, sobe até cerca do dobro do valor inicial no passo 5, antes de se
# estabilizar. Esse pico é bem menor que o do treinamento sem aquecimento, nenhuma unidade morre, e
# o resultado fica entre os dois: melhor que sem aquecimento, ainda atrás da base. Com 4096 o mesmo
# aquecimento não basta (a perda final fica pior que a do lote 2048 sem aquecimento): ele ajuda um
# lote grande a começar, mas não faz todo tamanho de lote funcionar.
# <!-- claim warmup_dips_then_spikes --><!-- claim warmup_smaller_spike --><!-- claim warmup_between -->
# <!-- claim warmup_4096_not_enough -->

# %% [markdown] lang="en"
# ## 7. Time to target: where more GPUs stop paying
#
# Steps are not seconds. Keep 16 examples per replica and add GPUs (up to 64, on 8-GPU DGX A100
# nodes): the global batch grows, the steps follow the fitted curve of section 3 (1% target),
# and the simulator gives the time of one step: the replica's compute (counted from the FLOPs of
# a real step of this model on an A100, plus the launch cost of each op) and the all-reduce of
# the gradients on the machine's links.

# %% [markdown] lang="zh"
# ## 7. 达到目标的时间：增加 GPU 从哪里开始不再划算
#
# 步数不等于秒数。保持每个副本 16 个样本，不断增加 GPU（最多 64 个，分布在每台 8 个 GPU 的 DGX A100 节点上）：全局批次随之变大，步数沿着第 3 节拟合出的曲线（1% 目标）变化，而模拟器给出每一步的时间：副本的计算时间（由这个模型真实一步的 FLOP 数在 A100 上算出，加上每个操作的启动开销），再加上梯度在机器链路上做全归约的时间。

# %% [markdown] lang="pt"
# ## 7. Tempo até a meta: onde mais GPUs deixam de compensar
#
# Passos não são segundos. Mantenha 16 exemplos por réplica e acrescente GPUs (até 64, em nós DGX
# A100 de 8 GPUs): o lote global cresce, os passos seguem a curva ajustada da seção 3 (meta de
# 1%), e o simulador dá o tempo de um passo: a computação da réplica (contada a partir dos FLOPs de
# um passo real deste modelo em uma A100, mais o custo de lançamento de cada operação) e o
# all-reduce dos gradientes nos enlaces da máquina.

# %%
from sim.scaling.step_time import measure_step_cost, time_to_target

cost = measure_step_cost(lambda: tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(16,))]), 16)
result = time_to_target(e1.fit(1).steps, cost, 16, [1, 2, 4, 8, 16, 32, 64])

fig, ax = plt.subplots(figsize=(7, 4.2))
scaling_plots.time_vs_replicas(ax, result)
plt.show()

print(t("lesson08.time_header"))
for i, n in enumerate(result.replicas):
    print(t("lesson08.time_row", n=n, batch=result.global_batch[i], steps=result.steps[i],
            compute=result.compute_seconds[i] * 1e6, reduce=result.allreduce_seconds[i] * 1e6,
            ms=result.seconds[i] * 1e3, speedup=result.seconds[0] / result.seconds[i]))

# %% [markdown] lang="en"
# Two things bend the curve away from the ideal. Past `B_crit` (about 170 here) the steps barely
# fall, whatever the number of GPUs; and each step pays an all-reduce that grows with the
# replicas, above all once they span several nodes. From 32 to 64 GPUs the run gets only a few
# percent faster: those 32 extra GPUs are nearly wasted. For a larger model the compute per step
# is larger too, but the argument stays: beyond the critical batch, more replicas buy little.
# (The all-reduce here is timed from the links' latencies and bandwidths alone; NCCL's fixed cost
# per call, which lesson 02's model adds, would make it larger and the conclusion only stronger.)
# <!-- claim time_past_bcrit: about(e1.fit(1).b_crit, 170, rel=0.05) & between(result.seconds[5] / result.seconds[6], 1.0, 1.1) & holds(list(result.allreduce_seconds) == sorted(result.allreduce_seconds), "the all-reduce grows with the replicas") -->

# %% [markdown] lang="zh"
# 有两个因素让曲线偏离理想情况。超过 `B_crit`（这里约为 170）之后，无论用多少个 GPU，步数都几乎不再下降；而且每一步都要付出全归约的时间，它随副本数增长，在跨越多个节点之后尤其明显。从 32 个 GPU 增加到 64 个，训练耗时只缩短了百分之几：多出来的 32 个 GPU 几乎白费了。对于更大的模型，每一步的计算量也更大，但道理不变：超过临界批次大小之后，更多的副本带来的收益很少。（这里的全归约时间只按链路的延迟和带宽计算；第 02 课的模型还会加上 NCCL 每次调用的固定开销，那会让它更长，结论只会更强。）<!-- claim time_past_bcrit -->

# %% [markdown] lang="pt"
# Duas coisas afastam a curva do ideal. Acima de `B_crit` (cerca de 170 aqui) os passos quase não
# caem, seja qual for o número de GPUs; e cada passo inclui um all-reduce que cresce com as réplicas,
# sobretudo quando elas ocupam vários nós. De 32 para 64 GPUs o treinamento fica só alguns por cento
# mais rápido: essas 32 GPUs extras são quase desperdiçadas. Para um modelo maior a computação por
# passo também é maior, mas o raciocínio continua valendo: além do lote crítico, mais réplicas
# trazem pouco ganho. (O all-reduce aqui é cronometrado só pelas latências e larguras de banda dos
# enlaces; o custo fixo do NCCL por chamada, que o modelo da lição 02 acrescenta, o deixaria maior e
# a conclusão ainda mais forte.)
# <!-- claim time_past_bcrit -->

# %% [markdown] lang="en"
# ## 8. Classroom demo: a batch size and a rule
#
# Pick a global batch and a rule; the orange curve trains the regression of section 3 with the
# rate that rule gives (from batch 8 at 0.25, the grey curve), for 150 steps. The static figure
# shows six choices; the widget below it redraws one panel (run the notebook to use it).

# %% [markdown] lang="zh"
# ## 8. 课堂演示：一个批次大小和一条规则
#
# 选一个全局批次大小和一条规则；橙色曲线用这条规则给出的学习率（以批次 8、学习率 0.25 为基准，即灰色曲线）训练第 3 节的回归问题，共 150 步。静态图展示了六种选择；图下方的控件会重新绘制其中一幅（运行笔记本即可使用）。

# %% [markdown] lang="pt"
# ## 8. Demonstração para a sala de aula: um tamanho de lote e uma regra
#
# Escolha um lote global e uma regra; a curva laranja mostra a regressão da seção 3 treinada com a taxa que
# essa regra dá (a partir do lote 8 com 0,25, a curva cinza), por 150 passos. A figura estática
# mostra seis escolhas; o widget abaixo dela redesenha um painel (execute o notebook para usá-lo).

# %%
from sim.scaling.rule_demo import rule_curves

curves = {(batch, rule): rule_curves(batch, rule) for batch in (64, 512) for rule in ("none", "sqrt", "linear")}
fig, axes = plt.subplots(2, 3, figsize=(15, 8.5), sharey=True, layout="constrained")
for row, batch in zip(axes, (64, 512)):
    for ax, rule in zip(row, ("none", "sqrt", "linear")):
        scaling_plots.rule_demo(ax, curves[batch, rule])
plt.show()

# %% tags=["nbval-ignore-output"] slide="demo"
scaling_plots.rule_demo_widget()

# %% [markdown] lang="en"
# Here not scaling the rate wins: the same rate 0.25 on a bigger batch averages away more of the
# gradient noise, so at batch 64 the loss ends far below the base's (and lower still at 512). The
# linear rule's rate 2 at batch 64 sits on the stability limit: its loss never settles and ends
# higher than it was at step 10; at batch 512 (rate 16) it blows up within a few steps. The
# square-root rule converges at batch 64 (rate 0.71), but at 512 its rate is 2 and it climbs again
# by the end. Try batch 1024 with the square-root rule: it diverges. On this problem a bigger
# batch needs no bigger rate; the rule to scale by is the one the stability limit allows.
# <!-- claim demo_none_wins: below(curves[64, "none"].scaled[-1], curves[64, "none"].base[-1], by=0.5) & below(curves[512, "none"].scaled[-1], curves[64, "none"].scaled[-1]) & below(curves[64, "none"].scaled[-1], curves[64, "sqrt"].scaled[-1]) -->
# <!-- claim demo_linear_edge: holds(curves[64, "linear"].diverged_at is None, "batch 64 linear does not diverge") & above(curves[64, "linear"].scaled[-1], curves[64, "linear"].scaled[10]) & holds(curves[512, "linear"].diverged_at is not None and curves[512, "linear"].diverged_at < 10, "batch 512 linear blows up within 10 steps") -->
# <!-- claim demo_sqrt: below(curves[64, "sqrt"].scaled[-1], curves[64, "sqrt"].base[-1]) & above(curves[512, "sqrt"].scaled[-1], curves[512, "sqrt"].scaled[50]) & holds(rule_curves(1024, "sqrt").diverged_at is not None, "batch 1024 sqrt diverges") -->
#
# ## Summary
#
# - Global batch = per-replica batch × `num_replicas_in_sync`; a bigger global batch needs a new
#   learning rate, and the guide's table is one model's answer, not a rule.
# - Linear scaling works while the batch is below the critical batch size and the rate below the
#   stability limit; warm up when the scaled rate is large; beyond `B_crit` neither rule helps.
# - The noise scale, measured from per-replica and all-reduced gradients, estimates where
#   `B_crit` lies; past it, more GPUs buy little time.
#
# Exercises 08a and 08b ask you to compute a cluster's global batch and scaled rate under each rule,
# and to estimate the critical batch size from measured gradient norms.

# %% [markdown] lang="zh"
# 在这里，不缩放学习率反而最好：同样的学习率 0.25 配上更大的批次，能平均掉更多的梯度噪声，所以在批次 64 时，损失最后远低于基准（批次 512 时还要更低）。线性规则在批次 64 时的学习率 2 正好处在稳定性上限上：损失始终稳定不下来，最后比第 10 步时还高；在批次 512（学习率 16）时，几步之内就发散了。平方根规则在批次 64（学习率 0.71）时能收敛，但在 512 时学习率为 2，到最后损失又升了上去。试试批次 1024 配平方根规则：它会发散。在这个问题上，更大的批次并不需要更大的学习率；该按哪条规则缩放，要看稳定性上限允许什么。<!-- claim demo_none_wins --><!-- claim demo_linear_edge --><!-- claim demo_sqrt -->
#
# ## 小结
#
# - 全局批次 = 每个副本的批次 × `num_replicas_in_sync`；更大的全局批次需要新的学习率，而指南中的表格只是某一个模型的答案，不是规则。
# - 在批次小于临界批次大小、学习率低于稳定性上限时，线性缩放有效；缩放后的学习率很大时要预热；超过 `B_crit` 之后，哪条规则都帮不上忙。
# - 由每个副本的梯度和全归约之后的梯度测得的噪声尺度，可以估计 `B_crit` 的位置；超过它以后，更多的 GPU 节省不了多少时间。
#
# 练习 08a 和 08b 要求你为一个给定的集群计算各条规则下的全局批次大小和缩放后的学习率，并根据测得的梯度范数估计临界批次大小。

# %% [markdown] lang="pt"
# Aqui não escalonar a taxa é o que dá certo: a mesma taxa 0,25 com um lote maior elimina, pela
# média, mais ruído do gradiente, então com o lote 64 a perda termina bem abaixo da base (e mais baixa
# ainda com 512). A taxa 2 da regra linear com o lote 64 fica no limite de estabilidade: a perda
# nunca se estabiliza e termina mais alta do que estava no passo 10; com o lote 512 (taxa 16) ela
# explode em poucos passos. A regra da raiz quadrada converge com o lote 64 (taxa 0,71), mas com 512
# a taxa é 2 e a perda volta a subir no fim. Experimente o lote 1024 com a regra da raiz quadrada: o
# treinamento diverge. Neste problema, um lote maior não pede uma taxa maior; a regra a seguir é a
# que o limite de estabilidade permite.
# <!-- claim demo_none_wins --><!-- claim demo_linear_edge --><!-- claim demo_sqrt -->
#
# ## Resumo
#
# - Lote global = lote por réplica × `num_replicas_in_sync`; um lote global maior pede uma nova
#   taxa de aprendizado, e a tabela do guia é a resposta de um modelo, não uma regra.
# - O escalonamento linear funciona enquanto o lote está abaixo do tamanho crítico e a taxa abaixo
#   do limite de estabilidade; use aquecimento quando a taxa escalonada for grande; além do `B_crit`
#   nenhuma regra ajuda.
# - A escala de ruído, medida a partir dos gradientes por réplica e após o all-reduce, estima onde
#   fica o `B_crit`; depois dele, mais GPUs economizam pouco tempo.
#
# Os exercícios 08a e 08b pedem que você calcule o lote global e a taxa escalonada de um cluster sob cada regra
# e estime o tamanho crítico do lote a partir de normas de gradiente medidas.
