# %% [markdown] lang="en"
# # Exercise 08b · The critical batch size from measured gradient norms
#
# In a synchronous step each replica has its **local** gradient (batch `b_small`, the per-replica
# batch) and the **all-reduced** gradient (batch `b_big`, the global batch). Their squared norms,
# measured over many steps at the same point of training, are in `small_sq_norms` and
# `big_sq_norms`. For a batch of `B` examples `E|G_B|² = |G|² + tr(Σ)/B`, so each pair gives
#
# - `|G|² ≈ (b_big·|G_big|² - b_small·|G_small|²) / (b_big - b_small)`,
# - `tr(Σ) ≈ (|G_small|² - |G_big|²) / (1/b_small - 1/b_big)`.
#
# Write `critical_batch_size(b_small, b_big, small_sq_norms, big_sq_norms)` returning the noise
# scale `B_simple = tr(Σ) / |G|²`, McCandlish et al.'s estimate of the critical batch size. One
# pair is far too noisy: average each of the two estimates over all the pairs, then divide.

# %% [markdown] lang="zh"
# # 练习 08b · 根据测得的梯度范数估计临界批次大小
#
# 在同步训练的一步中，每个副本都有自己的**本地**梯度（批次 `b_small`，即每个副本的批次）和**全归约之后**的梯度（批次 `b_big`，即全局批次）。在训练的同一位置、经过多步测得的这两个梯度的范数平方，分别存放在 `small_sq_norms` 和 `big_sq_norms` 中。对于含 `B` 个样本的批次，`E|G_B|² = |G|² + tr(Σ)/B`，所以每一对测量都能给出：
#
# - `|G|² ≈ (b_big·|G_big|² - b_small·|G_small|²) / (b_big - b_small)`，
# - `tr(Σ) ≈ (|G_small|² - |G_big|²) / (1/b_small - 1/b_big)`。
#
# 编写 `critical_batch_size(b_small, b_big, small_sq_norms, big_sq_norms)`，返回噪声尺度 `B_simple = tr(Σ) / |G|²`，这是 McCandlish 等人对临界批次大小的估计。单独一对测量的噪声太大：先在所有测量对上分别对这两个估计值求平均，再相除。

# %% [markdown] lang="pt"
# # Exercício 08b · O tamanho crítico do lote a partir de normas de gradiente medidas
#
# Em um passo síncrono, cada réplica tem o seu gradiente **local** (lote `b_small`, o lote por
# réplica) e o gradiente **após o all-reduce** (lote `b_big`, o lote global). As normas ao quadrado
# dos dois, medidas ao longo de muitos passos no mesmo ponto do treinamento, estão em
# `small_sq_norms` e `big_sq_norms`. Para um lote de `B` exemplos, `E|G_B|² = |G|² + tr(Σ)/B`; então
# cada par dá
#
# - `|G|² ≈ (b_big·|G_big|² - b_small·|G_small|²) / (b_big - b_small)`,
# - `tr(Σ) ≈ (|G_small|² - |G_big|²) / (1/b_small - 1/b_big)`.
#
# Escreva `critical_batch_size(b_small, b_big, small_sq_norms, big_sq_norms)` que retorne a escala de
# ruído `B_simple = tr(Σ) / |G|²`, a estimativa de McCandlish et al. para o tamanho crítico do lote.
# Um par sozinho é ruidoso demais: faça a média de cada uma das duas estimativas sobre todos os
# pares e só então divida.

# %%
import numpy as np
from sim.course.exercises.lesson08_noise_scale import check_critical_batch_size

# %%
def critical_batch_size(b_small, b_big, small_sq_norms, big_sq_norms):
    ### BEGIN SOLUTION
    small = np.mean(small_sq_norms)
    big = np.mean(big_sq_norms)
    true_gradient_sq = (b_big * big - b_small * small) / (b_big - b_small)
    trace_sigma = (small - big) / (1 / b_small - 1 / b_big)
    return trace_sigma / true_gradient_sq
    ### END SOLUTION

# %%
check_critical_batch_size(critical_batch_size)
