"""``tf.random.set_seed`` reaches Keras initializers without a seed, as TF2's global seed does."""
import subprocess
import sys

import numpy as np

import sim.tf as tf


def _initial_weights(seed):
    tf.random.set_seed(seed)
    model = tf.keras.Sequential([tf.keras.layers.Dense(5, input_shape=(3,)),
                                 tf.keras.layers.Dense(2, kernel_initializer="he_normal")])
    return [w.numpy() for w in model.weights]


def test_same_global_seed_same_initial_weights_in_one_process():
    a, b = _initial_weights(11), _initial_weights(11)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_different_global_seed_different_initial_weights():
    a, c = _initial_weights(11), _initial_weights(12)
    assert not np.array_equal(a[0], c[0]) and not np.array_equal(a[2], c[2])


def test_set_seed_before_keras_is_first_used():
    code = ("import sim.tf as tf\n"
            "tf.random.set_seed(3)\n"
            "k = tf.keras.initializers.GlorotUniform()((4, 4))\n"
            "tf.random.set_seed(3)\n"
            "print(bool((k == tf.keras.initializers.GlorotUniform()((4, 4))).all()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
