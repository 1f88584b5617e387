"""``tf.keras.models.load_model(PATH)`` outside any strategy, then predictions on the inputs
of mwms_keras_save.py; prints ENGINE-JSON. Unedited between engines."""
import json
import sys

import numpy as np

import sim.tf as tf

X = np.random.RandomState(0).normal(size=(32, 4)).astype("float32")
model = tf.keras.models.load_model(sys.argv[1])
print("ENGINE-JSON " + json.dumps({"predict": model.predict(X, verbose=0).tolist(),
                                   "iterations": int(model.optimizer.iterations.numpy())}))
