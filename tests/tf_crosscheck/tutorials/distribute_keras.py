# Copyright 2019-2024 The TensorFlow Authors. Licensed under the Apache License, Version 2.0
# (https://www.apache.org/licenses/LICENSE-2.0); distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND.
# From tensorflow/docs, site/en/tutorials/distribute/keras.ipynb at commit 7c3650212740204359d4ceae481abc79345541be: its code cells in order
# (the guide's python snippets from its text too, marked "snippet"), one "# ---- cell" each.
# Changed: `import tensorflow as tf` -> `import sim.tf as tf`; notebook magics (%, !, %%bash)
# are comments, run by tests/tf_crosscheck/tutorial_cells.py as Jupyter would (%%writefile
# writes its file; shell lines are not run). Data: see tests/tf_crosscheck/tutorials/README.md.

# ---- cell 1
import tensorflow_datasets as tfds
import sim.tf as tf

import os

# Load the TensorBoard notebook extension.
# %load_ext tensorboard

# ---- cell 2
print(tf.__version__)

# ---- cell 3
datasets, info = tfds.load(name='mnist', with_info=True, as_supervised=True)

mnist_train, mnist_test = datasets['train'], datasets['test']

# ---- cell 4
strategy = tf.distribute.MirroredStrategy()

# ---- cell 5
print('Number of devices: {}'.format(strategy.num_replicas_in_sync))

# ---- cell 6
# You can also do info.splits.total_num_examples to get the total
# number of examples in the dataset.

num_train_examples = info.splits['train'].num_examples
num_test_examples = info.splits['test'].num_examples

BUFFER_SIZE = 10000

BATCH_SIZE_PER_REPLICA = 64
BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

# ---- cell 7
def scale(image, label):
  image = tf.cast(image, tf.float32)
  image /= 255

  return image, label

# ---- cell 8
train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)

# ---- cell 9
with strategy.scope():
  model = tf.keras.Sequential([
      tf.keras.layers.Conv2D(32, 3, activation='relu', input_shape=(28, 28, 1)),
      tf.keras.layers.MaxPooling2D(),
      tf.keras.layers.Flatten(),
      tf.keras.layers.Dense(64, activation='relu'),
      tf.keras.layers.Dense(10)
  ])

  model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                optimizer=tf.keras.optimizers.Adam(learning_rate=0.001),
                metrics=['accuracy'])

# ---- cell 10
# Define the checkpoint directory to store the checkpoints.
checkpoint_dir = './training_checkpoints'
# Define the name of the checkpoint files.
checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt_{epoch:04d}.weights.h5")

# ---- cell 11
# Define a function for decaying the learning rate.
# You can define any decay function you need.
def decay(epoch):
  if epoch < 3:
    return 1e-3
  elif epoch >= 3 and epoch < 7:
    return 1e-4
  else:
    return 1e-5

# ---- cell 12
# Define a callback for printing the learning rate at the end of each epoch.
class PrintLR(tf.keras.callbacks.Callback):
  def on_epoch_end(self, epoch, logs=None):
    print('\nLearning rate for epoch {} is {}'.format(epoch + 1, model.optimizer.learning_rate.numpy()))

# ---- cell 13
# Put all the callbacks together.
callbacks = [
    tf.keras.callbacks.TensorBoard(log_dir='./logs'),
    tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_prefix,
                                       save_weights_only=True),
    tf.keras.callbacks.LearningRateScheduler(decay),
    PrintLR()
]

# ---- cell 14
EPOCHS = 12

model.fit(train_dataset, epochs=EPOCHS, callbacks=callbacks)

# ---- cell 15
# Check the checkpoint directory.
# !ls {checkpoint_dir}

# ---- cell 16
import pathlib
latest_checkpoint = sorted(pathlib.Path(checkpoint_dir).glob('*'))[-1]

model.load_weights(latest_checkpoint)

eval_loss, eval_acc = model.evaluate(eval_dataset)

print('Eval loss: {}, Eval accuracy: {}'.format(eval_loss, eval_acc))

# ---- cell 17
# %tensorboard --logdir=logs

# ---- cell 18
# !ls -sh ./logs

# ---- cell 19
path = 'my_model.keras'

# ---- cell 20
model.save(path)

# ---- cell 21
unreplicated_model = tf.keras.models.load_model(path)

unreplicated_model.compile(
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=tf.keras.optimizers.Adam(),
    metrics=['accuracy'])

eval_loss, eval_acc = unreplicated_model.evaluate(eval_dataset)

print('Eval loss: {}, Eval Accuracy: {}'.format(eval_loss, eval_acc))

# ---- cell 22
with strategy.scope():
  replicated_model = tf.keras.models.load_model(path)
  replicated_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                           optimizer=tf.keras.optimizers.Adam(),
                           metrics=['accuracy'])

  eval_loss, eval_acc = replicated_model.evaluate(eval_dataset)
  print ('Eval loss: {}, Eval Accuracy: {}'.format(eval_loss, eval_acc))
