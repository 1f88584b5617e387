# %% [markdown] lang="en"
# # Exercise 09 · The fastest cluster within a budget
#
# You must train a model on `samples` training samples (for example 90 epochs of ImageNet) and
# may spend at most `budget`. `options` maps a name to `(machine, nodes, network, price)`: that
# many nodes of a preset on a network, at `price` per node-hour (made-up classroom prices, not
# any provider's). Write `fastest_within_budget(model, options, samples, budget)` returning the
# name of the option that finishes soonest among those whose cost fits in the budget, or `None`
# when none fits:
#
# - an option's throughput is
#   `scale(model, machine, nodes=[nodes], network=network, bucket_mb=64)[0]["samples_per_s"]`
#   (lesson 09's simulator, default strategy, 64 MB packs sent as they are ready);
# - its time is `samples / samples_per_s` seconds, and its cost, hours × `nodes` × `price`.
#
# For example ResNet-50 on `"2x big-basin, 25 GbE"` runs about 3,260 images/s: 90 epochs take
# about 9.8 hours and cost about 9.8 × 2 × 20 ≈ 393. The fastest cluster is not always the
# biggest one, and the cheapest per hour is not always the cheapest in total.

# %% [markdown] lang="zh"
# # 练习 09 · 预算之内最快的集群
#
# 你要用 `samples` 个训练样本训练一个模型（例如 ImageNet 的 90 个周期），花费不能超过 `budget`。`options` 把一个名称映射到 `(machine, nodes, network, price)`：`nodes` 个 `machine` 预设节点，通过 `network` 网络相连，每节点每小时价格为 `price`（课堂上编造的价格，不是任何云服务商的）。编写 `fastest_within_budget(model, options, samples, budget)`，在费用不超出预算的选项中，返回最先完成训练的那个选项的名称；如果没有任何选项在预算之内，返回 `None`：
#
# - 一个选项的吞吐量是 `scale(model, machine, nodes=[nodes], network=network, bucket_mb=64)[0]["samples_per_s"]`（第 09 课的模拟器，使用默认的策略，64 MB 的包一就绪就发出）；
# - 它的耗时是 `samples / samples_per_s` 秒，费用是小时数 × `nodes` × `price`。
#
# 例如，ResNet-50 在 `"2x big-basin, 25 GbE"` 上每秒约处理 3,260 张图像：90 个周期大约需要 9.8 小时，费用约为 9.8 × 2 × 20 ≈ 393。最快的集群不一定是最大的那个，每小时最便宜的也不一定总价最便宜。

# %% [markdown] lang="pt"
# # Exercício 09 · O cluster mais rápido dentro de um orçamento
#
# Você precisa treinar um modelo com `samples` amostras de treinamento (por exemplo 90 épocas do
# ImageNet) e pode gastar no máximo `budget`. `options` associa um nome a
# `(machine, nodes, network, price)`: `nodes` nós do preset `machine`, ligados pela rede `network`, a `price` por nó-hora
# (preços inventados para a aula, não os de nenhum provedor). Escreva
# `fastest_within_budget(model, options, samples, budget)` que devolva o nome da opção que
# termina primeiro entre aquelas cujo custo cabe no orçamento, ou `None` quando nenhuma cabe:
#
# - a vazão de uma opção é
#   `scale(model, machine, nodes=[nodes], network=network, bucket_mb=64)[0]["samples_per_s"]`
#   (o simulador da lição 09, com a estratégia padrão e pacotes de 64 MB enviados assim que ficam
#   prontos);
# - seu tempo é `samples / samples_per_s` segundos, e seu custo, horas × `nodes` × `price`.
#
# Por exemplo, a ResNet-50 em `"2x big-basin, 25 GbE"` processa cerca de 3.260 imagens/s: 90 épocas
# levam cerca de 9,8 horas e custam cerca de 9,8 × 2 × 20 ≈ 393. O cluster mais rápido nem sempre
# é o maior, e o mais barato por hora nem sempre é o mais barato no total.

# %%
from sim.course.exercises.lesson09_fastest_cluster import EPOCHS_90, OPTIONS, check_fastest_within_budget
from sim.i18n import number
from sim.scaleout import scale

for name, option in OPTIONS.items():     # name: (machine, nodes, network, price per node-hour)
    print(f"{name:<30} {option}")
print(number(EPOCHS_90, ","))            # 90 epochs of ImageNet-1k's 1,281,167 training images

# %%
def fastest_within_budget(model, options, samples, budget):
    ### BEGIN SOLUTION
    best = None
    for name, (machine, nodes, network, price) in options.items():
        rate = scale(model, machine, nodes=[nodes], network=network, bucket_mb=64)[0]["samples_per_s"]
        hours = samples / rate / 3600
        if hours * nodes * price <= budget and (best is None or hours < best[0]):
            best = (hours, name)
    return best[1] if best else None
    ### END SOLUTION

# %%
check_fastest_within_budget(fastest_within_budget)
