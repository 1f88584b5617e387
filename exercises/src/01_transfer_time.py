# %% [markdown] lang="en"
# # Exercise 01 · Predict a transfer time
#
# Write `transfer_time(machine, src, dst, nbytes)`: the seconds a copy of `nbytes` bytes from
# device `src` to device `dst` takes on an otherwise idle `machine`, as the simulator computes it.
#
# - `machine.route(src, dst)` returns the hops as a list of `(link, direction)` pairs;
# - each `link` has `link.latency` (seconds) and `link.bandwidth` (bytes per second, per direction);
# - every hop adds its latency; the bytes stream through all hops at once, so the slowest hop sets
#   the pace.
#
# The checker compares your answer with the simulator on six routes: two on the PCIe workstation
# (GPU to GPU through the switch, GPU to host memory through the shared uplink), a double NVLink on
# a DGX-1, a DGX-1 pair with no NVLink (PCIe and the CPUs' QPI link), two DGX
# A100 nodes over InfiniBand, and a small message between CPU servers over 25 GbE.
# <!-- claim six_routes: holds([(c[0], c[1]) for c in __import__("sim.course.exercises.lesson01_transfer_time", fromlist=["CASES"]).CASES] == [("workstation-4gpu", {}), ("workstation-4gpu", {}), ("dgx1-v100", {}), ("dgx1-v100", {}), ("dgx-a100-cluster", {"nodes": 2}), ("cpu-cluster", {"gbe": 25})], "six routes: 2 on the workstation, 2 on a DGX-1, 2 DGX A100 nodes, CPU servers on 25 GbE") & holds(__import__("sim.course.exercises.lesson01_transfer_time", fromlist=["CASES"]).CASES[-1][-1] < 1e5, "the last message is small") -->

# %% [markdown] lang="zh"
# # 练习 01 · 预测传输时间
#
# 编写 `transfer_time(machine, src, dst, nbytes)`：在一台没有其他流量的机器 `machine` 上，从设备 `src` 向设备 `dst` 复制 `nbytes` 字节需要多少秒（与模拟器的算法一致）。
#
# - `machine.route(src, dst)` 以 `(link, direction)` 对的列表形式返回各跳；
# - 每个 `link` 都有 `link.latency`（秒）和 `link.bandwidth`（字节/秒，单个方向）；
# - 每一跳都会增加它的延迟；数据同时流过所有跳，所以最慢的那一跳决定速度。
#
# 检查器会在六条路由上把你的答案与模拟器比较：PCIe 工作站上的两条（GPU 经交换机到 GPU，GPU 经共用的上行链路到主机内存）、DGX-1 上的双 NVLink、DGX-1 上一对没有 NVLink 的 GPU（走 PCIe 以及两个 CPU 之间的 QPI 链路）、通过 InfiniBand 相连的两台 DGX A100，以及 CPU 服务器之间通过 25 GbE 发送的一条小消息。<!-- claim six_routes -->

# %% [markdown] lang="pt"
# # Exercício 01 · Preveja o tempo de uma transferência
#
# Escreva `transfer_time(machine, src, dst, nbytes)`: quantos segundos uma cópia de `nbytes` bytes
# do dispositivo `src` para o dispositivo `dst` leva em uma `machine` sem nenhum outro tráfego, do
# jeito que o simulador calcula.
#
# - `machine.route(src, dst)` devolve os saltos como uma lista de pares `(link, direction)`;
# - cada `link` tem `link.latency` (segundos) e `link.bandwidth` (bytes por segundo, por sentido);
# - cada salto acrescenta a sua latência; os bytes atravessam todos os saltos ao mesmo tempo, então
#   o salto mais lento dita o ritmo.
#
# O verificador compara a sua resposta com o simulador em seis rotas: duas na estação de trabalho
# PCIe (de GPU para GPU passando pelo switch, de GPU para a memória do host pelo enlace de
# subida compartilhado), um NVLink duplo em um DGX-1, um par de GPUs de um DGX-1 sem NVLink (PCIe e o enlace QPI entre as
# CPUs), dois nós DGX A100 ligados por InfiniBand e uma mensagem pequena entre servidores de CPU
# por 25 GbE.
# <!-- claim six_routes -->

# %%
from sim.course.exercises.lesson01_transfer_time import check_transfer_time

# %%
def transfer_time(machine, src, dst, nbytes):
    ### BEGIN SOLUTION
    hops = machine.route(src, dst)
    latency = sum(link.latency for link, _ in hops)
    bottleneck = min(link.bandwidth for link, _ in hops)
    return latency + nbytes / bottleneck
    ### END SOLUTION

# %%
check_transfer_time(transfer_time)
