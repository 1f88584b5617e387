# %% [markdown] lang="en"
# # Exercise 07b · The largest stable learning rate of asynchronous training
#
# `N` workers whose steps all take the same time train `f(x) = x²/2` asynchronously: after the
# first round every update is exactly `N − 1` updates stale. Write
# `largest_stable_lr(workers, staleness_aware)` returning the largest learning rate at which the
# training still converges, for plain asynchronous SGD and for the staleness-aware rule (the rate
# divided by `1 + staleness`).
#
# `is_stable(workers, lr, staleness_aware)` runs that training on the simulator and says whether it
# converged: search between a rate that converges and one that does not (bisection). The checker
# compares with the exact limit (within 3%).

# %% [markdown] lang="zh"
# # 练习 07b · 异步训练的最大稳定学习率
#
# `N` 个每一步耗时相同的工作进程异步训练 `f(x) = x²/2`：第一轮之后，每次更新的陈旧性都恰好是 `N − 1`。编写 `largest_stable_lr(workers, staleness_aware)`，返回训练仍然收敛的最大学习率，分别针对普通异步 SGD 和感知陈旧性的规则（学习率除以 `1 + 陈旧性`）。
#
# `is_stable(workers, lr, staleness_aware)` 会在模拟器上运行这样的训练，并告诉你它是否收敛：请在一个收敛的学习率和一个不收敛的学习率之间搜索（二分法）。检查器会与精确的上限比较（误差 3% 以内）。

# %% [markdown] lang="pt"
# # Exercício 07b · A maior taxa de aprendizado estável do treinamento assíncrono
#
# `N` workers cujos passos levam todos o mesmo tempo treinam `f(x) = x²/2` de forma assíncrona:
# depois da primeira rodada toda atualização tem defasagem exatamente `N − 1`. Escreva
# `largest_stable_lr(workers, staleness_aware)` que devolva a maior taxa de aprendizado com a qual o
# treinamento ainda converge, para o SGD assíncrono simples e para a regra ciente da defasagem (a
# taxa dividida por `1 + defasagem`).
#
# `is_stable(workers, lr, staleness_aware)` roda esse treinamento no simulador e diz se ele
# convergiu: procure entre uma taxa que converge e outra que não converge (bissecção). O verificador
# compara com o limite exato (com tolerância de 3%).

# %%
from sim.course.exercises.lesson07_stable_lr import check_largest_stable_lr, is_stable

# %%
def largest_stable_lr(workers, staleness_aware):
    ### BEGIN SOLUTION
    lo, hi = 0.0, 2.5          # 2 is the limit without delay; no rule here goes above it
    for _ in range(10):
        mid = (lo + hi) / 2
        if is_stable(workers, mid, staleness_aware):
            lo = mid
        else:
            hi = mid
    return lo
    ### END SOLUTION

# %%
check_largest_stable_lr(largest_stable_lr)
