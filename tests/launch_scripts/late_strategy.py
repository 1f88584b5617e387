"""TensorFlow work before the strategy: TensorFlow refuses to configure collectives then."""
import sim.tf as tf

x = tf.constant([1.0, 2.0]) * 2.0
strategy = tf.distribute.MultiWorkerMirroredStrategy()
