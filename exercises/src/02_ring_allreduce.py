# %% [markdown] lang="en"
# # Exercise 02a · Ring all-reduce by hand
#
# Write `ring_allreduce(arrays)`: `arrays` holds one 1-D NumPy array per device (all the same
# length `n`); return a list with one array per device, each equal to the sum of all inputs.
# Do it the way the ring does, moving one segment per device per step:
#
# 1. cut `[0, n)` into `p` segments with the boundaries `(k * n) // p` for `k = 0..p`
#    (with `n < p` some segments are empty, and that is fine);
# 2. reduce-scatter, `p - 1` steps: at step `s` device `r` sends segment `(r - s - 1) mod p` to
#    device `r + 1`, which adds it to its own copy. Read every message before anyone writes:
#    all sends of a step happen at the same time;
# 3. all-gather, `p - 1` steps: at step `s` device `r` sends segment `(r - s) mod p` to `r + 1`,
#    which overwrites its copy.
#
# Do not modify the input arrays (they are the devices' gradients). The checker tries random
# device counts and lengths, including fewer elements than devices, and integer arrays.

# %% [markdown] lang="zh"
# # 练习 02a · 手写环形全归约
#
# 编写 `ring_allreduce(arrays)`：`arrays` 中每个设备对应一个一维 NumPy 数组（长度都是 `n`）；返回一个列表，每个设备对应一个数组，且都等于所有输入之和。请按环形算法的方式实现，每一步每个设备只发送一个数据段：
#
# 1. 用边界 `(k * n) // p`（`k = 0..p`）把 `[0, n)` 切成 `p` 个数据段（当 `n < p` 时有些数据段为空，这没有问题）；
# 2. 归约-分散（reduce-scatter），共 `p - 1` 步：第 `s` 步中，设备 `r` 把数据段 `(r - s - 1) mod p` 发给设备 `r + 1`，后者把它加到自己的拷贝上。在任何设备写入之前先读出所有消息：同一步的所有发送是同时发生的；
# 3. 全收集（all-gather），共 `p - 1` 步：第 `s` 步中，设备 `r` 把数据段 `(r - s) mod p` 发给 `r + 1`，后者用它覆盖自己的拷贝。
#
# 不要修改输入数组（它们是各设备上的梯度）。检查器会随机测试不同的设备数和长度，包括元素少于设备数的情况以及整数数组。

# %% [markdown] lang="pt"
# # Exercício 02a · All-reduce em anel feito à mão
#
# Escreva `ring_allreduce(arrays)`: `arrays` tem um array NumPy 1-D por dispositivo (todos com o
# mesmo tamanho `n`); retorne uma lista com um array por dispositivo, cada um igual à soma de todas
# as entradas. Faça como o anel faz, movendo um segmento por dispositivo a cada etapa:
#
# 1. corte `[0, n)` em `p` segmentos com os limites `(k * n) // p` para `k = 0..p`
#    (com `n < p` alguns segmentos ficam vazios, e tudo bem);
# 2. reduce-scatter, `p - 1` etapas: na etapa `s` o dispositivo `r` envia o segmento
#    `(r - s - 1) mod p` ao dispositivo `r + 1`, que o soma à sua cópia. Leia todas as mensagens
#    antes que qualquer dispositivo escreva: os envios de uma etapa acontecem ao mesmo tempo;
# 3. all-gather, `p - 1` etapas: na etapa `s` o dispositivo `r` envia o segmento `(r - s) mod p`
#    a `r + 1`, que sobrescreve a sua cópia.
#
# Não modifique os arrays de entrada (são os gradientes dos dispositivos). O verificador testa
# números aleatórios de dispositivos e tamanhos, inclusive menos elementos do que dispositivos, e
# arrays de inteiros.

# %%
import numpy as np
from sim.course.exercises.lesson02_ring_allreduce import check_ring_allreduce

# %%
def ring_allreduce(arrays):
    ### BEGIN SOLUTION
    p, n = len(arrays), len(arrays[0])
    buf = [np.array(a, copy=True) for a in arrays]
    bounds = [(k * n) // p for k in range(p + 1)]

    def seg(s):
        return slice(bounds[s % p], bounds[s % p + 1])

    for step in range(p - 1):                      # reduce-scatter
        sends = [(r, (r - step - 1) % p) for r in range(p)]
        data = [buf[r][seg(s)].copy() for r, s in sends]
        for (r, s), d in zip(sends, data):
            buf[(r + 1) % p][seg(s)] += d
    for step in range(p - 1):                      # all-gather
        sends = [(r, (r - step) % p) for r in range(p)]
        data = [buf[r][seg(s)].copy() for r, s in sends]
        for (r, s), d in zip(sends, data):
            buf[(r + 1) % p][seg(s)] = d
    return buf
    ### END SOLUTION

# %%
check_ring_allreduce(ring_allreduce)
