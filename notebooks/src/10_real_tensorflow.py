# %% [markdown] lang="en"
# # 10 · From the simulator to real TensorFlow
#
# Every lesson so far ran `import sim.tf as tf`: TensorFlow's API on simulated hardware. Sooner or
# later you will want the real thing, on real machines. This lesson hands you over:
#
# 1. the same training code on both engines, with one import changed, the numbers side by side;
# 2. a `MultiWorkerMirroredStrategy` training script from the documents this course follows, as
#    two real TensorFlow worker processes, started by the course launcher, next to the simulator's prediction of the same run;
# 3. what to change to run it on real machines;
# 4. what the simulator does not model.
#
# TensorFlow is large, so the course's own environment does not include it. If it is not
# installed, the lesson shows a run recorded with TensorFlow 2.21 and tells you how to install it;
# if it is, the same cells run it live. The first cell tells you which case you are in.

# %% [markdown] lang="zh"
# # 10 · 从模拟器到真正的 TensorFlow
#
# 到目前为止，每一课用的都是 `import sim.tf as tf`：在模拟硬件上运行的 TensorFlow API。迟早你会想在真正的机器上运行真正的 TensorFlow。本课就带你完成这一步：
#
# 1. 同一段训练代码在两个引擎上运行，只改一行 import，把结果并排比较；
# 2. 把本课程所依据的文档中一个使用 `MultiWorkerMirroredStrategy` 的训练脚本作为两个真正的 TensorFlow 工作进程运行（由课程的启动器启动），并与模拟器对同一次运行的预测并排比较；
# 3. 要在真正的多台机器上运行，需要改哪些地方；
# 4. 模拟器没有模拟哪些东西。
#
# TensorFlow 体积很大，所以课程自己的环境里没有安装它。如果没有安装，本课会显示一次用 TensorFlow 2.21 记录下来的运行结果，并告诉你如何安装；如果已经安装，同样的单元格会实际运行它。第一个单元格会告诉你属于哪种情况。

# %% [markdown] lang="pt"
# # 10 · Do simulador ao TensorFlow de verdade
#
# Até aqui, todas as lições usaram `import sim.tf as tf`: a API do TensorFlow em hardware simulado.
# Cedo ou tarde você vai querer o TensorFlow de verdade, em máquinas de verdade. Esta lição faz
# essa passagem:
#
# 1. o mesmo código de treinamento nos dois engines, com um único import trocado, e os números
#    lado a lado;
# 2. um script de treinamento com `MultiWorkerMirroredStrategy`, tirado dos documentos que o curso
#    segue, rodando como dois processos worker do TensorFlow de verdade, iniciados pelo launcher do curso, ao lado da previsão do
#    simulador para a mesma execução;
# 3. o que mudar para executá-lo em máquinas de verdade;
# 4. o que o simulador não modela.
#
# O TensorFlow é grande, por isso o ambiente do curso não o inclui. Se ele não estiver instalado, a
# lição mostra uma execução gravada com o TensorFlow 2.21 e explica como instalá-lo; se estiver, as
# mesmas células o executam de verdade. A primeira célula diz em qual dos dois casos você está.

# %% tags=["nbval-ignore-output"]
import difflib

from sim.course import two_engines
from sim.i18n import t

python_tf = two_engines.tensorflow_python()        # a Python with TensorFlow, or None
if python_tf:
    print(t("lesson10.found", **two_engines.tensorflow_versions(python_tf)))
else:
    print(t("lesson10.not_found"))

# %% [markdown] lang="en"
# The recorded run says what produced it (the table's numbers below are the same either way):

# %% [markdown] lang="zh"
# 记录的运行结果注明了它的来源（无论哪种情况，下面表格中的数字都一样）：

# %% [markdown] lang="pt"
# A execução gravada diz o que a produziu (os números das tabelas abaixo são os mesmos nos dois
# casos):

# %%
record = two_engines.load_record()
print(t("lesson10.record", **record["provenance"]))

# %% [markdown] lang="en"
# ## 1. One import changed
#
# Here is a small Keras regression. Everything random in it is drawn by NumPy from a fixed seed,
# its initial weights included (`set_weights`), and `fit` does not shuffle, so both engines start
# from the same point and see the same batches. The only difference between the two scripts is
# the import line:

# %% [markdown] lang="zh"
# ## 1. 只改一行 import
#
# 下面是一个小型的 Keras 回归模型。其中所有随机的东西都由 NumPy 按固定的种子生成，初始权重也不例外（用 `set_weights` 设置），`fit` 也不打乱数据，所以两个引擎从同一个起点出发，看到的批次也完全相同。两个脚本唯一的区别是 import 那一行：

# %% [markdown] lang="pt"
# ## 1. Um único import trocado
#
# Aqui está uma pequena regressão em Keras. Tudo o que há de aleatório nela é sorteado pelo NumPy a
# partir de uma semente fixa, inclusive os pesos iniciais (`set_weights`), e o `fit` não embaralha
# os dados; assim, os dois engines partem do mesmo ponto e veem os mesmos lotes. A única diferença
# entre os dois scripts é a linha do import:

# %%
print(two_engines.ONE_IMPORT_SCRIPT)
for line in difflib.unified_diff(two_engines.ONE_IMPORT_SCRIPT.splitlines(),
                                 two_engines.ONE_IMPORT_SCRIPT.replace(two_engines.SIM_IMPORT,
                                                                       two_engines.TF_IMPORT).splitlines(),
                                 "train_sim.py", "train_tf.py", n=0, lineterm=""):
    print(line)

# %% [markdown] lang="en"
# Each script runs as its own `python train.py`: the simulator's here, TensorFlow's under the
# Python that has it (or, without TensorFlow, its recorded losses). The loss of each epoch:

# %% [markdown] lang="zh"
# 每个脚本都作为独立的 `python train.py` 运行：模拟器版本在这里运行，TensorFlow 版本在装有 TensorFlow 的 Python 下运行（没有 TensorFlow 时，使用记录下来的损失）。每个周期的损失如下：

# %% [markdown] lang="pt"
# Cada script roda como um `python train.py` próprio: o do simulador aqui, o do TensorFlow no Python em que ele está instalado (ou, sem TensorFlow, as perdas gravadas). A perda de cada época:

# %%
one_sim = two_engines.run_one_import("sim")
one_tf = (two_engines.run_one_import("tensorflow", python_tf) if python_tf
          else record["one_import"]["tensorflow"])
print(t("lesson10.one_header"))
for epoch, a, b, diff in two_engines.side_by_side(one_sim["loss"], one_tf["loss"], digits=6):
    print(t("lesson10.one_row", epoch=epoch, sim=a, tf=b, diff=two_engines.difference(diff)))

# %% [markdown] lang="en"
# The two columns agree to six decimals; what differs is a few units in the last place of a
# float32 (about $10^{-7}$ of the value): the two engines add up the same products in different
# orders, and float32 rounding depends on the order. So does the CPU: its BLAS picks the order by
# the vector instructions it has, and the same run gives other last bits on another computer. The
# column therefore prints a difference that small as `< 1e-6`, a bound every computer shares. That
# is the agreement to expect from any two correct implementations, and it is what `make test-tf`
# checks at every change of the course.
#
# ## 2. MultiWorkerMirroredStrategy for real: two worker processes
#
# The chapter on `MultiWorkerMirroredStrategy` and `TF_CONFIG` among the documents this course
# follows ends with an MNIST example: a small convolutional network trained with `Model.fit`. The
# course keeps it unedited except that its imports name `sim.tf`
# (`tests/seed_scripts/seed002_mwms_mnist.py`). The launcher runs it on either engine, each worker a
# process of its own with the `TF_CONFIG` the launcher wrote for it (addresses on this computer,
# `127.0.0.1`, on free ports):
#
# ```
# python -m sim launch --workers 2 --gpus-per-worker 1 seed002_mwms_mnist.py
# python -m sim launch --workers 2 --engine tensorflow --python .venv-tf/bin/python seed002_mwms_mnist.py
# ```
#
# With `--engine tensorflow` each task's `import sim.tf as tf` gives `tensorflow` itself
# (`sim/launch/tf_alias.py`): the script is not touched. The two runs would still differ,
# because the script draws its initial weights and its shuffle order at random, and
# `mnist.load_data()` downloads MNIST. `SIM_SAME_START=start.npz` gives both engines the same
# start, and says exactly what it changes (`sim/launch/same_start.py`): `load_data()` returns the
# course's MNIST subset (`SIM_SAME_START_SAMPLES=512` keeps its first 512 digits, so the 3 epochs
# are 12 steps of 128), `Dataset.shuffle` keeps the order, and `Model.fit` starts from the weights
# in `start.npz`, which the first run (here, the simulated one) writes. Model, optimizer, batching
# and strategy stay the script's own.

# %% [markdown] lang="zh"
# 两列结果在小数点后六位都一致；差别只在 float32 的最后几位（约为数值的 $10^{-7}$）：两个引擎以不同的顺序把同样的乘积加起来，而 float32 的舍入结果取决于相加的顺序。CPU 也会影响这个顺序：它的 BLAS 按照 CPU 支持的向量指令选择相加顺序，同一次运行换一台计算机，最后几位就会不同。所以这一列把这么小的差值显示为 `< 1e-6`，这是每台计算机都满足的上界。任何两个正确的实现之间都只能期望这样的一致程度，`make test-tf` 在课程每次改动时检查的也正是这一点。
#
# ## 2. 真正的 MultiWorkerMirroredStrategy：两个工作进程
#
# 本课程所依据的文档中，介绍 `MultiWorkerMirroredStrategy` 和 `TF_CONFIG` 的那一章以一个 MNIST 示例结尾：用 `Model.fit` 训练一个小型卷积网络。课程原样保留了这个脚本，只是 import 写的是 `sim.tf`（`tests/seed_scripts/seed002_mwms_mnist.py`）。启动器可以在任一引擎上运行它，每个工作进程都是一个独立的进程，带着启动器为它生成的 `TF_CONFIG`（地址都在本机 `127.0.0.1` 上，使用空闲端口）：
#
# ```
# python -m sim launch --workers 2 --gpus-per-worker 1 seed002_mwms_mnist.py
# python -m sim launch --workers 2 --engine tensorflow --python .venv-tf/bin/python seed002_mwms_mnist.py
# ```
#
# 使用 `--engine tensorflow` 时，每个任务中的 `import sim.tf as tf` 得到的就是 `tensorflow` 本身（`sim/launch/tf_alias.py`）：脚本本身不做任何修改。但这两次运行仍然会不同，因为脚本随机生成初始权重和打乱顺序，而且 `mnist.load_data()` 会下载 MNIST。`SIM_SAME_START=start.npz` 让两个引擎从相同的起点出发，并且明确说明它改变了什么（`sim/launch/same_start.py`）：`load_data()` 返回课程自带的 MNIST 子集（`SIM_SAME_START_SAMPLES=512` 只保留前 512 张图像，这样 3 个周期就是 12 个批次大小为 128 的训练步），`Dataset.shuffle` 保持原有顺序，`Model.fit` 从 `start.npz` 中的权重开始训练，这个文件由第一次运行（这里是模拟的那次）写出。模型、优化器、分批方式和策略都保持脚本原样。

# %% [markdown] lang="pt"
# As duas colunas concordam até a sexta casa decimal; o que muda são algumas unidades na última
# casa de um float32 (cerca de $10^{-7}$ do valor): os dois engines somam os mesmos produtos em
# ordens diferentes, e o arredondamento do float32 depende da ordem. A CPU também muda essa ordem:
# a BLAS a escolhe conforme as instruções vetoriais que a CPU tem, e a mesma execução dá outros
# últimos bits em outro computador. Por isso a coluna mostra uma diferença tão pequena como
# `< 1e-6`, um limite que vale em todo computador. É essa a concordância que se
# pode esperar de duas implementações corretas, e é isso que o `make test-tf` verifica a cada
# mudança no curso.
#
# ## 2. MultiWorkerMirroredStrategy de verdade: dois processos worker
#
# Entre os documentos que o curso segue, o capítulo sobre `MultiWorkerMirroredStrategy` e
# `TF_CONFIG` termina com um exemplo com o MNIST: uma pequena rede convolucional treinada com
# `Model.fit`. O curso mantém esse script sem edições, exceto pelos imports, que importam `sim.tf`
# (`tests/seed_scripts/seed002_mwms_mnist.py`). O launcher o executa em qualquer um dos
# engines, cada worker em um processo próprio com o `TF_CONFIG` que o launcher escreveu para
# ele (endereços neste computador, `127.0.0.1`, em portas livres):
#
# ```
# python -m sim launch --workers 2 --gpus-per-worker 1 seed002_mwms_mnist.py
# python -m sim launch --workers 2 --engine tensorflow --python .venv-tf/bin/python seed002_mwms_mnist.py
# ```
#
# Com `--engine tensorflow`, o `import sim.tf as tf` de cada tarefa entrega o próprio `tensorflow`
# (`sim/launch/tf_alias.py`): o script não é tocado. Mesmo assim, as duas execuções seriam
# diferentes, porque o script sorteia os pesos iniciais e a ordem do embaralhamento, e o
# `mnist.load_data()` baixa o MNIST. `SIM_SAME_START=start.npz` dá aos dois engines o mesmo ponto de
# partida e diz exatamente o que muda (`sim/launch/same_start.py`): o `load_data()` devolve o
# subconjunto do MNIST que vem com o curso (`SIM_SAME_START_SAMPLES=512` fica com os 512 primeiros
# dígitos, e as 3 épocas viram 12 passos de 128), o `Dataset.shuffle` mantém a ordem e o
# `Model.fit` parte dos pesos em `start.npz`, que a primeira execução (aqui, a simulada) grava.
# Modelo, otimizador, divisão em lotes e estratégia continuam sendo os do script.

# %%
import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as work:
    start = Path(work) / "start.npz"
    seed_sim = two_engines.run_seed("sim", start)                  # writes start.npz
    seed_tf = (two_engines.run_seed("tensorflow", start, python_tf) if python_tf
               else record["seed_mwms"]["tensorflow"])
print(t("lesson10.seed_header"))
for (epoch, sim_loss, tf_loss, _), (_, sim_acc, tf_acc, _) in zip(
        two_engines.side_by_side(seed_sim["loss"], seed_tf["loss"]),
        two_engines.side_by_side(seed_sim["accuracy"], seed_tf["accuracy"])):
    print(t("lesson10.seed_row", epoch=epoch, sim_loss=sim_loss, tf_loss=tf_loss, sim_acc=sim_acc, tf_acc=tf_acc))
print(t("lesson10.seed_worst",
        loss=two_engines.difference(max(abs(a - b) / b for a, b in zip(seed_sim["loss"], seed_tf["loss"]))),
        acc=max(abs(a - b) for a, b in zip(seed_sim["accuracy"], seed_tf["accuracy"]))))
steps = 3 * two_engines.SEED_SAMPLES // 128
print(t("lesson10.sim_time", steps=steps, ms=seed_sim["simulated_seconds"] * 1e3,
        us=seed_sim["simulated_seconds"] / steps * 1e6))

# %% [markdown] lang="en"
# Two processes of real TensorFlow, joined by its own gRPC and collective all-reduce, and two
# processes of the simulator, joined by the course's fabric, end the 3 epochs with the same
# accuracy and a loss equal to five significant digits (the rounding of a dozen float32 steps).
# The last line is the other half of the simulator's prediction: how long the 12 steps would take
# on the hardware it models (here a simulated GPU per worker). The real run on this computer used one CPU per worker, so its
# wall-clock time says nothing about that prediction; to check the time, run on the hardware the
# simulator describes.

# %% [markdown] lang="zh"
# 两个真正的 TensorFlow 进程（通过 TensorFlow 自己的 gRPC 和集合通信（全归约）相连）和两个模拟器进程（通过课程模拟的互连网络相连）在 3 个周期结束时准确率相同，损失在五位有效数字上一致（十几个 float32 训练步累积的舍入误差）。最后一行是模拟器预测的另一半：这 12 步在它所模拟的硬件（这里每个工作进程有一个模拟 GPU）上需要多长时间。本机上那次真正的运行中，每个工作进程只用了一个 CPU，所以它实际耗费的时间与这个预测无关；要检验时间，就得在模拟器所描述的硬件上运行。

# %% [markdown] lang="pt"
# Dois processos do TensorFlow de verdade, ligados pelo gRPC e pelo all-reduce coletivo do próprio
# TensorFlow, e dois processos do simulador, ligados pela malha de comunicação do curso, terminam as
# 3 épocas com a mesma acurácia e uma perda igual até o quinto algarismo significativo (o
# arredondamento de uma dúzia de passos em float32). A última linha é a outra metade da previsão do
# simulador: quanto tempo os 12 passos levariam no hardware que ele modela (aqui, uma GPU simulada
# por worker). A execução real neste computador
# usou uma CPU por worker, então o tempo de relógio dela não diz nada sobre essa previsão; para
# conferir o tempo, execute no hardware que o simulador descreve.

# %% [markdown] lang="en"
# **For the classroom: both engines on one figure.** Pick a run: the curves of sim.tf (blue
# dots) and TensorFlow (the wide orange line) lie on top of each other; the right panel shows how
# far apart they are, next to float32's rounding step. The figure below the menu is the same
# picture for the first run, for readers without a kernel.

# %% [markdown] lang="zh"
# **课堂演示：两个引擎画在同一张图上。** 选一次运行：sim.tf 的曲线（蓝色圆点）和 TensorFlow 的曲线（较宽的橙色线）重合在一起；右图给出两者相差多少，并与 float32 的舍入步长对比。菜单下方的静态图是第一次运行的同一张图，供没有内核的读者查看。

# %% [markdown] lang="pt"
# **Para a sala de aula: os dois engines em uma só figura.** Escolha uma execução: as curvas do
# sim.tf (pontos azuis) e do TensorFlow (a linha laranja larga) ficam uma sobre a outra; o painel
# da direita mostra quão distantes elas estão, ao lado do passo de arredondamento do float32. A
# figura abaixo do menu é a mesma imagem para a primeira execução, para quem lê sem um kernel.

# %% tags=["nbval-ignore-output"] slide="demo"
import matplotlib.pyplot as plt
from sim.course.plots import engines

runs = engines.series(one_sim, one_tf, seed_sim, seed_tf)
engines.widget(runs)

# %% slide="figure"
engines.draw(plt.figure(figsize=engines.FIGSIZE, layout="constrained"), runs, "one_loss")
plt.show()

# %% [markdown] lang="en"
# ## 3. On real machines
#
# The script does not change. What changes is where its processes run and what their
# `TF_CONFIG` says:
#
# - **one process per machine**: on each machine, one worker task, which uses all of that
#   machine's GPUs as its replicas (the launcher's `--gpus-per-worker` played that part);
# - **real addresses in `TF_CONFIG`**: the `"cluster"` part lists every machine's `host:port`
#   and is the same everywhere; `"task"` gives each machine its own index. Lesson 06's
#   `sim.launch.tf_configs` writes them for you;
# - **TensorFlow installed on every machine**, the same version, and `import tensorflow as tf`
#   (or start the script under `python -m sim.launch.tf_task`, which keeps `import sim.tf`);
# - the ports open between the machines, and the data (or a path all of them can read) on each;
# - start every task: the workers wait for one another when the strategy is created.

# %% [markdown] lang="zh"
# ## 3. 在真正的多台机器上
#
# 脚本不用改。要改的是它的进程在哪里运行，以及各自的 `TF_CONFIG` 写了什么：
#
# - **每台机器一个进程**：每台机器上运行一个工作进程任务，它把这台机器上所有的 GPU 都用作副本（在启动器中，扮演这一角色的是 `--gpus-per-worker`）；
# - **`TF_CONFIG` 里写真实地址**：`"cluster"` 部分列出每台机器的 `host:port`，在所有机器上都相同；`"task"` 给每台机器各自的索引。第 06 课的 `sim.launch.tf_configs` 可以替你生成它们；
# - **每台机器上都安装 TensorFlow**，版本相同，并使用 `import tensorflow as tf`（或者用 `python -m sim.launch.tf_task` 启动脚本，这样可以保留 `import sim.tf`）；
# - 机器之间的端口要开放，每台机器上都要有数据（或者有一个所有机器都能读取的路径）；
# - 启动每一个任务：创建策略时，工作进程会互相等待。

# %% [markdown] lang="pt"
# ## 3. Em máquinas de verdade
#
# O script não muda. O que muda é onde os processos rodam e o que diz o `TF_CONFIG` de cada um:
#
# - **um processo por máquina**: em cada máquina, uma tarefa worker, que usa todas as GPUs da
#   máquina como réplicas (no launcher, quem fazia esse papel era o `--gpus-per-worker`);
# - **endereços reais no `TF_CONFIG`**: a parte `"cluster"` lista o `host:porta` de cada máquina e é
#   igual em todas; `"task"` dá a cada máquina o seu próprio índice. O `sim.launch.tf_configs` da lição 06 os
#   escreve para você;
# - **o TensorFlow instalado em todas as máquinas**, na mesma versão, e `import tensorflow as tf`
#   (ou inicie o script com `python -m sim.launch.tf_task`, que mantém o `import sim.tf`);
# - as portas abertas entre as máquinas, e os dados (ou um caminho que todas consigam ler) em cada
#   uma;
# - inicie todas as tarefas: os workers esperam uns pelos outros quando a estratégia é criada.

# %%
from sim.launch import tf_configs

cluster = tf_configs.describe(["10.1.10.58", "10.1.10.250"])
tf_configs.print_commands(cluster, "seed002_mwms_mnist.py")

# %% [markdown] lang="en"
# ## 4. What the simulator does not model
#
# The simulator reproduces TensorFlow's API and numbers and predicts time from models of the
# hardware; it stops there. It does not model:
#
# - **the speed of real kernels**: a step's compute time comes from FLOPs and bytes over a
#   device's peak rates (lesson 09's model mode uses a published fraction of the peak instead),
#   not from cuDNN's choice of algorithm or caches; each op pays one fixed
#   launch cost (a few microseconds, set per device type), not a measured one;
# - **memory exactly**: the simulator counts weights, optimizer slots, the tensors kept for the
#   backward pass and the gradients, and raises TensorFlow's out-of-memory error past a device's
#   size, but not the allocator's fragmentation, cuDNN's workspaces or the framework's own
#   buffers, so a real GPU fills up sooner;
# - **the real network stack**: gRPC, TCP and its retransmissions, other traffic on the same
#   links, firewalls and time-outs; a simulated link is its latency, its bandwidth and the
#   overheads its protocol adds (TCP headers, each message's cost at both ends), nothing more;
# - **the operating system**: other processes, noisy neighbours, preemption and failing disks
#   (a failure happens only where you inject it, as in lesson 06);
# - **TensorFlow's graph machinery**: the graph itself (a `tf.function` traces by TensorFlow's
#   rules, once per kind of call, but every call then runs in NumPy), Grappler and XLA
#   optimisations, and the input pipeline's parallel threads;
# - **nondeterminism of real GPUs**: with some kernels real runs differ from one another in the
#   last bits; the simulator is deterministic;
# - **APIs outside the course's subset**, which raise `NotImplementedError` naming what to use.
#
# The numbers of a correct script agree with TensorFlow's to float32 rounding; where TensorFlow
# refuses a script (Keras 3's `fit` on an unevenly split first batch, lesson 04; `.values` of a
# CentralStorage variable, lesson 05) the simulator raises the same error. Its times are a
# prediction to check on the real machines.
#
# ## What to remember
#
# - The same script runs on both engines: `import sim.tf as tf` becomes `import tensorflow as tf`,
#   or the launcher's `--engine tensorflow` makes the swap for you.
# - From the same start (weights, data order), the engines agree to float32 rounding: about
#   $10^{-7}$ relative per value, at most a few $10^{-6}$ after a dozen training steps.
#   <!-- claim engines_agree: below(max(abs(a - b) / b for a, b in zip(seed_sim["loss"], seed_tf["loss"])), 5e-6) & holds(max(abs(a - b) for a, b in zip(seed_sim["accuracy"], seed_tf["accuracy"])) < 1e-3, "same accuracy") -->
# - On real machines: one process per machine, their addresses in `TF_CONFIG`, the same script
#   everywhere.
# - The simulator predicts time and memory from models of the hardware; real kernels, allocators,
#   network stack and operating system are the real machines' to tell.

# %% [markdown] lang="zh"
# ## 4. 模拟器没有模拟的东西
#
# 模拟器重现 TensorFlow 的 API 和数值结果，并根据硬件模型预测时间；仅此而已。它没有模拟：
#
# - **真实内核的速度**：一步的计算时间由 FLOP 数和字节数除以设备的峰值速率得出（第 09 课的模型模式则用已发表基准测得的峰值比例），而不是取决于 cuDNN 选用的算法或缓存；每个操作付出的启动开销是一个固定值（几微秒，按设备类型设定），而不是测量得到的；
# - **精确的内存占用**：模拟器会统计权重、优化器的槽变量、为反向传播保留的张量和梯度，超出设备容量时引发 TensorFlow 的内存不足错误；但它不统计分配器的碎片、cuDNN 的工作区和框架自身的缓冲区，所以真实 GPU 会更早被占满；
# - **真实的网络协议栈**：gRPC、TCP 及其重传、同一链路上的其他流量、防火墙和超时；模拟的链路只有延迟、带宽，以及按协议算出的开销（TCP 协议头、每条消息在两端的开销），别无其他；
# - **操作系统**：其他进程、争抢资源的邻居、抢占以及磁盘故障（只有在你主动注入时才会出故障，就像第 06 课那样）；
# - **TensorFlow 的计算图机制**：计算图本身（`tf.function` 按 TensorFlow 的规则追踪，每类调用追踪一次，但之后每次调用仍由 NumPy 执行）、Grappler 和 XLA 优化，以及输入流水线的并行线程；
# - **真实 GPU 的不确定性**：使用某些内核时，真实的多次运行之间在最后几位上会有差别；模拟器则是确定的；
# - **课程子集之外的 API**：它们会引发 `NotImplementedError`，并说明应该改用什么。
#
# 一个正确的脚本，其数值结果与 TensorFlow 的结果在 float32 舍入误差范围内一致；凡是 TensorFlow 拒绝的脚本（第一个批次切分不均匀的 Keras 3 `fit`，见第 04 课；CentralStorage 变量的 `.values`，见第 05 课），模拟器也会抛出同样的错误。它的时间则是一个预测，需要在真正的机器上检验。
#
# ## 小结
#
# - 同一个脚本可以在两个引擎上运行：把 `import sim.tf as tf` 改成 `import tensorflow as tf`，或者让启动器的 `--engine tensorflow` 替你完成替换。
# - 从相同的起点（权重、数据顺序）出发，两个引擎在 float32 舍入误差范围内一致：每个数值的相对差约为 $10^{-7}$，十几个训练步之后最多为几个 $10^{-6}$。<!-- claim engines_agree -->
# - 在真正的多台机器上：每台机器一个进程，各台机器的地址写进 `TF_CONFIG`，所有机器运行同一个脚本。
# - 模拟器根据硬件模型预测时间和内存；真实的内核、内存分配器、网络协议栈和操作系统的影响，要由真正的机器来回答。

# %% [markdown] lang="pt"
# ## 4. O que o simulador não modela
#
# O simulador reproduz a API e os números do TensorFlow e prevê o tempo a partir de modelos do
# hardware; e não vai além disso. Ele não modela:
#
# - **a velocidade dos kernels reais**: o tempo de cálculo de um passo vem dos FLOPs e dos bytes
#   divididos pelas taxas de pico do dispositivo (o modo modelo da lição 09 usa, em vez disso, uma
#   fração do pico publicada), e não do algoritmo que o cuDNN escolhe nem dos
#   caches; cada operação paga um custo fixo de lançamento (alguns microssegundos, definidos por
#   tipo de dispositivo), e não um custo medido;
# - **a memória com exatidão**: o simulador conta os pesos, os slots do otimizador, os tensores
#   guardados para a retropropagação e os gradientes, e lança o erro de falta de memória do
#   TensorFlow quando eles excedem a memória do dispositivo; mas não conta a fragmentação do alocador,
#   as áreas de trabalho do cuDNN nem os buffers do próprio framework, então uma GPU real enche
#   antes;
# - **a pilha de rede real**: gRPC, o TCP e suas retransmissões, outros tráfegos nos mesmos
#   enlaces, firewalls e timeouts; um enlace simulado é a sua latência, a sua largura de banda e os
#   custos que o seu protocolo acrescenta (cabeçalhos TCP, o custo de cada mensagem nas duas
#   pontas), e nada mais;
# - **o sistema operacional**: outros processos, interferência de outras cargas no mesmo host (os
#   *noisy neighbors*), preempção e discos com falha
#   (uma falha só acontece onde você a injeta, como na lição 06);
# - **a maquinaria de grafos do TensorFlow**: o próprio grafo (um `tf.function` faz o tracing
#   pelas regras do TensorFlow, uma vez por tipo de chamada, mas depois cada chamada roda em
#   NumPy), as otimizações do Grappler e do XLA e as threads paralelas do pipeline de entrada;
# - **o não determinismo das GPUs reais**: com alguns kernels, execuções reais diferem entre si nos
#   últimos bits; o simulador é determinístico;
# - **APIs fora do subconjunto do curso**, que lançam `NotImplementedError` dizendo o que usar.
#
# Os números de um script correto concordam com os do TensorFlow a menos do arredondamento do
# float32; onde o TensorFlow recusa um script (o `fit` do Keras 3 com um primeiro lote dividido de
# forma desigual, lição 04; o `.values` de uma variável da CentralStorage, lição 05), o simulador
# gera o mesmo erro. Os tempos são uma previsão a conferir nas máquinas reais.
#
# ## Resumo
#
# - O mesmo script roda nos dois engines: `import sim.tf as tf` vira `import tensorflow as tf`,
#   ou o `--engine tensorflow` do launcher faz a troca por você.
# - A partir do mesmo ponto de partida (pesos, ordem dos dados), os engines concordam a menos do
#   arredondamento do float32: cerca de $10^{-7}$ relativo por valor, no máximo alguns $10^{-6}$ depois
#   de uma dúzia de passos de treinamento. <!-- claim engines_agree -->
# - Em máquinas de verdade: um processo por máquina, os endereços delas no `TF_CONFIG`, o mesmo
#   script em todas.
# - O simulador prevê tempo e memória a partir de modelos do hardware; o efeito dos kernels, dos
#   alocadores, da pilha de rede e do sistema operacional reais, só as máquinas reais podem dizer.
