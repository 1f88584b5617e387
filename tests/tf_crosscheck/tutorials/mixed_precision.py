# Copyright 2020-2024 The TensorFlow Authors. Licensed under the Apache License, Version 2.0
# (https://www.apache.org/licenses/LICENSE-2.0); distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND.
# From tensorflow/docs, site/en/guide/mixed_precision.ipynb at commit 7c3650212740204359d4ceae481abc79345541be: its code cells in order
# (the guide's python snippets from its text too, marked "snippet"), one "# ---- cell" each.
# Changed: the import lines (`import tensorflow as tf` -> `import sim.tf as tf`, `from tensorflow`
# -> `from sim.tf`); notebook magics (%, !, %%bash) are comments, run by
# tests/tf_crosscheck/tutorial_cells.py as Jupyter would (shell lines are not run). Data: see
# tests/tf_crosscheck/tutorials/README.md. The guide checks for a GPU: both engines have none
# (a CPU machine, as TensorFlow here), so it takes its CPU branch (64 units).

# ---- cell 1
import sim.tf as tf

from sim.tf import keras
from sim.tf.keras import layers
from sim.tf.keras import mixed_precision

# ---- cell 2
# !nvidia-smi -L

# ---- cell 3
policy = mixed_precision.Policy('mixed_float16')
mixed_precision.set_global_policy(policy)

# ---- cell 4
# Equivalent to the two lines above
mixed_precision.set_global_policy('mixed_float16')

# ---- cell 5
print('Compute dtype: %s' % policy.compute_dtype)
print('Variable dtype: %s' % policy.variable_dtype)

# ---- cell 6
inputs = keras.Input(shape=(784,), name='digits')
if tf.config.list_physical_devices('GPU'):
  print('The model will run with 4096 units on a GPU')
  num_units = 4096
else:
  # Use fewer units on CPUs so the model finishes in a reasonable amount of time
  print('The model will run with 64 units on a CPU')
  num_units = 64
dense1 = layers.Dense(num_units, activation='relu', name='dense_1')
x = dense1(inputs)
dense2 = layers.Dense(num_units, activation='relu', name='dense_2')
x = dense2(x)

# ---- cell 7
print(dense1.dtype_policy)
print('x.dtype: %s' % x.dtype.name)
# 'kernel' is dense1's variable
print('dense1.kernel.dtype: %s' % dense1.kernel.dtype.name)

# ---- cell 8
# INCORRECT: softmax and model output will be float16, when it should be float32
outputs = layers.Dense(10, activation='softmax', name='predictions')(x)
print('Outputs dtype: %s' % outputs.dtype.name)

# ---- cell 9
# CORRECT: softmax and model output are float32
x = layers.Dense(10, name='dense_logits')(x)
outputs = layers.Activation('softmax', dtype='float32', name='predictions')(x)
print('Outputs dtype: %s' % outputs.dtype.name)

# ---- cell 10
# The linear activation is an identity function. So this simply casts 'outputs'
# to float32. In this particular case, 'outputs' is already float32 so this is a
# no-op.
outputs = layers.Activation('linear', dtype='float32')(outputs)

# ---- cell 11
model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(loss='sparse_categorical_crossentropy',
              optimizer=keras.optimizers.RMSprop(),
              metrics=['accuracy'])

(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
x_train = x_train.reshape(60000, 784).astype('float32') / 255
x_test = x_test.reshape(10000, 784).astype('float32') / 255

# ---- cell 12
initial_weights = model.get_weights()

# ---- cell 13
history = model.fit(x_train, y_train,
                    batch_size=8192,
                    epochs=5,
                    validation_split=0.2)
test_scores = model.evaluate(x_test, y_test, verbose=2)
print('Test loss:', test_scores[0])
print('Test accuracy:', test_scores[1])

# ---- cell 14
x = tf.constant(256, dtype='float16')
(x ** 2).numpy()  # Overflow

# ---- cell 15
x = tf.constant(1e-5, dtype='float16')
(x ** 2).numpy()  # Underflow

# ---- cell 16
optimizer = keras.optimizers.RMSprop()
optimizer = mixed_precision.LossScaleOptimizer(optimizer)

# ---- cell 17
loss_object = tf.keras.losses.SparseCategoricalCrossentropy()
train_dataset = (tf.data.Dataset.from_tensor_slices((x_train, y_train))
                 .shuffle(10000).batch(8192))
test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(8192)

# ---- cell 18
@tf.function
def train_step(x, y):
  with tf.GradientTape() as tape:
    predictions = model(x)
    loss = loss_object(y, predictions)
    scaled_loss = optimizer.get_scaled_loss(loss)
  scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
  gradients = optimizer.get_unscaled_gradients(scaled_gradients)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))
  return loss

# ---- cell 19
@tf.function
def test_step(x):
  return model(x, training=False)

# ---- cell 20
model.set_weights(initial_weights)

# ---- cell 21
for epoch in range(5):
  epoch_loss_avg = tf.keras.metrics.Mean()
  test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
      name='test_accuracy')
  for x, y in train_dataset:
    loss = train_step(x, y)
    epoch_loss_avg(loss)
  for x, y in test_dataset:
    predictions = test_step(x)
    test_accuracy.update_state(y, predictions)
  print('Epoch {}: loss={}, test accuracy={}'.format(epoch, epoch_loss_avg.result(), test_accuracy.result()))

# ---- cell 22 (snippet from the text)
# On TPUs and CPUs, use 'mixed_bfloat16' instead
mixed_precision.set_global_policy('mixed_float16')
