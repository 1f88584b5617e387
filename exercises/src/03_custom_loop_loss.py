# %% [markdown] lang="en"
# # Exercise 03 · The loss of a custom training loop
#
# Write `compute_loss(labels, predictions, model_losses, global_batch_size)`, the function each
# replica calls inside its training step (as in TensorFlow's custom-training tutorial):
#
# 1. compute the per-example losses with `loss_object` (defined below, `reduction=NONE`);
# 2. turn them into this replica's share of the global mean with
#    `tf.nn.compute_average_loss`;
# 3. if `model_losses` (the regularization losses) is not empty, add their sum scaled with
#    `tf.nn.scale_regularization_loss`;
# 4. return the loss.
#
# The checker trains a small regularized model with your function under `MirroredStrategy` on 1,
# 2 and 4 replicas, with global batches that split evenly and unevenly, and compares the weights
# with the same training on one device. If something is off, it tries to name the mistake.
# <!-- claim replica_counts: holds({r for r, _ in __import__("sim.course.exercises.lesson03_custom_loop_loss", fromlist=["SETUPS"]).SETUPS} == {1, 2, 4}, "1, 2 and 4 replicas") & holds(any(g % r for r, g in __import__("sim.course.exercises.lesson03_custom_loop_loss", fromlist=["SETUPS"]).SETUPS) and any(r > 1 and g % r == 0 for r, g in __import__("sim.course.exercises.lesson03_custom_loop_loss", fromlist=["SETUPS"]).SETUPS), "batches that split evenly and unevenly") -->

# %% [markdown] lang="zh"
# # 练习 03 · 自定义训练循环中的损失
#
# 编写 `compute_loss(labels, predictions, model_losses, global_batch_size)`，即每个副本在训练步中调用的函数（与 TensorFlow 的自定义训练教程一样）：
#
# 1. 用 `loss_object`（在下面定义，`reduction=NONE`）计算逐样本损失；
# 2. 用 `tf.nn.compute_average_loss` 把它们变成本副本在全局均值中所占的份额；
# 3. 如果 `model_losses`（正则化损失）不为空，把它们的和用 `tf.nn.scale_regularization_loss` 缩放后加上去；
# 4. 返回损失。
#
# 检查器会用你的函数在 `MirroredStrategy` 下以 1、2、4 个副本训练一个带正则化的小模型，全局批次有的能均匀切分，有的不能，然后把权重与单个设备上同样的训练结果相比较。如果有问题，它会尽量指出错在哪里。<!-- claim replica_counts -->

# %% [markdown] lang="pt"
# # Exercício 03 · A perda de um loop de treinamento personalizado
#
# Escreva `compute_loss(labels, predictions, model_losses, global_batch_size)`, a função que cada
# réplica chama dentro do seu passo de treinamento (como no tutorial de treinamento personalizado
# do TensorFlow):
#
# 1. calcule as perdas por exemplo com `loss_object` (definido abaixo, `reduction=NONE`);
# 2. transforme-as na parcela desta réplica na média global com `tf.nn.compute_average_loss`;
# 3. se `model_losses` (as perdas de regularização) não estiver vazio, acrescente a soma
#    delas, escalonada com `tf.nn.scale_regularization_loss`;
# 4. devolva a perda.
#
# O verificador treina um pequeno modelo regularizado com a sua função sob `MirroredStrategy` em 1,
# 2 e 4 réplicas, com lotes globais que se dividem de forma igual e desigual, e compara os pesos com
# o mesmo treinamento em um único dispositivo. Se algo estiver errado, ele tenta apontar qual foi o erro.
# <!-- claim replica_counts -->

# %%
import sim.tf as tf
from sim.course.exercises.lesson03_custom_loop_loss import check_compute_loss

loss_object = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)

# %%
def compute_loss(labels, predictions, model_losses, global_batch_size):
    ### BEGIN SOLUTION
    per_example_loss = loss_object(labels, predictions)
    loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)
    if model_losses:
        loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
    return loss
    ### END SOLUTION

# %%
check_compute_loss(compute_loss)
