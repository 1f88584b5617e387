# What SIM_SAME_START changes, seen from a script (tests/test_same_start.py runs it under the
# launcher, and tests/tf_crosscheck on TensorFlow): the data order, the MNIST subset and its
# size, and the weights Model.fit starts from (a learning rate of 0 keeps them unchanged).
import json

import numpy as np

import sim.tf as tf
from sim.tf import keras

order = [int(v) for v in tf.data.Dataset.range(8).shuffle(8).as_numpy_iterator()]
(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
model = keras.Sequential([keras.layers.Dense(3, input_shape=(4,))])
model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0), loss="mse")
model.fit(np.ones((4, 4), "float32"), np.zeros((4, 3), "float32"), epochs=1, verbose=0)
print("PROBE " + json.dumps({"order": order, "train": len(y_train), "test": len(y_test),
                             "first_label": int(y_train[0]),
                             "weights": [w.tolist() for w in model.get_weights()]}))
