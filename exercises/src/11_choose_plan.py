# %% [markdown] lang="en"
# # Exercise 11 · Choose the plan for a budget and a deadline
#
# A team must train ResNet-50 to its target, may spend at most `budget` and must finish within
# `deadline_hours`. `options` maps a name to `(devices, batch_per_device, step_seconds)`: the
# cluster's GPUs, the images each GPU takes per step, and the time of one step that `sim.plan`
# simulated on that cluster. Write
# `choose_plan(options, s_min, b_crit, price, budget, deadline_hours)` returning the name of the
# option that reaches the target soonest among those that fit **both** the budget and the deadline,
# or `None` when none does:
#
# - the global batch is `B = devices × batch_per_device`, and the steps to target are lesson 11's
#   curve, `s_min × (1 + b_crit / B)`;
# - the time is steps × `step_seconds` (in hours: divide by 3600);
# - the cost is hours × devices × `price` (per device-hour).
#
# For example with `b_crit = 16384`, `"16x dgx1-p100, EDR"` (128 GPUs, 64 images each, a global
# batch of 8192) needs 21,113 steps of 0.3035 s: 1.78 hours, 456 at 2.0 per GPU-hour.

# %% [markdown] lang="zh"
# # 练习 11 · 为预算和期限选出方案
#
# 一个团队要把 ResNet-50 训练到目标，花费不能超过 `budget`，并且必须在 `deadline_hours` 小时之内完成。`options` 把一个名称映射到 `(devices, batch_per_device, step_seconds)`：集群的 GPU 数、每个 GPU 每步处理的图像数，以及 `sim.plan` 在该集群上模拟得到的每步时间。编写 `choose_plan(options, s_min, b_crit, price, budget, deadline_hours)`，在**同时**满足预算和期限的选项中，返回最早达到目标的那个选项的名称；如果没有任何选项满足条件，返回 `None`：
#
# - 全局批次是 `B = devices × batch_per_device`，达到目标所需的步数用第 11 课的曲线 `s_min × (1 + b_crit / B)`；
# - 时间是步数 × `step_seconds`（换算成小时要除以 3600）；
# - 费用是小时数 × devices × `price`（每设备小时的价格）。
#
# 例如，当 `b_crit = 16384` 时，`"16x dgx1-p100, EDR"`（128 个 GPU，每个 64 张图像，全局批次 8192）需要 21,113 步，每步 0.3035 秒：共 1.78 小时，按每 GPU 小时 2.0 计算，费用为 456。

# %% [markdown] lang="pt"
# # Exercício 11 · Escolha o plano para um orçamento e um prazo
#
# Uma equipe precisa treinar a ResNet-50 até a meta, pode gastar no máximo `budget` e precisa
# terminar em até `deadline_hours` horas. `options` associa um nome a
# `(devices, batch_per_device, step_seconds)`: as GPUs do cluster, as imagens que cada GPU processa
# por passo e o tempo de um passo que o `sim.plan` simulou nesse cluster. Escreva
# `choose_plan(options, s_min, b_crit, price, budget, deadline_hours)` que devolve o nome da opção
# que chega à meta mais cedo entre as que cabem **ao mesmo tempo** no orçamento e no prazo, ou
# `None` quando nenhuma cabe:
#
# - o lote global é `B = devices × batch_per_device`, e os passos até a meta são a curva da lição
#   11, `s_min × (1 + b_crit / B)`;
# - o tempo é passos × `step_seconds` (em horas: divida por 3600);
# - o custo é horas × devices × `price` (por dispositivo-hora).
#
# Por exemplo, com `b_crit = 16384`, `"16x dgx1-p100, EDR"` (128 GPUs, 64 imagens cada, um lote
# global de 8192) precisa de 21.113 passos de 0,3035 s: 1,78 hora, 456 a 2,0 por GPU-hora.

# %%
from sim.course.exercises.lesson11_plan import PRICE, S_MIN, check_choose_plan, options

for name, option in options().items():     # name: (devices, batch_per_device, step_seconds)
    print(f"{name:<32} {option}")
print(round(S_MIN, 1), PRICE)

# %%
def choose_plan(options, s_min, b_crit, price, budget, deadline_hours):
    ### BEGIN SOLUTION
    best = None
    for name, (devices, batch_per_device, step_seconds) in options.items():
        steps = s_min * (1 + b_crit / (devices * batch_per_device))
        hours = steps * step_seconds / 3600
        cost = hours * devices * price
        if cost <= budget and hours <= deadline_hours and (best is None or hours < best[0]):
            best = (hours, name)
    return best[1] if best else None
    ### END SOLUTION

# %%
check_choose_plan(choose_plan)
