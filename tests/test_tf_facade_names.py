"""The names learners reach for next: each either works or raises NotImplementedError naming
the TensorFlow API (and, where the course has one, what to use instead); never a bare
AttributeError from inside the facade."""
import pytest

import sim.tf as tf
from sim.engine.alternatives import ALTERNATIVES

REACHED_FOR = """
tf.keras.layers.LSTM tf.keras.layers.GRU tf.keras.layers.Conv1D tf.keras.layers.BatchNormalization
tf.keras.layers.LayerNormalization tf.keras.layers.MultiHeadAttention tf.keras.layers.Rescaling
tf.keras.applications tf.keras.preprocessing tf.keras.mixed_precision
tf.keras.callbacks.ReduceLROnPlateau tf.keras.callbacks.CSVLogger tf.keras.optimizers.AdamW
tf.keras.optimizers.Nadam tf.keras.optimizers.legacy.Nadam tf.keras.optimizers.schedules.CosineDecay
tf.keras.losses.KLDivergence tf.keras.metrics.F1Score tf.keras.metrics.FBetaScore
tf.keras.utils.plot_model tf.keras.utils.timeseries_dataset_from_array tf.keras.models.clone_model
tf.keras.datasets.cifar10 tf.keras.datasets.fashion_mnist tf.keras.datasets.imdb
tf.vectorized_map tf.map_fn tf.while_loop tf.cond tf.einsum tf.custom_gradient tf.RaggedTensor
tf.SparseTensor tf.strings tf.io tf.image tf.summary tf.TensorArray
tf.data.TextLineDataset tf.data.TFRecordDataset tf.data.experimental.sample_from_datasets
tf.data.Dataset.sample_from_datasets tf.data.Dataset.choose_from_datasets tf.data.Dataset.counter
tf.data.Dataset.rejection_resample tf.data.Dataset.ragged_batch tf.data.Dataset.unique
tf.data.Dataset.get_single_element tf.data.Dataset.snapshot tf.data.Dataset.list_files
tf.distribute.ParameterServerStrategy tf.distribute.MultiWorkerMirroredStrategy
tf.distribute.experimental.ParameterServerStrategy tf.distribute.experimental.MultiWorkerMirroredStrategy
tf.distribute.coordinator tf.distribute.experimental.PartitionedVariable
""".split()

SUPPORTED = """
tf.data.Dataset.padded_batch tf.data.Dataset.window tf.data.Dataset.flat_map tf.data.Dataset.interleave
tf.data.Dataset.scan tf.data.Dataset.group_by_window tf.data.Dataset.bucket_by_sequence_length
tf.data.DatasetSpec tf.GradientTape.jacobian tf.GradientTape.batch_jacobian tf.keras.metrics.Precision
tf.keras.metrics.Recall tf.keras.metrics.AUC tf.keras.metrics.MeanIoU
tf.keras.metrics.TopKCategoricalAccuracy tf.keras.metrics.SparseTopKCategoricalAccuracy
tf.distribute.MirroredStrategy tf.distribute.experimental.CentralStorageStrategy
tf.data.Dataset.sample_from_datasets tf.data.Dataset.choose_from_datasets
tf.data.experimental.sample_from_datasets tf.data.experimental.choose_from_datasets tf.norm
tf.linalg.norm
""".split()


def _lookup(name):
    obj = tf
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("name", REACHED_FOR)
def test_unsupported_names_raise_not_implemented_naming_the_api(name):
    try:
        _lookup(name)
    except NotImplementedError as err:
        assert name.split(".")[-1] in str(err) and "sim.tf" in str(err)
        if name in ALTERNATIVES:
            assert "Instead, use" in str(err) and ALTERNATIVES[name].split()[0] in str(err)
        assert not hasattr(tf, "xyz_not_a_name")  # still an AttributeError for hasattr
    except AttributeError as err:  # pragma: no cover - the failure this test exists for
        pytest.fail(f"{name}: AttributeError from the facade: {err}")


@pytest.mark.parametrize("name", SUPPORTED)
def test_the_names_this_issue_added_resolve(name):
    assert _lookup(name) is not None


def test_a_dataset_instance_names_the_missing_method():
    with pytest.raises(NotImplementedError, match=r"tf\.data\.Dataset\.unique"):
        tf.data.Dataset.range(3).unique()
    assert not hasattr(tf.data.Dataset.range(3), "unique")


def test_alternatives_are_themselves_supported_names():
    for name, alternative in ALTERNATIVES.items():
        first = alternative.split()[0].split("(")[0].rstrip(",")
        if first.startswith("tf."):
            _lookup(first)  # raises if the suggestion were itself unsupported
