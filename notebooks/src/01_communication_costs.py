# %% [markdown] lang="en"
# # 01 · What communication costs
#
# Every distributed training step moves data: gradients between GPUs, variables from the CPU,
# activations between machines. Before looking at any strategy, this lesson measures the price of
# one copy, on the course's default machine: a workstation with 4 GPUs under **one PCIe switch**.
#
# You will see:
# 1. the **alpha-beta model**: a copy of `S` bytes over a link costs its **latency** `α` plus
#    `S` divided by its **bandwidth** `B`;
# 2. the same number measured by the simulator, and where each number comes from;
# 3. a **timeline** of several copies, and why a shared PCIe switch slows everyone down;
# 4. how to describe your own machine, and what happens when you name a device that does not exist.
#
# ## 1. Alpha-beta by hand
#
# `T(S) = α + S / B` (often written `α + S·β` with `β = 1/B` seconds per byte). Between two GPUs
# of our workstation, NCCL's own model of PCIe Gen3 x16 gives `B = 12 GB/s`, and one hop through
# the switch costs `α = 1 µs`.

# %% [markdown] lang="zh"
# # 01 · 通信的代价
#
# 分布式训练的每一步都要搬运数据：GPU 之间的梯度、来自 CPU 的变量、机器之间的激活值。在学习任何策略之前，本节课先在课程的默认机器上测一测一次复制的代价：这是一台工作站，4 个 GPU 挂在**同一个 PCIe 交换机**下。
#
# 你将看到：
# 1. **alpha-beta 模型**：通过一条链路复制 `S` 字节，代价是它的**延迟** `α`，加上 `S` 除以它的**带宽** `B`；
# 2. 模拟器测得的同一个数字，以及每个数字的来历；
# 3. 多次复制的**时间线**，以及为什么共用的 PCIe 交换机会拖慢所有人；
# 4. 如何描述你自己的机器，以及写错设备名时会发生什么。
#
# ## 1. 手算 alpha-beta
#
# `T(S) = α + S / B`（也常写作 `α + S·β`，其中 `β = 1/B` 表示每字节所需的秒数）。在我们这台工作站的两个 GPU 之间，NCCL 自己对 PCIe Gen3 x16 的建模给出 `B = 12 GB/s`，经过交换机的一跳需要 `α = 1 µs`。

# %% [markdown] lang="pt"
# # 01 · Quanto custa a comunicação
#
# Todo passo de treinamento distribuído move dados: gradientes entre GPUs, variáveis vindas da CPU,
# ativações entre máquinas. Antes de olhar qualquer estratégia, esta lição mede o preço de uma
# cópia na máquina padrão do curso: uma estação de trabalho com 4 GPUs ligadas a **um único switch
# PCIe**.
#
# Você vai ver:
# 1. o **modelo alfa-beta**: copiar `S` bytes por um enlace custa a sua **latência** `α` mais `S`
#    dividido pela sua **largura de banda** `B`;
# 2. o mesmo número medido pelo simulador, e de onde vem cada número;
# 3. uma **linha do tempo** de várias cópias, e por que um switch PCIe compartilhado deixa todo
#    mundo mais lento;
# 4. como descrever a sua própria máquina, e o que acontece quando você dá o nome de um
#    dispositivo que não existe.
#
# ## 1. Alfa-beta à mão
#
# `T(S) = α + S / B` (muitas vezes escrito `α + S·β`, com `β = 1/B` segundos por byte). Entre duas
# GPUs da nossa estação de trabalho, o próprio modelo do NCCL para PCIe Gen3 x16 dá `B = 12 GB/s`, e um
# salto pelo switch custa `α = 1 µs`.

# %%
from sim.hardware.units import format_bytes
from sim.i18n import number, t   # sim-only: the course's labels, numbers in its language

ALPHA = 1e-6          # s: one PCIe hop through the switch (NCCL's per-hop latency)
BANDWIDTH = 12e9      # B/s: PCIe Gen3 x16 as NCCL models it


def alpha_beta(nbytes, alpha=ALPHA, bandwidth=BANDWIDTH):
    """Seconds to copy nbytes over one link: latency + size / bandwidth."""
    return alpha + nbytes / bandwidth


for nbytes in [8, 1e3, 12e3, 1e6, 100e6, 1e9]:
    seconds = alpha_beta(nbytes)
    print(t("lesson01.row", size=format_bytes(nbytes), us=seconds * 1e6, share=ALPHA / seconds))
print(t("lesson01.half_size", size=format_bytes(ALPHA * BANDWIDTH)))

# %% [markdown] lang="en"
# Two regimes. A copy of a few kilobytes is almost all latency: sending 8 bytes or 1,000 bytes
# costs about the same. A copy of 100 MB (a ResNet-50's gradients in float32 are ~100 MB) is
# almost all bandwidth. That is why distributed training **packs** many small gradients into
# few large buffers: it pays `α` once instead of once per tensor.
# <!-- claim two_regimes: about(alpha_beta(1e3), alpha_beta(8), rel=0.1) & above(ALPHA / alpha_beta(8), 0.99) & below(ALPHA / alpha_beta(100e6), 0.001) -->
#
# ## 2. The same copy on the simulator
#
# `sim.hardware.preset("workstation-4gpu")` builds the machine as a graph: GPUs, a PCIe switch,
# the CPU, and links with a latency and a bandwidth per direction. `machine.route(src, dst)` gives
# the hops a copy takes. `sim.des.Simulator` runs copies and computations on that graph in
# simulated time.

# %% [markdown] lang="zh"
# 这里有两种情形。几 kB 的复制几乎全是延迟：发送 8 字节和 1,000 字节的代价差不多。100 MB 的复制（ResNet-50 的 float32 梯度大约就是 100 MB）几乎全是带宽。这就是为什么分布式训练要把许多小梯度**打包**成少数几个大缓冲区：只付一次 `α`，而不是每个张量付一次。<!-- claim two_regimes -->
#
# ## 2. 在模拟器上做同样的复制
#
# `sim.hardware.preset("workstation-4gpu")` 把这台机器构建成一张图：GPU、一个 PCIe 交换机、CPU，以及每个方向都有延迟和带宽的链路。`machine.route(src, dst)` 给出一次复制经过的各跳。`sim.des.Simulator` 在这张图上以模拟时间运行复制和计算。

# %% [markdown] lang="pt"
# São dois regimes. Uma cópia de poucos quilobytes é quase só latência: enviar 8 bytes ou 1.000
# bytes custa praticamente o mesmo. Uma cópia de 100 MB (os gradientes de uma ResNet-50 em float32
# têm ~100 MB) é quase só largura de banda. É por isso que o treinamento distribuído **empacota**
# muitos gradientes pequenos em poucos buffers grandes: paga `α` uma vez, e não uma vez por tensor.
# <!-- claim two_regimes -->
#
# ## 2. A mesma cópia no simulador
#
# `sim.hardware.preset("workstation-4gpu")` monta a máquina como um grafo: GPUs, um switch PCIe, a
# CPU e enlaces com uma latência e uma largura de banda por sentido. `machine.route(src, dst)`
# mostra os saltos que uma cópia percorre. `sim.des.Simulator` executa cópias e cálculos nesse
# grafo, em tempo simulado.

# %%
from sim.des import Simulator
from sim.hardware import preset

machine = preset("workstation-4gpu")
print(machine)
for link, direction in machine.route("/gpu:0", "/gpu:1"):
    here, there = (link.a, link.b) if direction == 0 else (link.b, link.a)
    print(f"  {here} -> {there}: {link.kind}, {number(link.bandwidth / 1e9, 'g')} GB/s, "
          f"{number(link.latency * 1e6, 'g')} µs")

sim = Simulator(machine)
sim.transfer("/gpu:0", "/gpu:1", 100e6, label="100 MB")
sim.run()
print(t("lesson01.sim_vs_formula", sim=sim.now * 1e6, formula=alpha_beta(100e6) * 1e6))

# %% [markdown] lang="en"
# The route has two hops (GPU 0 → switch → GPU 1), each with half of the 1 µs hop latency. The
# bytes stream through both hops at once, so the slower hop sets the pace: here both run at
# 12 GB/s. The simulator agrees with the formula to the last digit.
# <!-- claim route_two_hops: holds(len(machine.route("/gpu:0", "/gpu:1")) == 2 and all(abs(link.latency - 0.5e-6) < 1e-12 and link.bandwidth == 12e9 for link, _ in machine.route("/gpu:0", "/gpu:1")), "two hops of 0.5 µs at 12 GB/s") & holds(f"{sim.now * 1e6:.3f}" == f"{alpha_beta(100e6) * 1e6:.3f}", f"simulator {sim.now * 1e6:.3f} µs, formula {alpha_beta(100e6) * 1e6:.3f} µs") -->
#
# A handy way to see both regimes at once is the **effective bandwidth** `S / T(S)`: what a copy
# of `S` bytes really achieves.

# %% [markdown] lang="zh"
# 这条路由有两跳（GPU 0 → 交换机 → GPU 1），每跳各占这 1 µs 延迟的一半。数据同时流过这两跳，所以较慢的那一跳决定了速度：这里两跳都是 12 GB/s。模拟器的结果与公式分毫不差。<!-- claim route_two_hops -->
#
# 要同时看清两种情形，一个方便的办法是看**有效带宽** `S / T(S)`：复制 `S` 字节时实际达到的带宽。

# %% [markdown] lang="pt"
# A rota tem dois saltos (GPU 0 → switch → GPU 1), cada um com metade da latência de 1 µs do
# salto. Os bytes atravessam os dois saltos ao mesmo tempo, então o salto mais lento dita o ritmo:
# aqui os dois rodam a 12 GB/s. O simulador concorda com a fórmula até o último dígito.
# <!-- claim route_two_hops -->
#
# Um jeito prático de ver os dois regimes juntos é a **largura de banda efetiva** `S / T(S)`: o
# que uma cópia de `S` bytes realmente alcança.

# %%
import matplotlib.pyplot as plt
import numpy as np

from sim.course.plots import label

sizes = np.logspace(0, 9, 37)
effective = []
for nbytes in sizes:
    sim = Simulator(machine)
    sim.transfer("/gpu:0", "/gpu:1", float(nbytes))
    sim.run()
    effective.append(nbytes / sim.now / 1e9)

fig, ax = plt.subplots(figsize=(7, 3.5))
ax.semilogx(sizes, effective, marker=".")
ax.axhline(BANDWIDTH / 1e9, color="gray", linestyle="--")
ax.axvline(ALPHA * BANDWIDTH, color="gray", linestyle=":")
ax.set_xlabel(label("message_size"))
ax.set_ylabel(t("lesson01.effective_bw"))
ax.set_title(t("lesson01.bw_title"))
plt.show()

# %% [markdown] lang="en"
# The dotted line is `n½ = α·B = 12 kB`: there a copy reaches half the link's bandwidth. Below it
# the link mostly waits; above it the link is busy.
# <!-- claim n_half: about(np.interp(np.log10(ALPHA * BANDWIDTH), np.log10(sizes), effective), BANDWIDTH / 2e9, rel=0.05) & rises(effective) -->
#
# ## 3. A timeline, and a shared PCIe switch
#
# On our workstation each GPU has its own x16 link to the PCIe switch, but the switch reaches the
# CPU (and host memory) over **one** x16 uplink. The simulator shares a link direction **equally**
# between the copies crossing it at the same moment (max-min fair sharing), and recomputes the
# shares whenever a copy starts or ends. Three experiments, 120 MB per copy:

# %% [markdown] lang="zh"
# 竖直的点线是 `n½ = α·B = 12 kB`：在这个大小时，复制能达到链路带宽的一半。小于它时链路大多在等待；大于它时链路一直在忙。<!-- claim n_half -->
#
# ## 3. 时间线，以及共用的 PCIe 交换机
#
# 在我们的工作站上，每个 GPU 都有自己通往 PCIe 交换机的 x16 链路，但交换机只通过**一条** x16 上行链路连到 CPU（以及主机内存）。模拟器会把一条链路的某个方向**平均**分给同一时刻经过它的所有复制（max-min 公平分配），并在每次复制开始或结束时重新计算各自的份额。下面做三个实验，每次复制 120 MB：

# %% [markdown] lang="pt"
# A linha pontilhada é `n½ = α·B = 12 kB`: ali uma cópia alcança metade da largura de banda do
# enlace. Abaixo dela o enlace passa a maior parte do tempo esperando; acima dela, está ocupado.
# <!-- claim n_half -->
#
# ## 3. Uma linha do tempo, e um switch PCIe compartilhado
#
# Na nossa estação de trabalho cada GPU tem o seu próprio enlace x16 até o switch PCIe, mas o switch chega
# à CPU (e à memória do host) por **um único** enlace x16 de subida. O simulador divide um sentido
# de enlace **igualmente** entre as cópias que o atravessam no mesmo instante (divisão justa
# max-min) e recalcula as partes sempre que uma cópia começa ou termina. Três experimentos, com
# 120 MB por cópia:

# %%
NBYTES = 120e6


def copies(pairs):
    """Start one copy of NBYTES per (src, dst) pair at time 0; return the finished simulator."""
    sim = Simulator(machine)
    sim.transfers([(src, dst, NBYTES) for src, dst in pairs], label="120 MB")
    sim.run()
    return sim


alone = copies([("/gpu:1", "/cpu:0")])
to_host = copies([("/gpu:1", "/cpu:0"), ("/gpu:2", "/cpu:0"), ("/gpu:3", "/cpu:0")])
two_pairs = copies([("/gpu:0", "/gpu:1"), ("/gpu:2", "/gpu:3")])
for key, run in [("alone", alone), ("three_to_host", to_host), ("two_pairs", two_pairs)]:
    print(t("lesson01.finish", what=t(f"lesson01.{key}"), ms=run.now * 1e3))

# %% slide="figure"
from sim.course.plots import timeline

fig, axes = plt.subplots(2, 1, figsize=(9, 4.5))
timeline.draw(to_host.trace, ax=axes[0], title=t("lesson01.title_to_host"))
timeline.draw(two_pairs.trace, ax=axes[1], title=t("lesson01.title_pairs"))
for ax in axes:
    ax.set_xlim(0, 32)          # same scale (ms) for both panels
plt.show()

# %% [markdown] lang="en"
# Alone, a copy to host memory takes `1 µs + 120 MB / 12 GB/s ≈ 10 ms`. Three at once share the
# uplink: each gets 4 GB/s and **all three** finish at 30 ms. The sharing is fair: no copy gets ahead of the others.
# Two GPU-to-GPU copies between different pairs use different links and both finish in 10 ms.
# <!-- claim shared_uplink: about(alone.now, 0.010, rel=0.01) & about(to_host.now, 0.030, rel=0.01) & holds(len({round(e["ts"] + e["dur"]) for e in to_host.trace.to_chrome_json()["traceEvents"] if e["ph"] == "X"}) == 1, "the three copies to host memory end together") & about(two_pairs.now, 0.010, rel=0.01) -->
#
# This is the whole story of several later lessons: `CentralStorageStrategy` keeps variables on
# the CPU, so every step pushes all GPUs' traffic through that one uplink, while
# `MirroredStrategy`'s ring all-reduce sends GPU to GPU, over links nobody else uses.
#
# Every simulator run keeps a **trace** of what happened (what, where, start, end). Besides
# drawing it, you can export it in the Chrome trace format and open it in
# [Perfetto](https://ui.perfetto.dev) or `chrome://tracing`:
# `to_host.trace.to_chrome_json("trace.json")`.

# %% [markdown] lang="zh"
# 单独进行时，复制到主机内存需要 `1 µs + 120 MB / 12 GB/s ≈ 10 ms`。三个同时进行时要共用上行链路：每个只能分到 4 GB/s，**三个**都在 30 ms 时才结束。分配是公平的：没有哪个复制能抢在其他复制前面。两对不同 GPU 之间的复制走的是不同的链路，都在 10 ms 内完成。<!-- claim shared_uplink -->
#
# 后面好几节课讲的都是这个道理：`CentralStorageStrategy` 把变量放在 CPU 上，所以每一步都要让所有 GPU 的流量挤过这条上行链路；而 `MirroredStrategy` 的环形全归约在 GPU 之间直接发送，走的是别人不用的链路。
#
# 模拟器每次运行都会记录一份**跟踪记录**（trace），写明发生了什么、在哪里、何时开始、何时结束。除了把它画出来，还可以导出成 Chrome trace 格式，用 [Perfetto](https://ui.perfetto.dev) 或 `chrome://tracing` 打开：`to_host.trace.to_chrome_json("trace.json")`。

# %% [markdown] lang="pt"
# Sozinha, uma cópia para a memória do host leva `1 µs + 120 MB / 12 GB/s ≈ 10 ms`. Três ao mesmo
# tempo dividem o enlace de subida: cada uma recebe 4 GB/s e **as três** terminam em 30 ms.
# A divisão é justa: nenhuma cópia passa à frente das outras. Duas cópias GPU a GPU entre pares diferentes
# usam enlaces diferentes, e as duas terminam em 10 ms.
# <!-- claim shared_uplink -->
#
# É disso que tratam, no fundo, várias das próximas lições: a `CentralStorageStrategy` mantém as variáveis
# na CPU, então cada passo espreme o tráfego de todas as GPUs por esse único enlace de subida,
# enquanto o all-reduce em anel da `MirroredStrategy` envia de GPU para GPU, por enlaces que
# ninguém mais usa.
#
# Toda execução do simulador guarda um **registro de eventos** (*trace*) do que aconteceu (o quê,
# onde, início, fim). Além de desenhá-lo, você pode exportá-lo no formato de trace do Chrome e abri-lo no
# [Perfetto](https://ui.perfetto.dev) ou em `chrome://tracing`:
# `to_host.trace.to_chrome_json("trace.json")`.

# %%
doc = to_host.trace.to_chrome_json()
copies_in_trace = [e for e in doc["traceEvents"] if e["ph"] == "X"]
print(len(copies_in_trace), sorted(copies_in_trace[0]))
print({k: copies_in_trace[0][k] for k in ("name", "ts", "dur")})

# %% [markdown] lang="en"
# ## 4. Your own machine, in a few lines
#
# A machine is devices plus links. Here is a made-up box with two GPUs joined by an NVLink bridge
# (25 GB/s per direction) and, for comparison, by PCIe through the CPU. It is hypothetical: a real
# V100 PCIe card has no NVLink connector (bridges fit cards such as the A100 PCIe), but the
# simulator takes any links you describe:

# %% [markdown] lang="zh"
# ## 4. 用几行代码描述你自己的机器
#
# 一台机器就是设备加上链路。下面是一台虚构的机器，有两个 GPU：它们之间有一个 NVLink 桥（每个方向 25 GB/s），作为对比，还可以经过 CPU 走 PCIe。之所以说是虚构的，是因为真实的 V100 PCIe 卡没有 NVLink 接口（A100 PCIe 这类卡才能装桥接器），不过模拟器可以接受你描述的任何链路：

# %% [markdown] lang="pt"
# ## 4. A sua própria máquina, em poucas linhas
#
# Uma máquina é um conjunto de dispositivos e de enlaces. Aqui está uma máquina inventada, com duas
# GPUs ligadas por uma ponte NVLink (25 GB/s por sentido) e, para comparar, por PCIe passando pela
# CPU. Ela é hipotética: uma placa V100 PCIe de verdade não tem conector NVLink (pontes servem em
# placas como a A100 PCIe), mas o simulador aceita qualquer enlace que você descrever:

# %%
from sim.hardware import Machine
from sim.hardware.devices import V100_PCIE, XEON_8380

box = Machine("my-box")
cpu = box.add_device("CPU", XEON_8380)
gpu0, gpu1 = box.add_device("GPU", V100_PCIE), box.add_device("GPU", V100_PCIE)
box.connect(gpu0, cpu, bandwidth=12e9, latency=0.5e-6, kind="pcie")
box.connect(gpu1, cpu, bandwidth=12e9, latency=0.5e-6, kind="pcie")
bridge = box.connect(gpu0, gpu1, bandwidth=25e9, latency=0.6e-6, kind="nvlink")

print([link.kind for link, _ in box.route("/gpu:0", "/gpu:1")])
sim = Simulator(box)
sim.transfer("/gpu:0", "/gpu:1", 100e6)
sim.run()
print(number(sim.now * 1e3, ".4f"), "ms")

# %% [markdown] lang="en"
# The route picks the lowest latency (the bridge). Names follow TensorFlow: `/gpu:0`, `GPU:0` and
# `/job:localhost/replica:0/task:0/device:GPU:0` are the same device.
# <!-- claim picks_bridge: holds([link.kind for link, _ in box.route("/gpu:0", "/gpu:1")] == ["nvlink"], "the route is the NVLink bridge") -->
#
# ## 5. A mistake on purpose
#
# The workstation has 4 GPUs, `/gpu:0` to `/gpu:3`. Ask for a fifth one:

# %% [markdown] lang="zh"
# 路由会选延迟最低的那条（NVLink 桥）。<!-- claim picks_bridge -->设备名与 TensorFlow 一致：`/gpu:0`、`GPU:0` 和 `/job:localhost/replica:0/task:0/device:GPU:0` 指的是同一个设备。
#
# ## 5. 故意犯个错
#
# 这台工作站有 4 个 GPU，从 `/gpu:0` 到 `/gpu:3`。试着要第五个：

# %% [markdown] lang="pt"
# A rota escolhe a menor latência (a ponte). Os nomes seguem o TensorFlow: `/gpu:0`, `GPU:0` e
# `/job:localhost/replica:0/task:0/device:GPU:0` são o mesmo dispositivo.
# <!-- claim picks_bridge -->
#
# ## 5. Um erro de propósito
#
# A estação de trabalho tem 4 GPUs, de `/gpu:0` a `/gpu:3`. Peça uma quinta:

# %%
from sim import show_error   # sim-only: prints the error as "Type: message"

with show_error():
    sim = Simulator(machine)
    sim.transfer("/gpu:0", "/gpu:4", 1e6)

# %% [markdown] lang="en"
# The error names the machine, the device it could not find, and the devices it has.
#
# ## Summary
#
# - A copy costs `α + S / B`: latency dominates below `n½ = α·B`, bandwidth above it. Pack small
#   tensors into large buffers.
# - Over a route, latencies **add up** and the **slowest** link sets the bandwidth.
# - Copies that cross the same link direction at the same time **share** its bandwidth: three
#   GPUs writing to host memory through one PCIe uplink each get a third of it. <!-- claim shared_uplink -->
# - The simulator's trace draws as a timeline and exports to Chrome/Perfetto.
#
# **Exercise 01**: predict how long a copy takes on a given machine, from `machine.route`.

# %% [markdown] lang="zh"
# 错误信息写明了机器、找不到的设备名，以及这台机器实际拥有的设备。
#
# ## 小结
#
# - 一次复制的代价是 `α + S / B`：小于 `n½ = α·B` 时延迟占主导，大于它时带宽占主导。要把小张量打包成大缓冲区。
# - 在一条路由上，各跳的延迟**相加**，**最慢**的链路决定带宽。
# - 同一时刻经过同一链路方向的复制会**共用**它的带宽：三个 GPU 经由同一条 PCIe 上行链路写主机内存，每个只能分到三分之一。<!-- claim shared_uplink -->
# - 模拟器的跟踪记录可以画成时间线，也可以导出到 Chrome/Perfetto。
#
# **练习 01**：根据 `machine.route`，预测在给定机器上一次复制需要多长时间。

# %% [markdown] lang="pt"
# O erro diz qual é a máquina, qual dispositivo não foi encontrado e quais dispositivos ela tem.
#
# ## Resumo
#
# - Uma cópia custa `α + S / B`: a latência domina abaixo de `n½ = α·B`, a largura de banda acima
#   dele. Empacote tensores pequenos em buffers grandes.
# - Ao longo de uma rota, as latências **se somam** e o enlace **mais lento** define a largura de
#   banda.
# - Cópias que atravessam o mesmo sentido de um enlace ao mesmo tempo **dividem** a sua largura de
#   banda: três GPUs escrevendo na memória do host por um único enlace PCIe de subida recebem um
#   terço cada. <!-- claim shared_uplink -->
# - O registro de eventos do simulador vira uma linha do tempo e pode ser exportado para
#   Chrome/Perfetto.
#
# **Exercício 01**: preveja quanto tempo uma cópia leva em uma determinada máquina, a partir de
# `machine.route`.
