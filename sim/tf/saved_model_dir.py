"""sim's SavedModel directory: what ``tf.saved_model.save/load`` (and tf-keras's ``model.save(dir)``)
write and read here.

TensorFlow's SavedModel is ``saved_model.pb`` (the traced graphs of the object's tf.functions,
a protobuf) plus a checkpoint of its variables. sim.tf has no graphs to store and never pickles
Python, so its directory holds what can rebuild a Keras model instead:

    <dir>/model.keras            the Keras file (sim/keras/saving: config + weights, TensorFlow's
                                 own .keras layout, so TensorFlow can load it with load_model too)
    <dir>/sim_saved_model.json   the marker: format, the serving signature's input and output names

Each file is written whole (temporary file + rename, sim/storage/safe_io.py), the marker last, so a kill
at any instant leaves the previous save or the new one loadable. A directory TensorFlow wrote
(``saved_model.pb``) cannot be read: loading one says so and what to do instead. A ``tf.Module``
that is not a Keras model is saved by saved_module.py (its variables and functions' source).
"""
from __future__ import annotations

import json
import os

from sim.storage import safe_io

MARKER, MODEL = "sim_saved_model.json", "model.keras"
FORMAT = "sim.tf.saved_model/1"


def is_sim_saved_model(path) -> bool:
    from sim.tf import saved_module
    return os.path.isdir(path) and os.path.exists(os.path.join(path, MARKER)) or \
        saved_module.is_saved_module(path)


def refuse_unbuilt(model):
    """tf-keras's ValueError for ``model.save(directory)`` of a model never built."""
    if not model.built:
        raise ValueError(
            f"Model {model} cannot be saved either because the input shape is not available or "
            "because the forward pass of the model is not defined.To define a forward pass, please "
            "override `Model.call()`. To specify an input shape, either call `build(input_shape)` "
            "directly, or call the model on actual data using `Model()`, `Model.fit()`, or "
            "`Model.predict()`. If you have a custom training step, please make sure to invoke the "
            "forward pass in train step through `Model.__call__`, i.e. `model(inputs)`, as opposed "
            "to `model.call()`.")


def save(obj, export_dir, signatures=None, options=None):
    """``tf.saved_model.save``: a built model with its serving signature; an unbuilt one, as
    TensorFlow saves it, with neither variables nor signatures."""
    from sim.keras.training import Model
    export_dir = os.fspath(export_dir)
    if not isinstance(obj, Model):      # a tf.Module: its variables and its functions' source
        from sim.tf import saved_module
        return saved_module.save(obj, export_dir)
    os.makedirs(export_dir, exist_ok=True)
    for name in (MODEL, MARKER):      # what a save killed mid-write left: swept, as checkpoints do
        safe_io.remove_stale_temps(os.path.join(export_dir, name))
    if obj.built:
        from sim.keras.saving import keras_archive
        keras_archive.save_model(obj, os.path.join(export_dir, MODEL))
        from sim.keras.saving import legacy_metrics
        marker = {"format": FORMAT, "model": MODEL,
                  "signatures": {"serving_default": _signature(obj)},
                  "resolved_metrics": legacy_metrics.resolved(obj)}
    else:   # TensorFlow saves it too: no variables, and no signature (its call was never traced)
        marker = {"format": FORMAT, "model": None, "signatures": {}}
    text = json.dumps(marker, indent=1, sort_keys=True).encode("utf-8")
    safe_io.atomic_write(os.path.join(export_dir, MARKER), lambda f: f.write(text))
    return None


def _signature(model):
    inputs = getattr(model, "inputs", None) or []
    names = [getattr(t, "name", None) or f"input_{i + 1}" for i, t in enumerate(inputs)] or ["input_1"]
    outputs = [getattr(model.layers[-1], "name", "output_0")] if getattr(model, "layers", None) else ["output_0"]
    return {"inputs": [n.split(":")[0] for n in names], "outputs": outputs}


def read_marker(export_dir):
    """The marker dict; TensorFlow's errors for a missing, foreign or damaged directory."""
    export_dir = os.fspath(export_dir)
    if os.path.exists(os.path.join(export_dir, "saved_model.pb")) and not is_sim_saved_model(export_dir):
        raise NotImplementedError(
            f"{export_dir} is a SavedModel written by TensorFlow (saved_model.pb, a protobuf of traced "
            "graphs): sim.tf cannot run TensorFlow graphs, and its own SavedModel directory is a "
            "different format (model.keras + sim_saved_model.json, see docs/tf_subset.md). Load it in "
            "TensorFlow, or save the Keras model there with model.save('m.keras') and load that here.")
    path = os.path.join(export_dir, MARKER)
    if not os.path.exists(path):
        raise OSError(f"SavedModel file does not exist at: {export_dir}/{{saved_model.pbtxt|saved_model.pb}}"
                      f" (nor sim.tf's {MARKER})")
    marker = _parse(path)
    if marker.get("model", MODEL) is not None:
        _check_member(export_dir, path, marker.get("model", MODEL))
    return marker


MARKER_LIMIT = 1 << 20          # a marker is a few hundred bytes; a bigger one is not ours


def read_json(path, limit, what):
    """The JSON of a marker file, read only from a regular file of at most ``limit`` bytes (a
    FIFO would block, /dev/zero never ends, a deep nesting would recurse); TensorFlow's OSError
    "Cannot parse file" otherwise, saying it is not ``what``."""
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise OSError(f"Cannot parse file {path}: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            raise OSError(f"Cannot parse file {path}: not a {what}")
        raw = f.read(limit + 1)
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as e:
        raise OSError(f"Cannot parse file {path}: {type(e).__name__}") from None


def _parse(path):
    """The marker's JSON (read_json), in the shape save() writes."""
    marker = read_json(path, MARKER_LIMIT, f"{FORMAT} marker")
    if not isinstance(marker, dict) or marker.get("format") != FORMAT or \
            not isinstance(marker.get("signatures", {}), dict) or not all(
                isinstance(v, dict) and all(isinstance(v.get(k), list) and
                                            all(isinstance(n, str) for n in v[k])
                                            for k in ("inputs", "outputs"))
                for v in marker.get("signatures", {}).values()) or \
            not isinstance(marker.get("resolved_metrics") or {}, dict) or \
            not all(isinstance(v, str) for v in (marker.get("resolved_metrics") or {}).values()):
        raise OSError(f"Cannot parse file {path}: not a {FORMAT} marker")
    return marker


def _check_member(export_dir, path, name):
    """The model file is the folder's own ``model.keras``, a regular file: TensorFlow's
    SavedModel has fixed names inside its folder, so a marker never points elsewhere."""
    import stat
    if name != MODEL:
        raise OSError(f"Cannot parse file {path}: its model must be {MODEL!r} inside {export_dir}, "
                      f"not {str(name)[:200]!r}")
    member = os.path.join(export_dir, MODEL)
    try:
        info = os.lstat(member)
    except OSError:
        raise OSError(f"SavedModel file does not exist at: {export_dir}/{MODEL}") from None
    if not stat.S_ISREG(info.st_mode):
        raise OSError(f"Cannot parse file {member}: not a regular file")


def load_keras(export_dir, custom_objects=None, compile=True):
    marker = read_marker(export_dir)
    if marker.get("model", MODEL) is None:
        from sim.keras import _errors
        raise ValueError(_errors.msg("saved_model_unbuilt_load",
                                     f"Unable to restore a Keras model from {export_dir}.",
                                     path=export_dir))
    from sim.keras.saving import keras_archive, legacy_metrics
    model = keras_archive.load_model(os.path.join(os.fspath(export_dir), str(marker.get("model", MODEL))),
                                     custom_objects=custom_objects, compile=compile)
    if compile:      # the compiled metrics as tf-keras's SavedModel load gives them back
        legacy_metrics.apply(model, marker.get("resolved_metrics"))
    return model


def load(export_dir, tags=None, options=None):
    """``tf.saved_model.load``: the restored object, callable, with ``signatures``."""
    from sim.keras.restoring import restoring
    from sim.tf import saved_module
    if saved_module.is_saved_module(os.fspath(export_dir)):
        return saved_module.load(os.fspath(export_dir))
    marker = read_marker(export_dir)
    if marker.get("model", MODEL) is None:
        return LoadedSavedModel(None, {})
    with restoring():            # variables made from the file, no initializer (restoring.py)
        model = load_keras(export_dir, compile=False)
    return LoadedSavedModel(model, marker.get("signatures", {}))


class SignatureMap(dict):
    """``loaded.signatures``: a mapping of signature keys to functions, shown as TensorFlow's."""

    def __repr__(self):
        return f"_SignatureMap({dict.__repr__(self)})"


class ServingFunction:
    """A signature of a loaded SavedModel: ``f(x)`` or ``f(input_name=x)`` -> {output: tensor}."""

    def __init__(self, model, spec):
        self._model, self._inputs, self._outputs = model, list(spec["inputs"]), list(spec["outputs"])

    def __call__(self, *args, **kwargs):
        if kwargs and not args:
            missing = [n for n in self._inputs if n not in kwargs]
            if missing:
                raise TypeError(f"signature_wrapper() missing required argument(s): {missing}; "
                                f"its inputs are {self._inputs}")
            args = tuple(kwargs[n] for n in self._inputs)
        out = self._model(args[0] if len(args) == 1 else list(args), training=False)
        outs = out if isinstance(out, (list, tuple)) else [out]
        return dict(zip(self._outputs, outs))

    @property
    def structured_outputs(self):
        return {n: None for n in self._outputs}

    def __repr__(self):
        return f"<ConcreteFunction signature_wrapper({', '.join(self._inputs)}) (sim.tf)>"


class LoadedSavedModel:
    """What ``tf.saved_model.load`` returns here: call it, or its ``signatures``."""

    def __init__(self, model, signatures):
        self._model = model
        self.signatures = SignatureMap((k, ServingFunction(model, v)) for k, v in signatures.items())

    def __call__(self, inputs, training=False, mask=None):
        if self._model is None:
            from sim.keras import _errors
            raise TypeError(_errors.msg("saved_model_unbuilt_call",
                                        "'_UserObject' object is not callable"))
        return self._model(inputs, training=training)

    @property
    def variables(self):
        return [] if self._model is None else self._model.variables

    @property
    def trainable_variables(self):
        return [] if self._model is None else self._model.trainable_variables

    def __repr__(self):
        name = "an unbuilt model" if self._model is None else self._model.name
        return f"<sim.tf SavedModel of {name}>"
