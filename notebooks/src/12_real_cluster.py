# %% [markdown] lang="en"
# # 12 · Taking it to a real cluster
#
# Lesson 10 ran one script on both engines, as processes on this computer. A university Slurm
# cluster or a Kubernetes namespace needs one more thing: files that tell the cluster what to
# start, and where. The multi-node tutorial this course follows sets `TF_CONFIG` by hand on each
# node over SSH, notes that this gets tedious as nodes grow, and names the real ways. This lesson
# takes them:
#
# 1. the tutorial's SSH way, written out by the launcher;
# 2. Slurm: an sbatch script, line by line, and what `SlurmClusterResolver` gives each task;
# 3. a classroom demo: that sbatch script, run here, training;
# 4. Kubernetes: a TFJob manifest, and the `TF_CONFIG` Kubeflow's operator gives each pod;
# 5. what changes and what does not;
# 6. the failures a real cluster adds: a lost node, preemption, and `BackupAndRestore` across a
#    requeue.
#
# One command writes each kind of file, `python -m sim launch --emit slurm|kubernetes|ssh
# train.py`. The files are meant for real TensorFlow; here, local stand-ins for `srun` and `ssh`
# run them on this computer, with the simulator answering to `import tensorflow`.

# %% [markdown] lang="zh"
# # 12 · 走向真正的集群
#
# 第 10 课让同一个脚本在两个引擎上运行，作为这台计算机上的进程。大学里的 Slurm 集群或 Kubernetes 命名空间还需要一样东西：告诉集群启动什么、在哪里启动的文件。本课程所依据的多节点教程通过 SSH 在每个节点上手动设置 `TF_CONFIG`，并指出节点一多这就变得繁琐，然后列出了真正的做法。本课就沿着这些做法走下去：
#
# 1. 教程里的 SSH 做法，由启动器替你写出来；
# 2. Slurm：逐行讲解一个 sbatch 脚本，以及 `SlurmClusterResolver` 给每个任务的配置；
# 3. 课堂演示：在这里运行这个 sbatch 脚本，完成训练；
# 4. Kubernetes：一个 TFJob 清单，以及 Kubeflow 的 operator 给每个 Pod 的 `TF_CONFIG`；
# 5. 哪些会变，哪些不变；
# 6. 真正的集群带来的故障：丢失节点、抢占，以及作业重新排队后用 `BackupAndRestore` 恢复。
#
# 每种文件都由一条命令写出：`python -m sim launch --emit slurm|kubernetes|ssh train.py`。这些文件是为真正的 TensorFlow 准备的；在这里，`srun` 和 `ssh` 的本地替身在这台计算机上运行它们，由模拟器来响应 `import tensorflow`。

# %% [markdown] lang="pt"
# # 12 · Levando para um cluster de verdade
#
# A lição 10 executou um mesmo script nos dois engines, como processos neste computador. Um
# cluster Slurm de universidade ou um namespace do Kubernetes precisa de mais uma coisa: arquivos
# que digam ao cluster o que iniciar e onde. O tutorial de vários nós que o curso segue define o
# `TF_CONFIG` à mão em cada nó por SSH, observa que isso fica cansativo quando os nós aumentam e
# cita os caminhos de verdade. Esta lição segue por eles:
#
# 1. o jeito SSH do tutorial, escrito pelo launcher;
# 2. Slurm: um script sbatch, linha por linha, e o que o `SlurmClusterResolver` dá a cada tarefa;
# 3. uma demonstração para a sala de aula: esse script sbatch, executado aqui, treinando;
# 4. Kubernetes: um manifesto TFJob e o `TF_CONFIG` que o operator do Kubeflow dá a cada pod;
# 5. o que muda e o que não muda;
# 6. as falhas que um cluster de verdade acrescenta: um nó perdido, a preempção e o
#    `BackupAndRestore` depois de o job voltar para a fila.
#
# Um comando escreve cada tipo de arquivo: `python -m sim launch --emit slurm|kubernetes|ssh
# train.py`. Os arquivos são para o TensorFlow de verdade; aqui, substitutos locais de `srun` e
# `ssh` os executam neste computador, com o simulador respondendo a `import tensorflow`.

# %%
import json
import os
import tempfile
from pathlib import Path

import yaml

import sim.tf as tf
from sim.course.real_cluster import slurm_step, task_lines
from sim.i18n import t
from sim.launch import emit, emit_kubernetes, local_cluster

TRAIN_PY = """\
import json
import os
import sys

import numpy as np
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()   # first, before any other TensorFlow op
task = json.loads(os.environ["TF_CONFIG"])["task"]
me = f"{task['type']} {task['index']}"
backup_dir = sys.argv[1]          # a folder every node sees (shared storage)

rng = np.random.default_rng(0)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([1.0, -2.0, 0.5, 3.0], dtype="float32"))[:, None]
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.zeros((4, 1), "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")


def at_epoch_start(epoch, logs):
    print(f"{me}: epoch {epoch}", flush=True)
    if epoch == 2 and task["index"] == 1 and os.environ.get("PREEMPT"):
        os.kill(os.getpid(), 9)   # the scheduler takes the node back: the process dies at once


history = model.fit(x, y, batch_size=16, epochs=4, shuffle=False, verbose=0,
                    callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir),
                               tf.keras.callbacks.LambdaCallback(on_epoch_begin=at_epoch_start)])
print(f"{me}: done, loss {history.history['loss'][-1]:.5f}", flush=True)
"""

home = os.getcwd()
work = tempfile.TemporaryDirectory()
os.chdir(work.name)                 # the job's folder: the script and the files written for it
Path("train.py").write_text(TRAIN_PY)
print(TRAIN_PY)

# %% [markdown] lang="en"
# This is the script every way below runs, unedited. It says `import tensorflow as tf`, as a
# script for a real cluster does; it creates its strategy first, learns its role from
# `TF_CONFIG`, and keeps a backup with `BackupAndRestore` in the folder named on its command line
# (section 6 uses it). The data and the first weights are fixed, so every task and every run
# prints the same losses.
#
# ## 1. The tutorial's SSH way, written out
#
# The tutorial logs on to each node and types `TF_CONFIG='{...}' python worker.py`, the same
# `"cluster"` everywhere and a different `"task"`. `--emit ssh` writes those lines, from the
# launcher's own `TF_CONFIG` writer, each sent to its node with `ssh -n HOST '...' &`, then waits
# for every node:

# %% [markdown] lang="zh"
# 下面每一种做法运行的都是这个脚本，不做任何修改。它写的是 `import tensorflow as tf`，正如为真正集群写的脚本那样；它首先创建策略，从 `TF_CONFIG` 得知自己的角色，并用 `BackupAndRestore` 把备份保存在命令行给出的文件夹里（第 6 节会用到）。数据和初始权重都是固定的，所以每个任务、每次运行打印的损失都相同。
#
# ## 1. 教程里的 SSH 做法，写成文件
#
# 教程登录到每个节点，输入 `TF_CONFIG='{...}' python worker.py`：`"cluster"` 处处相同，`"task"` 各不相同。`--emit ssh` 用启动器自己的 `TF_CONFIG` 生成器写出这些命令行，每一行用 `ssh -n HOST '...' &` 发到对应的节点，然后等待所有节点结束：

# %% [markdown] lang="pt"
# Este é o script que todos os caminhos abaixo executam, sem edição. Ele diz
# `import tensorflow as tf`, como faz um script para um cluster de verdade; cria a estratégia
# primeiro, descobre o seu papel pelo `TF_CONFIG` e guarda um backup com o `BackupAndRestore` na
# pasta indicada na linha de comando (a seção 6 usa isso). Os dados e os pesos iniciais são
# fixos, então toda tarefa e toda execução imprimem as mesmas perdas.
#
# ## 1. O jeito SSH do tutorial, por escrito
#
# O tutorial entra em cada nó e digita `TF_CONFIG='{...}' python worker.py`, o mesmo `"cluster"`
# em todos e um `"task"` diferente em cada um. `--emit ssh` escreve essas linhas, com o próprio
# gerador de `TF_CONFIG` do launcher, cada uma enviada ao seu nó com `ssh -n HOST '...' &`, e
# depois espera por todos os nós:

# %%
ssh_args = ["ssh", "--hosts", "10.1.10.58,10.1.10.250", "--workdir", "/shared/job", "train.py", "backup"]
for path in emit.emit(ssh_args):
    print(Path(path).read_text())

# %% [markdown] lang="en"
# Line by line: `set -euo pipefail` stops the script at the first error; each
# `ssh -n HOST '...' & pids+=($!)` runs one node's command there (`-n`: no input from this
# terminal; `&`: in the background, so every node starts at once) and keeps its process number;
# the `'"'"'` inside a command is how a single quote is written inside single quotes, so the
# node's shell receives the tutorial's line exactly; the last line waits for each node and
# fails if one failed.
#
# It works, and it is all on you: the addresses, a free port on every node, starting every node
# at once, and stopping the others when one fails. A scheduler does those for you.
#
# ## 2. Slurm: an sbatch script, line by line
#
# On a Slurm cluster you ask for an **allocation** (so many nodes, so many GPUs each, for so
# long) and the scheduler starts your job when they are free. `--emit slurm` writes two files:

# %% [markdown] lang="zh"
# 逐行来看：`set -euo pipefail` 让脚本在第一个错误处停下；每一行 `ssh -n HOST '...' & pids+=($!)` 在对应的节点上运行该节点的命令（`-n`：不从这个终端读取输入；`&`：在后台运行，所以所有节点同时启动），并记下它的进程号；命令里的 `'"'"'` 是在单引号中写一个单引号的方法，这样节点上的 shell 收到的正是教程里的那一行；最后一行等待每个节点结束，只要有一个失败，脚本就失败。
#
# 这样做行得通，但一切都要你自己来：地址、每个节点上空闲的端口、同时启动所有节点，以及某个节点失败时停掉其他节点。作业调度器会替你做这些事。
#
# ## 2. Slurm：逐行讲解 sbatch 脚本
#
# 在 Slurm 集群上，你申请一份**资源分配**（多少个节点、每个节点多少块 GPU、用多长时间），资源空闲时调度器就启动你的作业。`--emit slurm` 写出两个文件：

# %% [markdown] lang="pt"
# Linha por linha: `set -euo pipefail` para o script no primeiro erro; cada
# `ssh -n HOST '...' & pids+=($!)` executa lá o comando de um nó (`-n`: sem entrada vinda deste
# terminal; `&`: em segundo plano, para que todos os nós comecem juntos) e guarda o número do
# processo; o `'"'"'` dentro de um comando é o jeito de escrever uma aspa simples dentro de aspas
# simples, para que o shell do nó receba exatamente a linha do tutorial; a última linha espera
# por cada nó e falha se algum falhou.
#
# Funciona, e fica tudo por sua conta: os endereços, uma porta livre em cada nó, iniciar todos os
# nós ao mesmo tempo e parar os outros quando um falha. Um escalonador faz isso por você.
#
# ## 2. Slurm: um script sbatch, linha por linha
#
# Em um cluster Slurm você pede uma **alocação** (tantos nós, tantas GPUs em cada um, por tanto
# tempo) e o escalonador inicia o seu job quando eles ficam livres. `--emit slurm` escreve dois
# arquivos:

# %%
slurm_args = ["slurm", "--nodes", "2", "--gpus-per-node", "4", "--cpus-per-task", "8",
              "--mem", "64G", "--time", "02:00:00", "train.py", "backup"]
for path in emit.emit(slurm_args):
    print(f"==> {Path(path).name} <==")
    print(Path(path).read_text())

# %% [markdown] lang="en"
# The sbatch script, line by line:
#
# - `#SBATCH --nodes=2`, `--ntasks-per-node=4`, `--gpus-per-node=4`: the allocation, 2 nodes of
#   4 GPUs, and **one task per GPU**, so 8 tasks, each a worker with one GPU;
# - `--cpus-per-task`, `--mem`, `--time`: the rest of what you ask for (CPU cores for the input
#   pipeline, memory per node, the time limit after which Slurm stops the job);
# - `--requeue`: if the job is preempted, or its node fails, Slurm puts it back in the queue
#   and starts it again (section 6); `--open-mode=append` keeps the earlier run's log;
# - `export PORT_BASE=...`: the first port of every node (tasks of a node take the next ones);
# - `srun --kill-on-bad-exit=1 ...`: starts the 8 tasks on the allocated nodes, and stops all of
#   them when one fails (a synchronous job cannot go on without it).
#
# Each task runs `slurm_tf_config.py`, which asks TensorFlow's `SlurmClusterResolver` for the
# cluster and for this task's role, writes them as `TF_CONFIG`, and becomes `python3 train.py`.
# The resolver reads `SLURM_PROCID` (the task's rank), `SLURM_STEP_NODELIST` (the nodes, in
# Slurm's short form such as `n[01-02]`) and `SLURM_STEP_TASKS_PER_NODE` (such as `4(x2)`).
# Here is what it gives each of the 8 tasks, as `sim.tf` computes it (the course checks it
# against TensorFlow 2.21's resolver in the same environments):

# %% [markdown] lang="zh"
# 逐行看这个 sbatch 脚本：
#
# - `#SBATCH --nodes=2`、`--ntasks-per-node=4`、`--gpus-per-node=4`：资源分配是 2 个节点、每个节点 4 块 GPU，并且**每块 GPU 一个任务**，所以共有 8 个任务，每个任务是一个使用一块 GPU 的工作进程；
# - `--cpus-per-task`、`--mem`、`--time`：其余申请的资源（输入流水线用的 CPU 核、每个节点的内存，以及时间限制，超时后 Slurm 会停止作业）；
# - `--requeue`：作业被抢占或节点出故障时，Slurm 把它放回队列并重新启动（第 6 节）；`--open-mode=append` 保留上一次运行的日志；
# - `export PORT_BASE=...`：每个节点上的第一个端口（同一节点上的任务依次使用后面的端口）；
# - `srun --kill-on-bad-exit=1 ...`：在分配到的节点上启动 8 个任务，其中一个失败时停掉全部任务（同步作业少了它就无法继续）。
#
# 每个任务运行 `slurm_tf_config.py`：它向 TensorFlow 的 `SlurmClusterResolver` 询问集群和本任务的角色，把它们写成 `TF_CONFIG`，然后变成 `python3 train.py`。解析器读取 `SLURM_PROCID`（任务的序号）、`SLURM_STEP_NODELIST`（节点列表，采用 Slurm 的简写形式，如 `n[01-02]`）和 `SLURM_STEP_TASKS_PER_NODE`（如 `4(x2)`）。下面是它给 8 个任务中每一个的结果，由 `sim.tf` 计算（课程在相同的环境下把它与 TensorFlow 2.21 的解析器做了对照检查）：

# %% [markdown] lang="pt"
# O script sbatch, linha por linha:
#
# - `#SBATCH --nodes=2`, `--ntasks-per-node=4`, `--gpus-per-node=4`: a alocação, 2 nós de 4 GPUs,
#   e **uma tarefa por GPU**, portanto 8 tarefas, cada uma um worker com uma GPU;
# - `--cpus-per-task`, `--mem`, `--time`: o resto do que você pede (núcleos de CPU para o pipeline
#   de entrada, memória por nó e o limite de tempo depois do qual o Slurm para o job);
# - `--requeue`: se o job sofrer preempção, ou o seu nó falhar, o Slurm o coloca de volta na fila
#   e o inicia de novo (seção 6); `--open-mode=append` mantém o log da execução anterior;
# - `export PORT_BASE=...`: a primeira porta de cada nó (as tarefas de um nó usam as seguintes);
# - `srun --kill-on-bad-exit=1 ...`: inicia as 8 tarefas nos nós alocados e para todas quando uma
#   falha (um job síncrono não pode continuar sem ela).
#
# Cada tarefa executa `slurm_tf_config.py`, que pergunta ao `SlurmClusterResolver` do TensorFlow
# o cluster e o papel desta tarefa, escreve isso como `TF_CONFIG` e se transforma em
# `python3 train.py`. O resolver lê `SLURM_PROCID` (o número da tarefa), `SLURM_STEP_NODELIST`
# (os nós, na forma curta do Slurm, como `n[01-02]`) e `SLURM_STEP_TASKS_PER_NODE` (como
# `4(x2)`). Eis o que ele dá a cada uma das 8 tarefas, calculado pelo `sim.tf` (o curso confere
# isso com o resolver do TensorFlow 2.21 nos mesmos ambientes):

# %% slide="figure"
allocation = {"SLURM_STEP_NUM_TASKS": 8, "SLURM_STEP_NODELIST": "n[01-02]",
              "SLURM_STEP_TASKS_PER_NODE": "4(x2)", "CUDA_VISIBLE_DEVICES": "0,1,2,3"}
for rank in range(8):
    with slurm_step(SLURM_PROCID=rank, **allocation):
        resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(port_base=8888)
        cluster = resolver.cluster_spec()
        print(t("lesson12.resolver_row", rank=rank, task_type=resolver.task_type,
                index=resolver.task_id, address=resolver.master(rpc_layer=""),
                gpus=os.environ["CUDA_VISIBLE_DEVICES"]))
print(json.dumps(cluster.as_dict()))

# %% [markdown] lang="en"
# The 4 tasks of node `n01` listen on ports 8888 to 8891 and see one GPU each
# (`CUDA_VISIBLE_DEVICES`, set by the resolver); `n02`'s 4 tasks do the same, as workers 4 to 7.
# Task 3's `TF_CONFIG` is this `"cluster"` with `"task": {"type": "worker", "index": 3}`. There
# is no chief: worker 0, on `n01`, plays its part. Two details of TensorFlow's resolver to keep
# in mind: it takes the nodes **sorted by name, as text** (so `n10` comes before `n9`), and a
# range keeps its zeros (`n[01-02]` is `n01`, `n02`).
#
# ## 3. Classroom demo: the sbatch script, run here
#
# `sim.launch.local_cluster.sbatch` runs an sbatch script as Slurm would on an allocation of
# **one node**, this computer (`localhost`), holding all of its tasks: two nodes on one machine
# would bind the same ports. Its stand-in `srun` gives each task the variables a real job step
# gives (`SLURM_PROCID`, `SLURM_STEP_NODELIST`, `SLURM_STEP_TASKS_PER_NODE`...); the file is the
# one above, unedited. Here, 2 nodes with one task each, so 2 workers:

# %% [markdown] lang="zh"
# 节点 `n01` 上的 4 个任务监听端口 8888 到 8891，各自只看到一块 GPU（`CUDA_VISIBLE_DEVICES`，由解析器设置）；`n02` 上的 4 个任务也一样，是工作进程 4 到 7。任务 3 的 `TF_CONFIG` 就是这个 `"cluster"` 加上 `"task": {"type": "worker", "index": 3}`。这里没有 chief：由 `n01` 上的 worker 0 承担它的职责。TensorFlow 的解析器有两个细节要记住：它把节点**按名字的文本顺序排序**（所以 `n10` 排在 `n9` 前面），并且范围里的数字保留前导零（`n[01-02]` 就是 `n01`、`n02`）。
#
# ## 3. 课堂演示：在这里运行 sbatch 脚本
#
# `sim.launch.local_cluster.sbatch` 像 Slurm 那样运行一个 sbatch 脚本，但资源分配只有**一个节点**，即这台计算机（`localhost`），所有任务都在它上面：在一台机器上模拟两个节点会绑定相同的端口。它的 `srun` 替身给每个任务设置真实作业步会设置的变量（`SLURM_PROCID`、`SLURM_STEP_NODELIST`、`SLURM_STEP_TASKS_PER_NODE`……）；文件就是上面那个，不做修改。这里是 2 个节点、每个节点一个任务，也就是 2 个工作进程：

# %% [markdown] lang="pt"
# As 4 tarefas do nó `n01` escutam nas portas 8888 a 8891 e veem uma GPU cada
# (`CUDA_VISIBLE_DEVICES`, definido pelo resolver); as 4 tarefas de `n02` fazem o mesmo, como os
# workers 4 a 7. O `TF_CONFIG` da tarefa 3 é este `"cluster"` com
# `"task": {"type": "worker", "index": 3}`. Não há chefe: o worker 0, em `n01`, faz esse papel.
# Dois detalhes do resolver do TensorFlow para guardar: ele pega os nós **ordenados pelo nome, como
# texto** (então `n10` vem antes de `n9`), e um intervalo mantém os zeros (`n[01-02]` é `n01`,
# `n02`).
#
# ## 3. Demonstração para a sala de aula: o script sbatch, executado aqui
#
# `sim.launch.local_cluster.sbatch` executa um script sbatch como o Slurm faria em uma alocação de
# **um nó**, este computador (`localhost`), com todas as suas tarefas: dois nós em uma só máquina
# usariam as mesmas portas. O seu `srun` substituto dá a cada tarefa as variáveis que uma etapa de
# job de verdade dá (`SLURM_PROCID`, `SLURM_STEP_NODELIST`, `SLURM_STEP_TASKS_PER_NODE`...); o
# arquivo é o de cima, sem edição. Aqui, 2 nós com uma tarefa cada, ou seja, 2 workers:

# %% slide="demo"
emit.emit(["slurm", "--nodes", "2", "--name", "demo", "train.py", "backup_demo"])
status, lines = local_cluster.sbatch("demo.sbatch", echo=False)
print(t("lesson12.status", code=status))
print("\n".join(line.rpartition(" at ")[0] for line in task_lines(lines, "Slurm task")))
print("\n".join(task_lines(lines, "worker")))

# %% [markdown] lang="en"
# Each task said which rank it is and which worker the resolver made it (the ports are left
# out: the stand-in takes free ones at every run), then both trained 4 epochs in sync and ended
# with the same loss. For the class: change `--nodes 2` to `--nodes 3`, or add `--chief`, run the
# cell again and read who is who. On a real cluster the same file is submitted with
# `sbatch demo.sbatch`; `make test-tf` runs it under the same stand-in on real TensorFlow 2.21 and
# checks that every task prints the simulator's losses.
#
# ## 4. Kubernetes: a TFJob
#
# On Kubernetes, Kubeflow's **training operator** runs TensorFlow jobs described by a `TFJob`
# manifest: one entry per kind of replica (`Chief`, `Worker`, `PS`, `Evaluator`), each with how
# many and the pod to run. `--emit kubernetes` writes one; here with a chief, one pod per node of
# 4 GPUs, and the job's folder on a shared volume (a PersistentVolumeClaim):

# %% [markdown] lang="zh"
# 每个任务先说明自己的序号，以及解析器让它成为哪个工作进程（端口没有打印出来：替身每次运行都选取空闲的端口），然后两个任务同步训练了 4 个周期，最后得到相同的损失。课堂上可以：把 `--nodes 2` 改成 `--nodes 3`，或者加上 `--chief`，重新运行这个单元格，看看谁是谁。在真正的集群上，用 `sbatch demo.sbatch` 提交同一个文件；`make test-tf` 会在同一个替身下用真正的 TensorFlow 2.21 运行它，并检查每个任务打印的损失与模拟器的相同。
#
# ## 4. Kubernetes：TFJob
#
# 在 Kubernetes 上，Kubeflow 的 **training operator** 运行用 `TFJob` 清单描述的 TensorFlow 作业：每类副本（`Chief`、`Worker`、`PS`、`Evaluator`）一项，写明数量和要运行的 Pod。`--emit kubernetes` 会写出这样一个清单；这里有一个 chief，每个 Pod 相当于一个 4 GPU 的节点，作业的文件夹放在一个共享卷（PersistentVolumeClaim）上：

# %% [markdown] lang="pt"
# Cada tarefa disse qual é o seu número e que worker o resolver fez dela (as portas ficaram de
# fora: o substituto pega portas livres a cada execução); depois as duas treinaram 4 épocas em
# sincronia e terminaram com a mesma perda. Para a turma: troque `--nodes 2` por `--nodes 3`, ou
# acrescente `--chief`, execute a célula de novo e veja quem é quem. Em um cluster de verdade o
# mesmo arquivo é enviado com `sbatch demo.sbatch`; o `make test-tf` o executa com o mesmo
# substituto no TensorFlow 2.21 de verdade e confere que cada tarefa imprime as perdas do
# simulador.
#
# ## 4. Kubernetes: um TFJob
#
# No Kubernetes, o **training operator** do Kubeflow executa jobs do TensorFlow descritos por um
# manifesto `TFJob`: uma entrada por tipo de réplica (`Chief`, `Worker`, `PS`, `Evaluator`), cada
# uma com quantas e o pod a executar. `--emit kubernetes` escreve um; aqui com um chefe, um pod
# por nó de 4 GPUs e a pasta do job em um volume compartilhado (um PersistentVolumeClaim):

# %%
k8s_args = ["kubernetes", "--nodes", "2", "--gpus-per-node", "4", "--tasks-per-node", "1", "--chief",
            "--cpus-per-task", "8", "--mem", "64G", "--pvc", "training:/train", "train.py", "backup"]
manifest_path = emit.emit(k8s_args)[0]
print(Path(manifest_path).read_text())

# %% [markdown] lang="en"
# The manifest, line by line:
#
# - `apiVersion: kubeflow.org/v1`, `kind: TFJob`: a kind of resource the training operator adds to
#   Kubernetes (its CustomResourceDefinition); `kubectl apply -f train-tfjob.yaml` hands it over;
# - `metadata`: the job's `name` and `namespace`, which also name its pods and their services;
# - `runPolicy`: `cleanPodPolicy: None` keeps the finished pods (and their logs), `backoffLimit: 3`
#   is how many restarts the job may have before it is marked failed;
# - `tfReplicaSpecs`: `Chief` and `Worker`, each with its number of `replicas` (pods) and the pod
#   to run;
# - in the pod, the container: its `image` (TensorFlow's own, `-gpu` for GPUs, or an image of your
#   own with the code in it), its `command` (the same `python3 train.py`), the port named
#   `tfjob-port`, its `workingDir`, and `resources` (`nvidia.com/gpu: 4` asks for 4 GPUs per pod,
#   with CPU cores and memory);
# - `volumeMounts` and `volumes`: the PersistentVolumeClaim `training`, mounted at `/train` in every
#   pod, holds the script, the backups and the checkpoints.
#
# What makes a pod the chief is the `Chief` entry under `tfReplicaSpecs`: without it, worker 0
# is the chief. `restartPolicy: ExitCode` asks the operator to start a pod again when it was
# killed by a signal (exit status 128 and above: preemption, a lost node) and to fail the job on
# an error of the script. The container must be named `tensorflow`: that is where the operator
# puts `TF_CONFIG`, which it writes from the manifest itself (its source, `genTFConfigJSONStr`):
# every task at its pod's service name, `<job>-<type>-<index>.<namespace>.svc`, on the port named
# `tfjob-port`:

# %% [markdown] lang="zh"
# 逐行看这个清单：
#
# - `apiVersion: kubeflow.org/v1`、`kind: TFJob`：training operator 给 Kubernetes 增加的一种资源（它的 CustomResourceDefinition）；用 `kubectl apply -f train-tfjob.yaml` 把它交给集群；
# - `metadata`：作业的 `name` 和 `namespace`，它们也用来命名作业的 Pod 及其服务；
# - `runPolicy`：`cleanPodPolicy: None` 保留已结束的 Pod（以及它们的日志），`backoffLimit: 3` 是作业被标记为失败之前允许重启的次数；
# - `tfReplicaSpecs`：`Chief` 和 `Worker`，各自写明 `replicas`（Pod 的数量）和要运行的 Pod；
# - Pod 里的容器：它的 `image`（TensorFlow 官方镜像，用 GPU 时是 `-gpu` 版本，也可以是装有你的代码的自有镜像）、`command`（同样是 `python3 train.py`）、名为 `tfjob-port` 的端口、`workingDir`，以及 `resources`（`nvidia.com/gpu: 4` 表示每个 Pod 申请 4 块 GPU，另外还有 CPU 核和内存）；
# - `volumeMounts` 和 `volumes`：名为 `training` 的 PersistentVolumeClaim 挂载到每个 Pod 的 `/train`，脚本、备份和检查点都放在那里。
#
# 让一个 Pod 成为 chief 的是 `tfReplicaSpecs` 下的 `Chief` 这一项：没有它，worker 0 就是 chief。`restartPolicy: ExitCode` 要求 operator 在 Pod 被信号杀死时（退出状态 128 及以上：抢占、丢失节点）重新启动它，而在脚本本身出错时让作业失败。容器必须命名为 `tensorflow`：operator 就是把 `TF_CONFIG` 放进这个容器，它根据清单本身写出 `TF_CONFIG`（见其源码中的 `genTFConfigJSONStr`）：每个任务的地址是其 Pod 的服务名 `<job>-<type>-<index>.<namespace>.svc`，端口是名为 `tfjob-port` 的那个：

# %% [markdown] lang="pt"
# O manifesto, linha por linha:
#
# - `apiVersion: kubeflow.org/v1`, `kind: TFJob`: um tipo de recurso que o training operator
#   acrescenta ao Kubernetes (a sua CustomResourceDefinition); `kubectl apply -f train-tfjob.yaml`
#   o entrega ao cluster;
# - `metadata`: o `name` e o `namespace` do job, que também dão nome aos seus pods e serviços;
# - `runPolicy`: `cleanPodPolicy: None` mantém os pods que terminaram (e os seus logs),
#   `backoffLimit: 3` é quantos reinícios o job pode ter antes de ser marcado como falho;
# - `tfReplicaSpecs`: `Chief` e `Worker`, cada um com o seu número de `replicas` (pods) e o pod a
#   executar;
# - no pod, o contêiner: a sua `image` (a do próprio TensorFlow, `-gpu` para GPUs, ou uma imagem
#   sua com o código dentro), o seu `command` (o mesmo `python3 train.py`), a porta chamada
#   `tfjob-port`, o `workingDir` e os `resources` (`nvidia.com/gpu: 4` pede 4 GPUs por pod, além de
#   núcleos de CPU e memória);
# - `volumeMounts` e `volumes`: o PersistentVolumeClaim `training`, montado em `/train` em todos os
#   pods, guarda o script, os backups e os checkpoints.
#
# O que faz de um pod o chefe é a entrada `Chief` em `tfReplicaSpecs`: sem ela, o worker 0 é o
# chefe. `restartPolicy: ExitCode` pede ao operator que inicie de novo um pod morto por um sinal
# (status de saída 128 ou mais: preempção, nó perdido) e que faça o job falhar quando o erro for
# do script. O contêiner precisa se chamar `tensorflow`: é nele que o operator põe o `TF_CONFIG`,
# que ele escreve a partir do próprio manifesto (no código-fonte dele, `genTFConfigJSONStr`): cada
# tarefa no nome de serviço do seu pod, `<job>-<type>-<index>.<namespace>.svc`, na porta chamada
# `tfjob-port`:

# %%
manifest = yaml.safe_load(Path(manifest_path).read_text())
pod_configs = emit_kubernetes.operator_tf_configs(manifest)
for (task_type, index), config in pod_configs.items():
    print(f"{task_type} {index}: TF_CONFIG='{config}'")
print(t("lesson12.chief_is", task=" ".join(map(str, emit_kubernetes.chief_of(manifest)))))

# %% [markdown] lang="en"
# The operator adds `"environment": "cloud"`, which TensorFlow 2 ignores. Fed to local processes,
# with a free port of this computer in place of each service name and all else kept, these
# `TF_CONFIG`s train as before (the manifest's 4 GPUs per pod do not exist here, so this run
# uses plain processes):

# %% [markdown] lang="zh"
# operator 还加上了 `"environment": "cloud"`，TensorFlow 2 会忽略它。把这些 `TF_CONFIG` 交给本地进程，只把每个服务名换成这台计算机上的一个空闲端口，其余保持不变，它们就像前面一样完成训练（清单中每个 Pod 的 4 块 GPU 在这里并不存在，所以这次运行用的是普通进程）：

# %% [markdown] lang="pt"
# O operator acrescenta `"environment": "cloud"`, que o TensorFlow 2 ignora. Entregues a processos
# locais, com uma porta livre deste computador no lugar de cada nome de serviço e todo o resto
# mantido, esses `TF_CONFIG` treinam como antes (as 4 GPUs por pod do manifesto não existem aqui,
# então esta execução usa processos comuns):

# %%
container = manifest["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
command = [word if word != "backup" else "backup_k8s" for word in container["command"]]
local_configs = local_cluster.loopback_configs(list(pod_configs.values()))
status, lines = local_cluster.tf_configs(local_configs, command, cwd=".", echo=False)
print(t("lesson12.status", code=status))
print("\n".join(task_lines(lines, "chief") + task_lines(lines, "worker")))

# %% [markdown] lang="en"
# `make test-tf` does the same on real TensorFlow, and the course's tests validate every manifest
# `--emit kubernetes` writes against the `TFJob` schema the operator publishes (its
# CustomResourceDefinition, vendored in `tests/data/tfjob_crd`).
#
# ## 5. What changes and what does not
#
# | | the tutorial's SSH way | Slurm | Kubernetes (TFJob) |
# |---|---|---|---|
# | the script | the same | the same | the same, in a container image |
# | who writes `TF_CONFIG` | you, per node | `SlurmClusterResolver`, per task | the operator, per pod |
# | addresses | IPs you choose | node names and `PORT_BASE` + local rank | service names, port `tfjob-port` |
# | the chief | worker 0, or a `"chief"` task | worker 0, or rank 0 with `--chief` | worker 0, or the `Chief` replica |
# | GPUs of a task | all of the node's | `CUDA_VISIBLE_DEVICES`, from the resolver | `nvidia.com/gpu` of the pod |
# | shared storage | a folder mounted on every node | the cluster's shared file system | a PersistentVolumeClaim |
# | a failed task | you stop the others | `--kill-on-bad-exit` stops the step | the operator, by `restartPolicy` |
#
# What does not change is the whole of the training program: the strategy created first,
# `TF_CONFIG` read by TensorFlow, one chief that writes the final model, and checkpoints and
# backups in a folder **every task can reach**. A folder on a node's local disk breaks the job
# on the first restart that lands on another node.
#
# ## 6. The failures a real cluster adds
#
# - **A node is lost.** All-reduce waits for every worker, so the others stop (lesson 06,
#   section 8); `--kill-on-bad-exit` (Slurm) or the operator ends the rest at once instead of
#   letting them wait.
# - **Preemption.** A scheduler can take nodes back for a job of higher priority: it sends
#   `SIGTERM`, then `SIGKILL`. With `--requeue`, Slurm puts the job back in the queue; with
#   `restartPolicy: ExitCode`, the operator starts the pods again.
# - **A requeued job starts from the top.** It is the same command again, so only what the
#   script saved survives. `BackupAndRestore` makes the restart resume from the last epoch
#   backed up.
#
# Below, the sbatch script runs with `PREEMPT` set, which makes worker 1 kill itself at the start
# of epoch 2, as a preempted node dies; then the same script runs again, as Slurm's requeue does:

# %% [markdown] lang="zh"
# `make test-tf` 会用真正的 TensorFlow 做同样的事；课程的测试还会用 operator 发布的 `TFJob` 模式（它的 CustomResourceDefinition，已复制到 `tests/data/tfjob_crd`）校验 `--emit kubernetes` 写出的每一个清单。
#
# ## 5. 哪些会变，哪些不变
#
# | | 教程里的 SSH 做法 | Slurm | Kubernetes（TFJob） |
# |---|---|---|---|
# | 脚本 | 相同 | 相同 | 相同，放在容器镜像里 |
# | 谁写 `TF_CONFIG` | 你自己，每个节点一份 | `SlurmClusterResolver`，每个任务一份 | operator，每个 Pod 一份 |
# | 地址 | 你选的 IP | 节点名，以及 `PORT_BASE` 加节点内序号 | 服务名，端口 `tfjob-port` |
# | chief | worker 0，或一个 `"chief"` 任务 | worker 0，或加 `--chief` 后的序号 0 | worker 0，或 `Chief` 副本 |
# | 任务的 GPU | 节点上的全部 GPU | `CUDA_VISIBLE_DEVICES`，由解析器设置 | Pod 的 `nvidia.com/gpu` |
# | 共享存储 | 挂载到每个节点上的文件夹 | 集群的共享文件系统 | PersistentVolumeClaim |
# | 任务失败 | 你自己停掉其他任务 | `--kill-on-bad-exit` 停止整个作业步 | operator，按 `restartPolicy` 处理 |
#
# 不变的是整个训练程序：首先创建策略，由 TensorFlow 读取 `TF_CONFIG`，由一个 chief 写出最终模型，检查点和备份放在**每个任务都能访问**的文件夹里。放在某个节点本地磁盘上的文件夹，只要作业重启时被调度到另一个节点，就会出问题。
#
# ## 6. 真正的集群带来的故障
#
# - **丢失一个节点。** 全归约要等所有工作进程，所以其他工作进程都会停下来（第 06 课第 8 节）；`--kill-on-bad-exit`（Slurm）或 operator 会立即结束其余任务，而不是让它们一直等下去。
# - **抢占。** 调度器可能为了优先级更高的作业收回节点：先发送 `SIGTERM`，再发送 `SIGKILL`。使用 `--requeue` 时，Slurm 会把作业放回队列；使用 `restartPolicy: ExitCode` 时，operator 会重新启动 Pod。
# - **重新排队的作业从头开始。** 它只是再次运行同一条命令，所以只有脚本保存下来的东西才会保留。`BackupAndRestore` 让重启从最后一个已备份的周期继续。
#
# 下面先在设置了 `PREEMPT` 的情况下运行 sbatch 脚本，这会让 worker 1 在第 2 个周期开始时杀死自己，就像被抢占的节点那样死掉；然后再次运行同一个脚本，就像 Slurm 重新排队时那样：

# %% [markdown] lang="pt"
# O `make test-tf` faz o mesmo no TensorFlow de verdade, e os testes do curso validam cada
# manifesto que `--emit kubernetes` escreve com o esquema de `TFJob` que o operator publica (a sua
# CustomResourceDefinition, copiada em `tests/data/tfjob_crd`).
#
# ## 5. O que muda e o que não muda
#
# | | o jeito SSH do tutorial | Slurm | Kubernetes (TFJob) |
# |---|---|---|---|
# | o script | o mesmo | o mesmo | o mesmo, em uma imagem de contêiner |
# | quem escreve o `TF_CONFIG` | você, por nó | o `SlurmClusterResolver`, por tarefa | o operator, por pod |
# | endereços | IPs que você escolhe | nomes dos nós e `PORT_BASE` + número local | nomes de serviço, porta `tfjob-port` |
# | o chefe | o worker 0, ou uma tarefa `"chief"` | o worker 0, ou o número 0 com `--chief` | o worker 0, ou a réplica `Chief` |
# | GPUs de uma tarefa | todas as do nó | `CUDA_VISIBLE_DEVICES`, pelo resolver | `nvidia.com/gpu` do pod |
# | armazenamento compartilhado | uma pasta montada em todos os nós | o sistema de arquivos compartilhado do cluster | um PersistentVolumeClaim |
# | uma tarefa que falha | você para as outras | `--kill-on-bad-exit` para a etapa | o operator, pela `restartPolicy` |
#
# O que não muda é o programa de treinamento inteiro: a estratégia criada primeiro, o
# `TF_CONFIG` lido pelo TensorFlow, um chefe que grava o modelo final, e checkpoints e backups em
# uma pasta que **toda tarefa alcança**. Uma pasta no disco local de um nó quebra o job no
# primeiro reinício que cair em outro nó.
#
# ## 6. As falhas que um cluster de verdade acrescenta
#
# - **Um nó se perde.** O all-reduce espera por todos os workers, então os outros param (lição
#   06, seção 8); `--kill-on-bad-exit` (Slurm) ou o operator encerram os demais na hora, em vez de
#   deixá-los esperando.
# - **Preempção.** Um escalonador pode tomar nós de volta para um job de prioridade maior: ele
#   envia `SIGTERM` e depois `SIGKILL`. Com `--requeue`, o Slurm coloca o job de volta na fila;
#   com `restartPolicy: ExitCode`, o operator inicia os pods de novo.
# - **Um job que volta para a fila começa do início.** É o mesmo comando outra vez, então só
#   sobrevive o que o script salvou. Com o `BackupAndRestore`, o reinício retoma o treinamento a
#   partir da última época guardada no backup.
#
# Abaixo, o script sbatch roda com `PREEMPT` definido, o que faz o worker 1 se matar no início da
# época 2, como morre um nó que sofreu preempção; depois o mesmo script roda de novo, como faz a
# recolocação na fila do Slurm:

# %%
emit.emit(["slurm", "--nodes", "2", "--name", "preemptible", "train.py", "backup_requeue"])
status, lines = local_cluster.sbatch("preemptible.sbatch", echo=False, env={"PREEMPT": "1"})
print(t("lesson12.status", code=status))
print("\n".join(task_lines(lines, "worker 1")))
print()
status, lines = local_cluster.sbatch("preemptible.sbatch", echo=False)      # the requeue
print(t("lesson12.status", code=status))
print("\n".join(task_lines(lines, "worker")))

# %% [markdown] lang="en"
# The first run ended with status 137 (128 + 9, killed by `SIGKILL`) once worker 1 died, the
# other task stopped by the stand-in `srun`. The requeued run started both tasks from the top,
# and `BackupAndRestore` took them straight to epoch 2: epochs 0 and 1 were not trained again,
# and the final loss is the one of section 3's uninterrupted run. The exercise asks for the
# `TF_CONFIG` of one task of an allocation, as `SlurmClusterResolver` writes it.
#
# ## Summary
#
# - `python -m sim launch --emit ssh|slurm|kubernetes train.py` writes what a cluster runs; the
#   script does not change.
# - On Slurm, `srun` starts one task per worker and `SlurmClusterResolver` turns the job step's
#   variables into each task's `TF_CONFIG`, ports and GPUs; on Kubernetes the training operator
#   writes `TF_CONFIG` from the `TFJob`, and the `Chief` replica is the chief.
# - Keep checkpoints and backups on shared storage, let the scheduler restart the job
#   (`--requeue`, `restartPolicy`), and `BackupAndRestore` resumes it.

# %% [markdown] lang="zh"
# 第一次运行在 worker 1 死掉后以状态 137 结束（128 + 9，被 `SIGKILL` 杀死），另一个任务被 `srun` 替身停掉。重新排队后的运行从头启动两个任务，`BackupAndRestore` 让它们直接进入第 2 个周期：第 0 和第 1 个周期没有重新训练，最终损失与第 3 节那次没有中断的运行相同。练习要求写出资源分配中某一个任务的 `TF_CONFIG`，就像 `SlurmClusterResolver` 写出的那样。
#
# ## 小结
#
# - `python -m sim launch --emit ssh|slurm|kubernetes train.py` 写出集群要运行的文件；脚本本身不变。
# - 在 Slurm 上，`srun` 为每个工作进程启动一个任务，`SlurmClusterResolver` 把作业步的变量变成每个任务的 `TF_CONFIG`、端口和 GPU；在 Kubernetes 上，training operator 根据 `TFJob` 写出 `TF_CONFIG`，`Chief` 副本就是 chief。
# - 把检查点和备份放在共享存储上，让调度器重启作业（`--requeue`、`restartPolicy`），`BackupAndRestore` 会让训练继续。

# %% [markdown] lang="pt"
# A primeira execução terminou com status 137 (128 + 9, morta por `SIGKILL`) assim que o worker 1
# morreu, com a outra tarefa parada pelo `srun` substituto. A execução recolocada na fila iniciou
# as duas tarefas do começo, e o `BackupAndRestore` as levou direto à época 2: as épocas 0 e 1 não
# foram treinadas de novo, e a perda final é a da execução sem interrupção da seção 3. O exercício
# pede o `TF_CONFIG` de uma tarefa de uma alocação, como o `SlurmClusterResolver` o escreve.
#
# ## Resumo
#
# - `python -m sim launch --emit ssh|slurm|kubernetes train.py` escreve o que um cluster executa;
#   o script não muda.
# - No Slurm, o `srun` inicia uma tarefa por worker e o `SlurmClusterResolver` transforma as
#   variáveis da etapa do job no `TF_CONFIG`, nas portas e nas GPUs de cada tarefa; no Kubernetes
#   o training operator escreve o `TF_CONFIG` a partir do `TFJob`, e a réplica `Chief` é o chefe.
# - Guarde checkpoints e backups em armazenamento compartilhado, deixe o escalonador reiniciar o
#   job (`--requeue`, `restartPolicy`) e o `BackupAndRestore` o retoma.

# %%
os.chdir(home)
work.cleanup()
