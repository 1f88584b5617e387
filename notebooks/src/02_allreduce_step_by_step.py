# %% [markdown] lang="en"
# # 02 · All-reduce, step by step
#
# After every step of synchronous data-parallel training each replica holds its own gradient,
# and every replica needs the **sum**. That operation is the all-reduce. In this lesson each
# algorithm is written once, as a *schedule* (rounds of "device A sends this chunk to device B,
# who adds it or copies it"), and used twice: NumPy runs it on real arrays (the result must be
# the exact sum) and the simulator replays it on a machine (the time).

# %% [markdown] lang="zh"
# # 02 · 一步一步看全归约
#
# 在同步数据并行训练中，每一步结束时每个副本都持有自己的梯度，而每个副本都需要它们的**总和**。这个操作就是全归约（all-reduce）。本课中的每个算法只写一次，写成一个*调度*（若干轮“设备 A 把这个数据块发给设备 B，B 把它加上或复制下来”），然后用两次：NumPy 在真实数组上执行它（结果必须恰好是总和），模拟器在一台机器上重放它（得到时间）。

# %% [markdown] lang="pt"
# # 02 · All-reduce, passo a passo
#
# Ao fim de cada passo do treinamento síncrono com paralelismo de dados, cada réplica tem o seu
# gradiente, e todas precisam da **soma**. Essa operação é o all-reduce. Nesta lição cada algoritmo
# é escrito uma vez, como um *cronograma* (rodadas de "o dispositivo A envia este bloco ao
# dispositivo B, que o soma ou o copia"), e usado duas vezes: o NumPy o executa em arrays reais (o
# resultado tem de ser exatamente a soma) e o simulador o reproduz em uma máquina (o tempo).

# %%
import numpy as np
import matplotlib.pyplot as plt
from sim.collectives import build, execute
from sim.collectives.replay import replay
from sim.i18n import t

schedule = build("ring", 4, 8)
for k, rnd in enumerate(schedule.rounds):
    print(k, [(tr.src, tr.dst, tr.chunk, tr.op) for tr in rnd.transfers()])

# %% [markdown] lang="en"
# Four devices, eight numbers each: the buffer is cut into four segments of two. In the first
# three rounds (the **reduce-scatter**) every device sends one segment to its neighbour, who adds
# it; in the last three (the **all-gather**) the finished segments travel around the ring.
# Running the schedule on arrays gives the sum on every device:
# <!-- claim ring_rounds: holds(len(schedule.rounds) == 6 and all(tr.op == "reduce" for r in schedule.rounds[:3] for tr in r.transfers()) and all(tr.op == "copy" for r in schedule.rounds[3:] for tr in r.transfers()), "3 reduce rounds, then 3 copy rounds") & holds(all(tr.chunk[1] - tr.chunk[0] == 2 and tr.dst == (tr.src + 1) % 4 for r in schedule.rounds for tr in r.transfers()), "segments of two, each sent to the next device") -->

# %% [markdown] lang="zh"
# 4 个设备，每个设备 8 个数：缓冲区被切成 4 个数据段，每段 2 个数。前三轮（**归约-分散**，reduce-scatter）中每个设备把一个数据段发给下一个设备，后者把它加上；后三轮（**全收集**，all-gather）中已经求和完毕的数据段沿环传递。在数组上执行这个调度，每个设备都得到总和：<!-- claim ring_rounds -->

# %% [markdown] lang="pt"
# Quatro dispositivos, oito números cada: o buffer é cortado em quatro segmentos de dois. Nas três
# primeiras rodadas (o **reduce-scatter**) cada dispositivo envia um segmento ao vizinho, que o
# soma; nas três últimas (o **all-gather**) os segmentos prontos dão a volta no anel. Executar o
# cronograma nos arrays dá a soma em todos os dispositivos:
# <!-- claim ring_rounds -->

# %%
arrays = [np.arange(8) * (r + 1) for r in range(4)]
results = execute(schedule, arrays)
print(results[0], results[3])
print(np.array_equal(results[2], sum(arrays)))

# %% [markdown] lang="en"
# ## The ring, one picture per step
#
# Each cell is one segment on one device; the digits say whose contributions it already holds,
# the arrows are the messages of that step. After the reduce-scatter each device owns one fully
# summed segment (dark); the all-gather copies those around.
# <!-- claim ring_sum: holds(all(np.array_equal(r, sum(arrays)) for r in results), "every device holds the exact sum") -->

# %% [markdown] lang="zh"
# ## 环形算法，每步一张图
#
# 每个格子是某个设备上的一个数据段；数字表示它已经包含了哪些设备的贡献，箭头是这一步发送的消息。归约-分散结束后，每个设备拥有一个完全求和的数据段（深色）；全收集再把它们复制到各处。<!-- claim ring_sum -->

# %% [markdown] lang="pt"
# ## O anel, uma figura por etapa
#
# Cada célula é um segmento em um dispositivo; os dígitos dizem de quem são as contribuições que ela
# já contém, e as setas são as mensagens daquela etapa. Depois do reduce-scatter cada dispositivo
# tem um segmento totalmente somado (escuro); o all-gather o copia para os outros.
# <!-- claim ring_sum -->

# %%
from sim.course.plots.collectives import draw_ring_steps, ring_animation_gif

draw_ring_steps(4)
plt.show()

# %% [markdown] lang="en"
# The same steps as an animation for the classroom (it loops on its own):

# %% [markdown] lang="zh"
# 同样的步骤做成动画，方便课堂演示（自动循环播放）：

# %% [markdown] lang="pt"
# As mesmas etapas em animação, para a sala de aula (ela se repete sozinha):

# %% tags=["nbval-ignore-output", "keep-image"] slide="demo"
ring_animation_gif(4)

# %% [markdown] lang="en"
# ## How long does it take?
#
# In the α-β model a message of `m` bytes costs `α + m·β`. The ring makes `2(p−1)` steps of
# `n/p` bytes: `T = 2(p−1)·α + 2(p−1)/p·n·β`. The simulator replays the schedule on a machine
# (routes, link bandwidths, sharing) and on a machine without contention it gives exactly that:

# %% [markdown] lang="zh"
# ## 要花多长时间？
#
# 在 α-β 模型中，`m` 字节的消息耗时 `α + m·β`。环形算法走 `2(p−1)` 步，每步 `n/p` 字节：`T = 2(p−1)·α + 2(p−1)/p·n·β`。模拟器在机器上重放调度（路由、链路带宽、带宽共享）；在没有争用的机器上，它给出的正是这个结果：

# %% [markdown] lang="pt"
# ## Quanto tempo leva?
#
# No modelo α-β uma mensagem de `m` bytes custa `α + m·β`. O anel faz `2(p−1)` etapas de `n/p`
# bytes: `T = 2(p−1)·α + 2(p−1)/p·n·β`. O simulador reproduz o cronograma em uma máquina (rotas,
# largura de banda dos enlaces, compartilhamento) e, em uma máquina sem contenção, dá exatamente isso:

# %%
from sim.hardware import preset
from sim.collectives.cost import closed_form

machine = preset("dgx-a100")
gpus = machine.gpus
hops = machine.route(gpus[0], gpus[1])
alpha = sum(link.latency for link, _ in hops)
beta = 1 / min(link.bandwidth for link, _ in hops)
n = 256 * 2**20
simulated = replay(build("ring", 8, n), machine, n)
formula = closed_form("ring", 8, n, alpha, beta)
print(t("lesson02.sim_vs_formula", sim=simulated * 1e3, formula=formula * 1e3))

# %% [markdown] lang="en"
# ## Every algorithm, every size
#
# | algorithm | steps (α) | bytes per device (β × n) | where it comes from |
# |---|---|---|---|
# | `reduce_to_one` | 2 | 2 (p−1) on a shared root port | TensorFlow's `ReductionToOneDevice` |
# | `ring` | 2(p−1) | 2(p−1)/p | NCCL Ring, Patarasuk & Yuan 2009 |
# | `recursive_doubling` | lg p | lg p | MPICH |
# | `halving_doubling` | 2 lg p | 2(p−1)/p | Rabenseifner, TF `build_recursive_hd_all_reduce` |
# | `binomial_tree` | 2 lg p | 2 lg p | MPICH |
# | `double_binary_tree` | ≈ 2(lg p + k − 1) | ≈ 2 | flat double binary tree (Sanders, Speck & Träff 2009) |
# | `nccl_tree` | ≈ 2(g − 1 + lg N + k − 1) | ≈ 2 | NCCL Tree: a chain in each node, two binary trees across nodes |
# | `hierarchical`, `hierarchical_reduce`, `torus` | 2(g−1) + 2(N−1) | split between levels | Horovod, TF hybrid, TPU 2-D torus |
# | `hierarchical_copy` | 4 | 2·p/2 | TensorFlow's `HierarchicalCopyAllReduce` (DGX-1) |
# | `nccl` | — | — | NCCL's tuning model picks ring or tree |
#
# Small messages are ruled by the α column (few steps win: reduce-to-one, recursive doubling);
# large ones by the β column (those that send the least win: the ring and halving-doubling inside
# one node; across two nodes NCCL's tree, which sends fewer bytes over the network, see below).
# The simulator shows where the lines cross on each machine:
# <!-- claim ring_formula: about(simulated, formula, rel=1e-9) -->

# %% [markdown] lang="zh"
# ## 每种算法，每种大小
#
# | 算法 | 步数（α） | 每个设备收发的字节（β × n） | 出处 |
# |---|---|---|---|
# | `reduce_to_one` | 2 | 根设备端口共享时为 2 (p−1) | TensorFlow 的 `ReductionToOneDevice` |
# | `ring` | 2(p−1) | 2(p−1)/p | NCCL Ring，Patarasuk & Yuan 2009 |
# | `recursive_doubling` | lg p | lg p | MPICH |
# | `halving_doubling` | 2 lg p | 2(p−1)/p | Rabenseifner，TF `build_recursive_hd_all_reduce` |
# | `binomial_tree` | 2 lg p | 2 lg p | MPICH |
# | `double_binary_tree` | ≈ 2(lg p + k − 1) | ≈ 2 | 扁平的双二叉树（Sanders、Speck & Träff 2009） |
# | `nccl_tree` | ≈ 2(g − 1 + lg N + k − 1) | ≈ 2 | NCCL Tree：节点内一条链，节点间两棵二叉树 |
# | `hierarchical`、`hierarchical_reduce`、`torus` | 2(g−1) + 2(N−1) | 分摊到两个层级 | Horovod、TF 混合算法、TPU 二维环面 |
# | `hierarchical_copy` | 4 | 2·p/2 | TensorFlow 的 `HierarchicalCopyAllReduce`（DGX-1） |
# | `nccl` | — | — | 由 NCCL 的调优模型在 ring 和 tree 之间选择 |
#
# 小消息由 α 列决定（步数少的算法胜出：reduce-to-one、递归倍增）；大消息由 β 列决定（发送数据最少的算法胜出：单个节点内是 ring 和 halving-doubling；跨两个节点时是 NCCL 的树，它经网络发送的字节更少，见下文）。模拟器会显示在每台机器上这些曲线在哪里相交：<!-- claim ring_formula -->

# %% [markdown] lang="pt"
# ## Todos os algoritmos, todos os tamanhos
#
# | algoritmo | etapas (α) | bytes por dispositivo (β × n) | origem |
# |---|---|---|---|
# | `reduce_to_one` | 2 | 2 (p−1) com a porta da raiz compartilhada | `ReductionToOneDevice` do TensorFlow |
# | `ring` | 2(p−1) | 2(p−1)/p | NCCL Ring, Patarasuk & Yuan 2009 |
# | `recursive_doubling` | lg p | lg p | MPICH |
# | `halving_doubling` | 2 lg p | 2(p−1)/p | Rabenseifner, `build_recursive_hd_all_reduce` do TF |
# | `binomial_tree` | 2 lg p | 2 lg p | MPICH |
# | `double_binary_tree` | ≈ 2(lg p + k − 1) | ≈ 2 | árvore binária dupla plana (Sanders, Speck & Träff 2009) |
# | `nccl_tree` | ≈ 2(g − 1 + lg N + k − 1) | ≈ 2 | NCCL Tree: uma cadeia em cada nó, duas árvores binárias entre os nós |
# | `hierarchical`, `hierarchical_reduce`, `torus` | 2(g−1) + 2(N−1) | dividido entre os níveis | Horovod, híbrido do TF, toro 2-D das TPUs |
# | `hierarchical_copy` | 4 | 2·p/2 | `HierarchicalCopyAllReduce` do TensorFlow (DGX-1) |
# | `nccl` | — | — | o modelo de ajuste do NCCL escolhe entre ring e tree |
#
# Mensagens pequenas são governadas pela coluna α (poucas etapas vencem: reduce-to-one, recursive
# doubling); as grandes, pela coluna β (vencem os que enviam menos: dentro de um nó, o ring e o
# halving-doubling; entre dois nós, a árvore do NCCL, que envia menos bytes pela rede, veja
# abaixo). O simulador mostra onde as curvas se cruzam em cada máquina:
# <!-- claim ring_formula -->

# %% slide="figure"
from sim.collectives.compare import compare, fastest, sizes_between
from sim.course.plots.collectives import draw_comparison
from sim.i18n import t

sizes = sizes_between(1024, 2**30, 16)
rows_of = {}                    # machine -> its rows (the figure's lines)
fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
for ax, name in zip(axes, ["dgx-a100", "dgx-a100-cluster"]):
    m = preset(name)
    rows, skipped = compare(m, sizes)
    rows_of[name] = rows
    draw_comparison(rows, ax, title=t("collectives.compare_title", machine=name, p=len(m.gpus)))
    for size in (sizes[0], sizes[-1]):
        best = fastest(rows, size)
        print(t("lesson02.fastest_row", machine=name, size=size, alg=best["algorithm"],
                us=best["time_us"]))
plt.show()

# %%
from sim.collectives.compare import time_one

cluster = preset("dgx-a100-cluster")
cluster_rows = {}
for name, options in (("ring", {"channels": 1}), ("ring", {}), ("hierarchical", {}),
                      ("halving_doubling", {})):
    row = time_one(name, cluster, 2**30, **options)
    sched = build(name, 16, 2**28, machine=cluster, ranks=cluster.gpus, **options)
    channels = sched.info.get("channels", 1 if name == "ring" else "-")
    cluster_rows[name, channels] = row
    print(t("lesson02.cluster_row", name=name, channels=channels, ms=row["time_us"] / 1e3,
            busbw=row["busbw_gbps"]))

# %% [markdown] lang="en"
# Inside one DGX A100 every GPU reaches every other at full speed through the NVSwitch, so a large
# all-reduce is limited by how many bytes each GPU sends: ring, halving-doubling and the torus tie
# at the bandwidth optimum `2(p−1)/p·n`. On two nodes a single ring (`channels=1`) crosses the
# network through one GPU's NIC: about 24 GB/s of bus bandwidth, the PCIe hop between that GPU and
# its NIC. NCCL runs not one ring but several, its **channels**: each carries 1/8 of the buffer
# and visits the GPUs of a node in a rotated order, so that each channel leaves the node through a
# different GPU, hence a different NIC. With eight channels all eight NICs of a node work at once
# and the bus bandwidth reaches about 190 GB/s, close to the node's 8 × 25 GB/s of NICs (each
# GPU's 24 GB/s PCIe hop to its NIC is the limit): for 1 GiB the ring is about eight times faster
# than with one channel, and the fastest after NCCL's tree (see below). `hierarchical` also gets all eight NICs working,
# by keeping most bytes on NVLink; halving-doubling does the same without being told: its large
# first exchanges stay inside a node and its last, small ones cross the network on every NIC at
# once. Both are about six times faster than the single ring, yet about a quarter slower than the
# ring's channels: they move their NVLink bytes and their network bytes in phases, one after the
# other, while the channels keep both busy at the same time. Tiny messages go to the algorithms
# with the fewest steps.
# <!-- claim winners: holds(fastest(rows_of["dgx-a100"], 1024)["algorithm"] == "reduce_to_one" and fastest(rows_of["dgx-a100-cluster"], 1024)["algorithm"] == "recursive_doubling", "the fewest steps win at 1 KiB") & holds(fastest(rows_of["dgx-a100"], 2**30)["algorithm"] in ("ring", "halving_doubling") and fastest(rows_of["dgx-a100-cluster"], 2**30)["algorithm"] == "nccl_tree", "1 GiB: ring or halving-doubling in one node, nccl_tree on two nodes") -->
# <!-- claim one_node_tie: between(max([r["time_us"] for r in rows_of["dgx-a100"] if r["size_bytes"] == 2**30 and r["algorithm"] in ('ring', 'halving_doubling', 'torus')]) / min([r["time_us"] for r in rows_of["dgx-a100"] if r["size_bytes"] == 2**30 and r["algorithm"] in ('ring', 'halving_doubling', 'torus')]), 1.0, 1.01) -->
# <!-- claim channels: about(cluster_rows["ring", 1]["busbw_gbps"], 24, rel=0.05) & about(cluster_rows["ring", 8]["busbw_gbps"], 190, rel=0.05) & about(cluster_rows["ring", 1]["time_us"] / cluster_rows["ring", 8]["time_us"], 8, rel=0.1) & holds(sorted((r["time_us"], r["algorithm"]) for r in rows_of["dgx-a100-cluster"] if r["size_bytes"] == 2**30 and r["algorithm"] != "nccl")[1][1] == "ring", "the ring is second after nccl_tree at 1 GiB on two nodes") -->
# <!-- claim phases: about(cluster_rows["ring", 1]["time_us"] / cluster_rows["hierarchical", "-"]["time_us"], 6, rel=0.1) & about(cluster_rows["ring", 1]["time_us"] / cluster_rows["halving_doubling", "-"]["time_us"], 6, rel=0.1) & between(cluster_rows["hierarchical", "-"]["time_us"] / cluster_rows["ring", 8]["time_us"], 1.2, 1.33) & between(cluster_rows["halving_doubling", "-"]["time_us"] / cluster_rows["ring", 8]["time_us"], 1.2, 1.33) -->
#
# ## Contention on a shared PCIe switch
#
# The course's default workstation has four GPUs under **one** PCIe switch. The ring never puts
# two messages on one link direction, so it matches its formula. Reduce-to-one sends three
# copies into the root's single PCIe link at once: they share it, and the step takes three times
# as long as with separate links: the `2(p−1)·n·β` of the reference, not `2·n·β`.

# %% [markdown] lang="zh"
# 在一台 DGX A100 内，每个 GPU 都能通过 NVSwitch 以全速到达其他任何 GPU，所以大消息的全归约受限于每个 GPU 要发送的字节数：ring、halving-doubling 和环面算法都达到带宽最优的 `2(p−1)/p·n`，不分上下。到了两个节点，单个环（`channels=1`）要经过某一个 GPU 的网卡跨网络传输：总线带宽只有约 24 GB/s，也就是这个 GPU 与其网卡之间那段 PCIe 链路的带宽。NCCL 跑的不是一个环，而是好几个，称为**通道**（channel）：每个通道承载缓冲区的 1/8，并按轮转后的顺序经过一个节点内的各个 GPU，因此每个通道都经由不同的 GPU，也就是不同的网卡，离开节点。有了 8 个通道，一个节点的全部 8 块网卡同时工作，总线带宽达到约 190 GB/s，接近节点网卡合计的 8 × 25 GB/s（上限来自每个 GPU 到其网卡的 24 GB/s PCIe 链路）：对 1 GiB 的消息，耗时缩短到只用一个通道时的约八分之一，仅次于 NCCL 的树（见下文）。`hierarchical` 也让 8 块网卡同时工作，办法是把大部分字节留在 NVLink 上；halving-doubling 无需刻意安排也做到了同样的事：它前几轮的大交换留在节点内部，最后几轮的小交换同时经由每块网卡跨网络传输。两者的耗时都只有单个环的约六分之一，却比多通道的环多出约四分之一：它们分阶段、一前一后地传送 NVLink 上的字节和网络上的字节，而各个通道让两者同时保持忙碌。极小的消息则是步数最少的算法占优。<!-- claim winners --><!-- claim one_node_tie --><!-- claim channels --><!-- claim phases -->
#
# ## 共享 PCIe 交换机上的争用
#
# 课程默认的工作站有 4 个 GPU，挂在**同一个** PCIe 交换机下。环形算法从不把两条消息放在同一条链路的同一方向上，所以它与公式吻合。reduce-to-one 则同时把三份数据送进根设备唯一的 PCIe 链路：它们共享这条链路，这一步的耗时是独立链路时的三倍，即参考资料中的 `2(p−1)·n·β`，而不是 `2·n·β`。

# %% [markdown] lang="pt"
# Dentro de um DGX A100 cada GPU alcança qualquer outra a toda velocidade pelo NVSwitch, então um
# all-reduce grande é limitado pelos bytes que cada GPU envia: ring, halving-doubling e o toro
# empatam no ótimo de banda `2(p−1)/p·n`. Com dois nós, um anel único (`channels=1`) atravessa a
# rede pela placa de rede de uma só GPU: cerca de 24 GB/s de largura de banda de barramento
# (busbw), a do enlace PCIe entre essa GPU e a sua placa. O NCCL não roda um anel só, e sim
# vários, os seus **canais**: cada um leva 1/8 do buffer e percorre as GPUs de um nó em uma ordem
# rotacionada, de modo que cada canal sai do nó por uma GPU diferente e, portanto, por uma placa
# de rede diferente. Com oito canais, as oito placas de rede do nó trabalham ao mesmo tempo e o
# busbw chega a cerca de 190 GB/s, perto dos 8 × 25 GB/s das placas do nó (o limite é o enlace
# PCIe de 24 GB/s de cada GPU até a sua placa): para 1 GiB, o anel fica cerca de oito vezes mais
# rápido do que com um canal só, e só perde para a árvore do NCCL (veja abaixo). O `hierarchical` também põe as oito
# placas para trabalhar, mantendo a maior parte dos bytes no NVLink; o halving-doubling faz o
# mesmo sem que ninguém peça: suas primeiras trocas, as grandes, ficam dentro do nó, e as últimas,
# pequenas, atravessam a rede por todas as placas ao mesmo tempo. Os dois são cerca de seis vezes
# mais rápidos que o anel único, mas cerca de um quarto mais lentos que os canais do anel: movem
# os bytes do NVLink e os da rede em fases, um depois do outro, enquanto os canais mantêm os dois
# ocupados ao mesmo tempo. As mensagens minúsculas ficam com os algoritmos de menos etapas.
# <!-- claim winners --><!-- claim one_node_tie --><!-- claim channels --><!-- claim phases -->
#
# ## Contenção em um switch PCIe compartilhado
#
# A estação de trabalho padrão do curso tem quatro GPUs sob **um único** switch PCIe. O anel nunca
# põe duas mensagens no mesmo sentido de um enlace, então bate com a sua fórmula. O reduce-to-one
# manda três cópias ao mesmo tempo para o único enlace PCIe da raiz: elas o compartilham, e a
# etapa leva três vezes mais do que com enlaces separados: o `2(p−1)·n·β` da referência, não `2·n·β`.

# %%
ws = preset("workstation-4gpu")
hops = ws.route(ws.gpus[0], ws.gpus[1])
alpha = sum(link.latency for link, _ in hops)
beta = 1 / min(link.bandwidth for link, _ in hops)
n = 64 * 2**20
contention = {}
for name in ("ring", "reduce_to_one"):
    sim_t = replay(build(name, 4, n), ws, n)
    separate = closed_form(name, 4, n, alpha, beta, shared_port=False)
    shared = closed_form(name, 4, n, alpha, beta, shared_port=True)
    contention[name] = (sim_t, separate, shared)
    print(t("lesson02.contention_row", name=name, sim=sim_t * 1e3, separate=separate * 1e3,
            shared=shared * 1e3))

# %% [markdown] lang="en"
# ## Why a flat ring across nodes is capped by the NICs
#
# In a flat ring over several nodes, at every step each channel crosses from one node to the next
# exactly once: one message of `n/(p·c)` bytes leaves every node through one NIC per channel. Over
# its `2(p−1)` steps each NIC therefore carries `2(p−1)/p·n/c` bytes, however fast the NVLink
# inside the node is, so the all-reduce takes at least `2(p−1)/p·n/(c·B_NIC)` and its bus
# bandwidth can never beat the node's `c·B_NIC`: 8 × 25 GB/s = 200 GB/s on DGX A100 nodes (here
# 192 GB/s, the 24 GB/s PCIe hop from each GPU to its NIC). The NVLink hops are much faster, so in
# the timeline below their transfers are short bars with gaps, each GPU waiting for the segment
# that crossed the network, while the network transfers run back to back: the NICs are the
# bottleneck.
# <!-- claim hop_latencies: about(sum(link.latency for link, _ in cluster.route(cluster.gpus[0], cluster.gpus[1])), 0.6e-6, rel=0.01) & about(sum(link.latency for link, _ in cluster.route(cluster.gpus[0], cluster.gpus[8])), 3.7e-6, rel=0.01) -->
# <!-- claim contention_rule: about(contention["ring"][0], contention["ring"][1], rel=1e-6) & about(contention["reduce_to_one"][0] / contention["reduce_to_one"][1], 3, rel=0.01) & about(contention["reduce_to_one"][0], contention["reduce_to_one"][2], rel=1e-6) -->
#
# The simulator replays a schedule by its dependencies: a transfer starts when the segment it
# sends has arrived (and been added) and its link is free, and each hop pays its own latency,
# 0.6 µs on NVLink, 3.7 µs across the network. Replayed with each round as a barrier (every
# transfer of a step waiting for the slowest of the previous one), every step would pay the
# network's latency; the table shows what that costs as the cluster grows. On large clusters
# `nccl` picks NCCL's own tree, `nccl_tree` (a chain through the GPUs of each node, two binary
# trees across the nodes); on two nodes that tree sends only half as many bytes across the
# network as the ring, which is why it is the fastest there at 1 GiB.

# %% [markdown] lang="zh"
# ## 为什么跨节点的扁平环受限于网卡
#
# 在跨多个节点的扁平环中，每一步里每个通道恰好从一个节点跨到下一个节点一次：每个节点每个通道经由一块网卡送出一条 `n/(p·c)` 字节的消息。在 `2(p−1)` 步中每块网卡因此要传送 `2(p−1)/p·n/c` 字节，无论节点内的 NVLink 有多快，所以全归约至少需要 `2(p−1)/p·n/(c·B_NIC)`，其总线带宽永远不可能超过节点的 `c·B_NIC`：DGX A100 节点上是 8 × 25 GB/s = 200 GB/s（这里是 192 GB/s，受限于每个 GPU 到其网卡的 24 GB/s PCIe 链路）。NVLink 链路快得多，所以在下面的时间线里，它们的传输是一段段短条，中间有空隙，每个 GPU 都在等待跨网络而来的数据段；而网络上的传输一个紧接一个：瓶颈在网卡。<!-- claim contention_rule --><!-- claim hop_latencies -->
#
# 模拟器按依赖关系重放调度：一次传输在它要发送的数据段已经到达（并已相加）且链路空闲时开始，每一跳都付出自己的延迟，NVLink 上 0.6 µs，跨网络 3.7 µs。如果把每一轮当作屏障来重放（一步中的每次传输都要等上一步最慢的那次），每一步都要付出网络的延迟；下表显示随着集群变大这样做的代价。在大集群上，`nccl` 会选择 NCCL 自己的树 `nccl_tree`（每个节点内的 GPU 连成一条链，节点之间是两棵二叉树）；在两个节点上，这棵树跨网络传送的字节只有环的一半，所以在 1 GiB 时它是那里最快的。

# %% [markdown] lang="pt"
# ## Por que um anel plano entre nós fica limitado pelas placas de rede
#
# Em um anel plano sobre vários nós, a cada etapa cada canal passa de um nó para o seguinte
# exatamente uma vez: uma mensagem de `n/(p·c)` bytes sai de cada nó por uma placa de rede (NIC) por
# canal. Nas suas `2(p−1)` etapas cada placa de rede leva, portanto, `2(p−1)/p·n/c` bytes, por mais
# rápido que seja o NVLink dentro do nó; assim o all-reduce leva no mínimo `2(p−1)/p·n/(c·B_NIC)` e a
# sua largura de banda de barramento nunca passa do `c·B_NIC` do nó: 8 × 25 GB/s = 200 GB/s em nós
# DGX A100 (aqui 192 GB/s, o trecho PCIe de 24 GB/s entre cada GPU e a sua placa de rede). Os
# trechos NVLink são bem mais rápidos, então na linha do tempo abaixo as suas transferências são
# barras curtas com intervalos, cada GPU esperando o segmento que atravessou a rede, enquanto as
# transferências pela rede vêm uma logo após a outra: o gargalo são as placas de rede.
# <!-- claim contention_rule --><!-- claim hop_latencies -->
#
# O simulador reproduz um cronograma pelas dependências: uma transferência começa quando o
# segmento que ela envia já chegou (e foi somado) e o seu enlace está livre, e cada salto paga a
# sua própria latência, 0,6 µs no NVLink e 3,7 µs pela rede. Reproduzido com cada rodada como uma
# barreira (cada transferência de uma etapa esperando a mais lenta da etapa anterior), toda etapa
# pagaria a latência da rede; a tabela mostra quanto isso custa à medida que o cluster cresce. Em
# clusters grandes o `nccl` escolhe a árvore do próprio NCCL, `nccl_tree` (uma cadeia pelas GPUs
# de cada nó e duas árvores binárias entre os nós); em dois nós essa árvore envia pela rede só
# metade dos bytes do anel, e é por isso que ela é a mais rápida ali com 1 GiB.

# %%
from matplotlib.patches import Patch
from sim.collectives.cost import bandwidths
from sim.collectives.replay import round_durations, timing

two = preset("dgx-a100-cluster", nodes=2)
ring16 = build("ring", 16, 2**24, machine=two, ranks=two.gpus)     # 64 MiB, 8 channels
when = timing(ring16, two, 2**26, two.gpus, keep=True)
order = ring16.info["order"]                                       # channel 0's ring
place = {rank: i for i, rank in enumerate(order)}
steps = 12
fig, ax = plt.subplots(figsize=(11, 4))
for k in range(steps):
    rnd = ring16.rounds[k]
    for s, d, b, e in zip(rnd.src[:16], rnd.dst[:16], when.begin[k][:16], when.end[k][:16]):
        across = two.gpus[s].host != two.gpus[d].host
        ax.barh(place[s], (e - b) * 1e6, left=b * 1e6, height=0.6, edgecolor="white",
                linewidth=0.8, color="tab:red" if across else "tab:blue")
ax.set_xlabel(t("lesson02_nodes.timeline_x"))
ax.set_ylabel(t("lesson02_nodes.timeline_y"))
ax.set_title(t("lesson02_nodes.timeline_title", steps=steps, mib=64))
ax.legend(handles=[Patch(color="tab:blue", label=t("lesson02_nodes.nvlink")),
                   Patch(color="tab:red", label=t("lesson02_nodes.network"))],
          loc="upper left", bbox_to_anchor=(1.0, 1.0))
plt.show()

nic_rows = {}
for nodes in (2, 8, 32):
    m = preset("dgx-a100-cluster", nodes=nodes)
    p = len(m.gpus)
    sched = build("ring", p, 2**28, machine=m, ranks=m.gpus)
    dep = bandwidths(2**30, replay(sched, m, 2**30), p)[1] / 1e9
    barrier = bandwidths(2**30, float(round_durations(sched, m, 2**30).sum()), p)[1] / 1e9
    nic_rows[nodes] = (dep, barrier)
    print(t("lesson02_nodes.nic_cap_row", nodes=nodes, p=p, dep=dep, barrier=barrier, cap=200))

# %% [markdown] lang="en"
# ## What NCCL would pick
#
# NCCL does not measure: it predicts each (algorithm, protocol) with its own model
# (`src/graph/tuning.cc`) and takes the fastest. On one node it mostly picks the ring; the
# low-latency protocols (LL, LL128) win for small messages.
# <!-- claim nic_cap: holds(all(189 < dep < 200 for dep, _ in nic_rows.values()), "the ring's busbw is about 192 GB/s, under the 200 GB/s of NICs, at 2, 8 and 32 nodes") & falls([barrier for _, barrier in nic_rows.values()]) -->
# <!-- claim nvlink_bars_short: holds(max(e - b for k in range(steps) for s, d, b, e in zip(ring16.rounds[k].src[:16], ring16.rounds[k].dst[:16], when.begin[k][:16], when.end[k][:16]) if two.gpus[s].host == two.gpus[d].host) < min(e - b for k in range(steps) for s, d, b, e in zip(ring16.rounds[k].src[:16], ring16.rounds[k].dst[:16], when.begin[k][:16], when.end[k][:16]) if two.gpus[s].host != two.gpus[d].host), "every NVLink bar is shorter than every network bar") -->
# <!-- claim winners -->

# %% [markdown] lang="zh"
# ## NCCL 会选什么
#
# NCCL 并不实测：它用自己的模型（`src/graph/tuning.cc`）预测每种（算法，协议）组合的时间，然后选最快的。在单个节点上它大多选择 ring；小消息时低延迟协议（LL、LL128）胜出。<!-- claim nic_cap --><!-- claim nvlink_bars_short --><!-- claim winners -->

# %% [markdown] lang="pt"
# ## O que o NCCL escolheria
#
# O NCCL não mede: ele prevê cada par (algoritmo, protocolo) com o seu próprio modelo
# (`src/graph/tuning.cc`) e fica com o mais rápido. Em um único nó ele quase sempre escolhe o anel;
# os protocolos de baixa latência (LL, LL128) vencem nas mensagens pequenas.
# <!-- claim nic_cap --><!-- claim nvlink_bars_short --><!-- claim winners -->

# %%
from sim.collectives import nccl_model

picks = {}
for name in ("dgx-a100", "workstation-4gpu"):
    topo = nccl_model.topology_of(preset(name))
    for size in (1024, 2**20, 2**28):
        alg, proto, us = nccl_model.choose(topo, size)
        picks[name, size] = (alg, proto)
        print(t("lesson02.nccl_choice", machine=name, size=size, alg=alg, proto=proto, us=us))

# %% [markdown] lang="en"
# ## Try it yourself
#
# Change the machine, the number of devices, the message size and the algorithm: the plot is
# redrawn and the fastest algorithm at that size is named. The same numbers come from the
# command line: `python -m sim allreduce --machine dgx-a100 --algorithm all`.
# <!-- claim nccl_picks: holds(all(alg == "ring" for alg, _ in picks.values()), "the ring at every size on both machines") & holds(all(proto == "LL" for (machine_name, size), (_, proto) in picks.items() if size == 1024), "LL at 1 KiB") & holds(all(proto == "Simple" for (machine_name, size), (_, proto) in picks.items() if size == 2**28), "Simple at 256 MiB") -->

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 改变机器、设备数、消息大小和算法：图会重新绘制，并标出该大小下最快的算法。命令行也能给出同样的数字：`python -m sim allreduce --machine dgx-a100 --algorithm all`。<!-- claim nccl_picks -->

# %% [markdown] lang="pt"
# ## Experimente
#
# Mude a máquina, o número de dispositivos, o tamanho da mensagem e o algoritmo: o gráfico é
# redesenhado e o algoritmo mais rápido naquele tamanho aparece indicado. Os mesmos números saem
# da linha de comando: `python -m sim allreduce --machine dgx-a100 --algorithm all`.
# <!-- claim nccl_picks -->

# %% tags=["nbval-ignore-output"]
from sim.course.plots.collectives import comparison_widget

comparison_widget()
