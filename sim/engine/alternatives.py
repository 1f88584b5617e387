"""What to use instead of a TensorFlow name sim.tf does not simulate (appended to the
NotImplementedError the facade raises). API names only, so one table serves every language."""
from __future__ import annotations

ALTERNATIVES = {
    "tf.distribute.MultiWorkerMirroredStrategy": "tf.distribute.MirroredStrategy (one host, "
                                                 "several simulated GPUs)",
    "tf.distribute.experimental.MultiWorkerMirroredStrategy": "tf.distribute.MirroredStrategy",
    "tf.distribute.ParameterServerStrategy": "tf.distribute.experimental.CentralStorageStrategy "
                                             "(variables on one device, compute on the GPUs)",
    "tf.distribute.experimental.ParameterServerStrategy":
        "tf.distribute.experimental.CentralStorageStrategy",
    "tf.keras.layers.LSTM": "tf.keras.layers.Dense over a flattened window "
                            "(tf.data.Dataset.window + flat_map)",
    "tf.keras.layers.GRU": "tf.keras.layers.Dense over a flattened window",
    "tf.keras.layers.BatchNormalization": "tf.keras.layers.Dropout or plain Dense layers",
    "tf.keras.optimizers.AdamW": "tf.keras.optimizers.Adam",
    "tf.keras.optimizers.Nadam": "tf.keras.optimizers.Adam",
    "tf.keras.callbacks.ReduceLROnPlateau": "a tf.keras.optimizers.schedules schedule",
    "tf.keras.metrics.F1Score": "tf.keras.metrics.Precision and tf.keras.metrics.Recall",
    "tf.keras.metrics.FBetaScore": "tf.keras.metrics.Precision and tf.keras.metrics.Recall",
    "tf.keras.utils.timeseries_dataset_from_array": "tf.data.Dataset.window(n, shift=1)"
                                                    ".flat_map(lambda w: w.batch(n))",
    "tf.keras.datasets.fashion_mnist": "tf.keras.datasets.mnist",
    "tf.keras.datasets.cifar10": "tf.keras.datasets.mnist",
    "tf.data.Dataset.rejection_resample": "tf.data.Dataset.filter",
    "tf.data.Dataset.ragged_batch": "tf.data.Dataset.padded_batch",
    "tf.data.Dataset.sparse_batch": "tf.data.Dataset.padded_batch",
    "tf.data.Dataset.counter": "tf.data.Dataset.range(n) or enumerate()",
    "tf.data.Dataset.get_single_element": "next(iter(dataset))",
    "tf.data.TextLineDataset": "tf.data.Dataset.from_tensor_slices over the lines read in Python",
    "tf.map_fn": "tf.data.Dataset.map, or a Python loop with tf.stack",
    "tf.vectorized_map": "GradientTape.jacobian / batch_jacobian, or a Python loop with tf.stack",
    "tf.custom_gradient": "tf.stop_gradient",
    "tf.SparseTensor": "dense tensors (tf.one_hot, tf.gather)",
    "tf.RaggedTensor": "tf.data.Dataset.padded_batch",
}


def instead(tf_name):
    """The catalogue sentence naming an alternative, or "" when there is none to suggest."""
    alt = ALTERNATIVES.get(tf_name)
    if alt is None:
        return ""
    from sim.i18n import t
    return " " + t("engine.unsupported_instead", alternative=alt)
