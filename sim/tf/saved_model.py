"""``tf.saved_model``: save and load a Keras model as a directory (sim's own format,
saved_model_dir.py: a TensorFlow SavedModel's protobuf graphs cannot be had without graphs)."""
from __future__ import annotations

from sim.tf._lazy import unsupported

SERVING = "serve"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"


class SaveOptions:
    """``tf.saved_model.SaveOptions``: accepted; ``experimental_io_device`` is where TensorFlow does
    its file I/O (``/job:localhost``): here every task writes from its own process anyway."""

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        self.experimental_io_device = experimental_io_device
        self.namespace_whitelist = namespace_whitelist


class LoadOptions:
    """``tf.saved_model.LoadOptions``: accepted, as SaveOptions."""

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        self.experimental_io_device = experimental_io_device
        self.allow_partial_checkpoint = allow_partial_checkpoint


def save(obj, export_dir, signatures=None, options=None):
    from sim.tf import saved_model_dir
    return saved_model_dir.save(obj, export_dir, signatures=signatures, options=options)


def load(export_dir, tags=None, options=None):
    from sim.tf import saved_model_dir
    return saved_model_dir.load(export_dir, tags=tags, options=options)


def contains_saved_model(export_dir):
    import os
    from sim.tf import saved_model_dir
    return saved_model_dir.is_sim_saved_model(os.fspath(export_dir))


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    raise unsupported(f"tf.saved_model.{name}")
