# %% [markdown] lang="en"
# # Exercise 05 · Bytes per GPU per step
#
# Write `bytes_per_gpu(strategy, num_params, num_gpus)` returning the pair `(sent, received)`:
# how many bytes **one GPU** sends and receives in **one synchronous training step** of a
# float32 model with `num_params` parameters, on one machine with `num_gpus` GPUs.
#
# - `"mirrored"`: the gradients are combined by a ring all-reduce (a reduce-scatter, then an
#   all-gather, each moving chunks of `1/p` of the buffer);
# - `"central_storage"`: the variables live once on the CPU; each GPU sends its gradients there
#   and reads the updated variables back before the next forward pass (and with a single GPU,
#   where do the variables live?);
# - `"one_device"`: one replica on one device.
#
# The checker runs real steps of three Keras models on the simulated `workstation-4gpu`, takes
# the all-reduced size from the trace, and then tries 1, 2 and 8 GPUs.

# %% [markdown] lang="zh"
# # 练习 05 · 每一步每个 GPU 传输的字节数
#
# 编写 `bytes_per_gpu(strategy, num_params, num_gpus)`，返回二元组 `(sent, received)`：一个有 `num_params` 个参数的 float32 模型，在一台有 `num_gpus` 个 GPU 的机器上做**一步同步训练**时，**一个 GPU** 发送和接收的字节数。
#
# - `"mirrored"`：梯度由环形全归约合并（先 reduce-scatter，再 all-gather，每次传输缓冲区的 `1/p` 大小的块）；
# - `"central_storage"`：变量只在 CPU 上存一份；每个 GPU 把自己的梯度发送到那里，并在下一次前向计算之前把更新后的变量读回来（只有一个 GPU 时，变量又放在哪里呢？）；
# - `"one_device"`：一个设备上的一个副本。
#
# 检查器会在模拟的 `workstation-4gpu` 上对三个 Keras 模型各运行真实的一步，从跟踪记录（trace）中读取全归约的数据量，然后再测试 1、2 和 8 个 GPU 的情况。

# %% [markdown] lang="pt"
# # Exercício 05 · Bytes por GPU em cada passo
#
# Escreva `bytes_per_gpu(strategy, num_params, num_gpus)` que retorne o par `(sent, received)`:
# quantos bytes **uma GPU** envia e recebe em **um passo de treinamento síncrono** de um modelo
# float32 com `num_params` parâmetros, em uma máquina com `num_gpus` GPUs.
#
# - `"mirrored"`: os gradientes são combinados por um all-reduce em anel (um reduce-scatter e
#   depois um all-gather, cada um movendo pedaços de `1/p` do buffer);
# - `"central_storage"`: existe uma única cópia das variáveis, na CPU; cada GPU envia seus gradientes
#   para lá e lê as variáveis atualizadas de volta antes da próxima passagem para a frente (e, com uma
#   única GPU, onde ficam as variáveis?);
# - `"one_device"`: uma réplica em um dispositivo.
#
# O verificador executa passos reais de três modelos Keras na `workstation-4gpu` simulada, lê do
# registro de eventos (trace) o tamanho que passou pelo all-reduce e depois testa 1, 2 e 8 GPUs.

# %%
from sim.course.exercises.lesson05_bytes_per_step import check_bytes_per_gpu

# %%
def bytes_per_gpu(strategy, num_params, num_gpus):
    ### BEGIN SOLUTION
    if strategy == "one_device" or num_gpus == 1:
        return (0.0, 0.0)
    nbytes = 4 * num_params                      # float32
    if strategy == "mirrored":
        ring = 2 * (num_gpus - 1) / num_gpus * nbytes
        return (ring, ring)
    return (float(nbytes), float(nbytes))        # central_storage: gradients out, variables in
    ### END SOLUTION

# %%
check_bytes_per_gpu(bytes_per_gpu)
