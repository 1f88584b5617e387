# %% [markdown] lang="en"
# # Exercise 11 · Choose the plan for a budget and a deadline
#
# A team must train ResNet-50 to a recipe's target, may spend at most `budget` and must finish
# within `deadline_hours`. `options` maps a name to `(devices, batch_per_device, step_seconds)`: the
# cluster's GPUs, the images each GPU takes per step, and the time of one step that `sim.plan`
# simulated on that cluster. `epochs_at(B)` gives the recipe's published epochs to the target at a
# global batch `B` (as lesson 11's recipes do), and `inf` past the largest batch the recipe is known
# to reach the target at. Write
# `choose_plan(options, epochs_at, examples, price, budget, deadline_hours)` that returns the name
# of the option that reaches the target soonest among those that fit **both** the budget and the
# deadline, or `None` when none does:
#
# - the global batch is `B = devices × batch_per_device`, and the steps to target are
#   `ceil(epochs_at(B) × examples / B)` (`examples`: the images in one epoch);
# - the time is steps × `step_seconds` (in hours: divide by 3600);
# - the cost is hours × `devices` × `price` (per GPU-hour).
#
# For example with Goyal's recipe (90 epochs up to a batch of 8,192), `"16x dgx1-p100, EDR"` (128
# GPUs, 64 images each, a global batch of 8,192) needs 14,076 steps of 0.260 s: 1.02 hours, 260 at
# 2.0 per GPU-hour. With 64 images per GPU on 256 GPUs the batch is 16,384, past the recipe: that
# option never reaches the target.

# %% [markdown] lang="zh"
# # 练习 11 · 为预算和期限选出方案
#
# 一个团队要把 ResNet-50 训练到某个配方的目标，花费不能超过 `budget`，并且必须在 `deadline_hours` 小时之内完成。`options` 把一个名称映射到 `(devices, batch_per_device, step_seconds)`：集群的 GPU 数、每个 GPU 每步处理的图像数，以及 `sim.plan` 在该集群上模拟得到的每步时间。`epochs_at(B)` 给出配方在全局批次 `B` 下已发表的达到目标所需周期数（与第 11 课的配方一样）；如果批次超过了配方已知能达到目标的最大批次，它返回 `inf`。编写 `choose_plan(options, epochs_at, examples, price, budget, deadline_hours)`，在**同时**满足预算和期限的选项中，返回最早达到目标的那个选项的名称；如果没有任何选项满足条件，返回 `None`：
#
# - 全局批次是 `B = devices × batch_per_device`，达到目标所需的步数是 `ceil(epochs_at(B) × examples / B)`（`examples`：一个周期的图像数）；
# - 时间是步数 × `step_seconds`（换算成小时要除以 3600）；
# - 费用是小时数 × `devices` × `price`（每 GPU 小时的价格）。
#
# 例如，使用 Goyal 的配方（批次 8,192 以内都是 90 个周期）时，`"16x dgx1-p100, EDR"`（128 个 GPU，每个 64 张图像，全局批次 8,192）需要 14,076 步，每步 0.260 s：共 1.02 小时，按每 GPU 小时 2.0 计算，费用为 260。如果在 256 个 GPU 上每个 GPU 用 64 张图像，批次就是 16,384，超出了配方的范围：这个选项永远达不到目标。

# %% [markdown] lang="pt"
# # Exercício 11 · Escolha o plano para um orçamento e um prazo
#
# Uma equipe precisa treinar a ResNet-50 até a meta de uma receita, pode gastar no máximo `budget` e
# precisa terminar em até `deadline_hours` horas. `options` associa um nome a
# `(devices, batch_per_device, step_seconds)`: as GPUs do cluster, as imagens que cada GPU processa
# por passo e o tempo de um passo que o `sim.plan` simulou nesse cluster. `epochs_at(B)` dá as
# épocas publicadas da receita até a meta com um lote global `B` (como fazem as receitas da lição
# 11), e `inf` acima do maior lote com que se sabe que a receita chega à meta. Escreva
# `choose_plan(options, epochs_at, examples, price, budget, deadline_hours)` que devolva o nome da
# opção que chega à meta mais cedo entre as que cabem **ao mesmo tempo** no orçamento e no prazo,
# ou `None` quando nenhuma cabe:
#
# - o lote global é `B = devices × batch_per_device`, e os passos até a meta são
#   `ceil(epochs_at(B) × examples / B)` (`examples`: as imagens de uma época);
# - o tempo é passos × `step_seconds` (em horas: divida por 3600);
# - o custo é horas × `devices` × `price` (por GPU-hora).
#
# Por exemplo, com a receita de Goyal (90 épocas até um lote de 8.192), `"16x dgx1-p100, EDR"` (128
# GPUs, 64 imagens cada, um lote global de 8.192) precisa de 14.076 passos de 0,260 s: 1,02 hora,
# 260 a 2,0 por GPU-hora. Com 64 imagens por GPU em 256 GPUs o lote é 16.384, além da receita: essa
# opção nunca chega à meta.

# %%
from sim.course.exercises.lesson11_plan import EXAMPLES, PRICE, check_choose_plan, options

for name, option in options().items():     # name: (devices, batch_per_device, step_seconds)
    print(f"{name:<28} {option}")
print(EXAMPLES, PRICE)

# %%
import math


def choose_plan(options, epochs_at, examples, price, budget, deadline_hours):
    ### BEGIN SOLUTION
    best = None
    for name, (devices, batch_per_device, step_seconds) in options.items():
        batch = devices * batch_per_device
        epochs = epochs_at(batch)
        if not math.isfinite(epochs):
            continue
        hours = math.ceil(epochs * examples / batch) * step_seconds / 3600
        cost = hours * devices * price
        if cost <= budget and hours <= deadline_hours and (best is None or hours < best[0]):
            best = (hours, name)
    return best[1] if best else None
    ### END SOLUTION

# %%
check_choose_plan(choose_plan)
