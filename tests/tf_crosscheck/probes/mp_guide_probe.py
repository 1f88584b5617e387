"""The mixed precision guide's model and first fit on a small slice, step by step (issue 30).

Run on either engine (``python -m sim.launch.tf_task`` for TensorFlow) with SIM_SAME_INIT set,
as test_tutorials.py runs the guide. Prints per step: loss scale, the optimizer's iterations,
the batch loss, and a checksum of every weight. MP_BATCH / MP_STEPS / MP_SAMPLES / MP_VALIDATION set the slice
(the guide's first epoch: MP_BATCH=8192 MP_SAMPLES=60000 MP_VALIDATION=0.2, SIM_SAME_START_SAMPLES=60000).
"""
import os

import numpy as np

import sim.tf as tf
from sim.tf import keras
from sim.tf.keras import layers
from sim.tf.keras import mixed_precision
from sim.launch.same_init import install
from sim.launch.tf_alias import _Forward

if not isinstance(tf, _Forward):          # sim; tf_task installs the hooks on TensorFlow
    from sim.hardware.presets import workstation_4gpu
    from sim.runtime import use_machine
    use_machine(workstation_4gpu(0))      # a CPU machine, as TensorFlow here
    install("sim")

BATCH = int(os.environ.get("MP_BATCH", "512"))
STEPS = int(os.environ.get("MP_STEPS", "4"))

mixed_precision.set_global_policy('mixed_float16')
inputs = keras.Input(shape=(784,), name='digits')
x = layers.Dense(64, activation='relu', name='dense_1')(inputs)
x = layers.Dense(64, activation='relu', name='dense_2')(x)
layers.Dense(10, activation='softmax', name='predictions')(x)   # the guide's first head, dropped
x = layers.Dense(10, name='dense_logits')(x)
outputs = layers.Activation('softmax', dtype='float32', name='predictions')(x)
outputs = layers.Activation('linear', dtype='float32')(outputs)
model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(loss='sparse_categorical_crossentropy', optimizer=keras.optimizers.RMSprop(),
              metrics=['accuracy'])
(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype('float32') / 255
VALIDATION = float(os.environ.get("MP_VALIDATION", "0"))
n = int(os.environ.get("MP_SAMPLES", "0")) or BATCH * STEPS
x_train, y_train = x_train[:n], y_train[:n]


def checksum(w):
    w = np.asarray(w, dtype=np.float64)
    return f"{w.sum():.9g}/{np.abs(w).sum():.9g}"


class Probe(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        opt = self.model.optimizer
        print(f"step {batch}: scale={float(opt.loss_scale)} iterations={int(opt.iterations)} "
              f"loss={logs['loss']:.9g} acc={logs['accuracy']:.9g}")
        for v in self.model.weights:
            print(f"  {v.name}: {checksum(v.numpy())}")


print("initial", [checksum(w) for w in model.get_weights()])
print("optimizer", type(model.optimizer).__name__)
history = model.fit(x_train, y_train, batch_size=BATCH, epochs=1, verbose=0,
                    validation_split=VALIDATION, callbacks=[Probe()])
print("epoch", {k: f"{v[0]:.9g}" for k, v in history.history.items()})
