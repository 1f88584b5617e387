"""``model.summary()``: the Keras 2 table, printed deterministically."""
from __future__ import annotations

from sim.keras import backend


def _readable(nbytes):
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    i = 0
    size = float(nbytes)
    while size >= 1024 and i < len(units) - 1:
        size /= 1024.0
        i += 1
    return f"{size:.2f} {units[i]}"


def _fmt_shape(shape):
    if shape is None:
        return "multiple"
    if isinstance(shape, list):
        return "[" + ", ".join(_fmt_shape(s) for s in shape) + "]"
    if isinstance(shape, dict):
        return "multiple"
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _row(fields, positions):
    line = ""
    for col, text in enumerate(fields):
        start = positions[col - 1] if col else 0
        space = 2 if col != len(positions) - 1 else 0
        text = str(text)[: positions[col] - start - space]
        if col == 0:
            line += " "
        line += text + " " * space
        line += " " * (positions[col] - len(line))
    return line


def print_summary(model, line_length=None, positions=None, print_fn=None):
    print_fn = print_fn or print
    from sim.keras.models.functional import Functional
    from sim.keras.models.sequential import Sequential

    if not model.built or not model.weights and not model.layers:
        raise ValueError(
            "This model has not yet been built. Build the model first by calling `build()` or by "
            "calling the model on a batch of data.")
    line_length = line_length or 65
    positions = positions or [0.45, 0.85, 1.0]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    rows = []
    if isinstance(model, Functional):
        for layer in model.layers:
            shape = layer._output_shape
            rows.append((layer, shape if not hasattr(layer, "_batch_input_shape") or
                         type(layer).__name__ != "InputLayer" else [layer._batch_input_shape]))
    else:
        for layer in model.layers:
            shape = layer._output_shape if isinstance(model, Sequential) else None
            rows.append((layer, shape))
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    print_fn(_row(["Layer (type)", "Output Shape", "Param #"], positions))
    print_fn("=" * line_length)
    for layer, shape in rows:
        params = backend.count_params(layer.weights)
        print_fn(_row([f"{layer.name} ({type(layer).__name__})", _fmt_shape(shape), params], positions))
        print_fn(" " * line_length)
    print_fn("=" * line_length)
    trainable = backend.count_params(model.trainable_weights)
    non_trainable = backend.count_params(model.non_trainable_weights)

    def nbytes(ws):
        return sum(int(__import__("numpy").prod(w.shape)) * w.dtype.size for w in ws)

    total_b = nbytes(model.weights)
    print_fn(f"Total params: {trainable + non_trainable} ({_readable(total_b)})")
    print_fn(f"Trainable params: {trainable} ({_readable(nbytes(model.trainable_weights))})")
    print_fn(f"Non-trainable params: {non_trainable} ({_readable(nbytes(model.non_trainable_weights))})")
    print_fn("_" * line_length)
