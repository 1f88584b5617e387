# %% [markdown] lang="en"
# # Exercise 02b · Choose the fastest all-reduce
#
# Write `choose_algorithm(p, nbytes, alpha, beta)`: `p` devices sit on one non-blocking switch
# (each device has one full-duplex port), a message of `m` bytes costs `alpha + m * beta`
# seconds. Return the fastest of `"reduce_to_one"`, `"ring"`, `"halving_doubling"` (only when
# `p` is a power of two) and `"binomial_tree"` for an all-reduce of `nbytes` bytes.
#
# Use the closed forms of the lesson (you may call `sim.collectives.cost.closed_form`, or write
# them yourself). The checker compares your answer with the simulator's fastest on that switch.

# %% [markdown] lang="zh"
# # 练习 02b · 选出最快的全归约算法
#
# 编写 `choose_algorithm(p, nbytes, alpha, beta)`：`p` 个设备连在同一台无阻塞交换机上（每个设备一个全双工端口），发送 `m` 字节的消息耗时 `alpha + m * beta` 秒。对于 `nbytes` 字节的全归约，请从 `"reduce_to_one"`、`"ring"`、`"halving_doubling"`（仅当 `p` 是 2 的幂时可用）和 `"binomial_tree"` 中返回最快的一个。
#
# 请使用本课中的闭式公式（可以调用 `sim.collectives.cost.closed_form`，也可以自己写出公式）。检查器会把你的答案与模拟器在这台交换机上测得的最快算法进行比较。

# %% [markdown] lang="pt"
# # Exercício 02b · Escolha o all-reduce mais rápido
#
# Escreva `choose_algorithm(p, nbytes, alpha, beta)`: `p` dispositivos estão ligados a um único
# switch sem bloqueio (cada dispositivo tem uma porta full-duplex), e uma mensagem de `m` bytes custa
# `alpha + m * beta` segundos. Retorne o mais rápido entre `"reduce_to_one"`, `"ring"`,
# `"halving_doubling"` (só quando `p` é potência de dois) e `"binomial_tree"` para um all-reduce de
# `nbytes` bytes.
#
# Use as fórmulas fechadas da lição (você pode chamar `sim.collectives.cost.closed_form` ou
# escrevê-las você mesmo). O verificador compara sua resposta com o mais rápido no simulador
# nesse switch.

# %%
from sim.collectives.cost import closed_form
from sim.course.exercises.lesson02_choose_algorithm import check_choose_algorithm

# %%
def choose_algorithm(p, nbytes, alpha, beta):
    ### BEGIN SOLUTION
    candidates = ["reduce_to_one", "ring", "binomial_tree"]
    if p & (p - 1) == 0:
        candidates.append("halving_doubling")
    return min(candidates, key=lambda name: closed_form(name, p, nbytes, alpha, beta))
    ### END SOLUTION

# %%
check_choose_algorithm(choose_algorithm)
