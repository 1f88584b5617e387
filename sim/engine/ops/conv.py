"""2-D convolution and max pooling (``tf.nn.conv2d``, ``tf.nn.max_pool2d``) on NHWC images.

Both are vectorised over the batch, the pixels and the channels: the only Python loop runs over
the KH*KW taps of the window, each tap a strided view of the padded image (the tap-by-tap form of
``numpy.lib.stride_tricks.sliding_window_view``, which copies faster than reshaping that view).

conv2d is im2col plus one matmul: the windows are copied once into a patch matrix
``(N*Hout*Wout, KH*KW*Cin)`` and multiplied by the filters reshaped to ``(KH*KW*Cin, Cout)``.
Cost: ``2*KH*KW*Cin*Cout*Hout*Wout`` FLOPs per sample forward (one multiply and one add per
filter tap and output value). Its two gradients are each a matmul of that same size, the
filter's ``patches^T @ g`` and the input's ``g @ filters^T`` (scattered back onto the image,
col2im), so the backward pass costs the forward's FLOPs once per input that needs a gradient:
twice the forward inside a network, once for a first layer whose input is the data (the
engine's rule, see sim.engine.counting). Those FLOPs reach the simulated step time through
``sim.engine.counting`` like every op's (sim/distribute/timing.py reads the counter).

max_pool2d costs ``KH*KW`` comparisons per output value; its gradient goes to the first
maximum of each window in row-major order (ties share nothing), at the same cost.

Padding follows TensorFlow: "VALID" keeps whole windows, ``Hout = (H - KH) // s + 1``; "SAME"
gives ``Hout = ceil(H / s)`` and pads ``max((Hout-1)*s + KH - H, 0)`` rows, the odd one at the
bottom (right). Pooling pads with -inf, so a padded cell never wins.
"""
from __future__ import annotations

import numpy as np

from sim.engine.errors import InvalidArgumentError
from sim.engine.higher_order import FirstOrderOnly
from sim.engine.ops._core import out, tensor

# Their gradients are written on arrays only: a second derivative through them raises, naming them.
_CONV2D_FIRST_ORDER, _MAXPOOL_FIRST_ORDER = FirstOrderOnly("Conv2D"), FirstOrderOnly("MaxPool")


# ---------------------------------------------------------------- argument normalisation


def _pair(value, what, op, data_format="NHWC"):
    """``strides``/``ksize``/``dilations`` as TensorFlow accepts them: an int, or a list of 1, 2
    or 4 ints (the 4-list in data_format order, batch and channel entries equal to 1)."""
    if isinstance(value, (int, np.integer)):
        return int(value), int(value)
    vals = [int(v) for v in (value.numpy().tolist() if hasattr(value, "numpy") else value)]
    if len(vals) == 1:
        return vals[0], vals[0]
    if len(vals) == 2:
        return vals[0], vals[1]
    if len(vals) == 4:
        h, w, outer = (1, 2, (0, 3)) if data_format == "NHWC" else (2, 3, (0, 1))
        if any(vals[i] != 1 for i in outer):
            raise InvalidArgumentError(
                f"Current implementation does not yet support {what} in the batch and depth "
                f"dimensions. [Op:{op}]")
        return vals[h], vals[w]
    raise ValueError(f"{what} should be of length 1, 2 or 4. Received: {what}={value} of length "
                     f"{len(vals)}")


def _padding(padding, op, data_format="NHWC"):
    """"SAME", "VALID" or explicit ``[[0, 0], [top, bottom], [left, right], [0, 0]]`` (NHWC
    order; NCHW lists the channel pair second), returned in NHWC order."""
    if isinstance(padding, str):
        if padding not in ("SAME", "VALID"):
            from sim.i18n import t
            raise InvalidArgumentError(
                f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed values: "
                f"\"SAME\", \"VALID\", \"EXPLICIT\" [Op:{op}] "
                + t("conv.padding", padding=padding, upper=padding.upper()))
        return padding
    pads = [[int(a), int(b)] for a, b in padding]
    if len(pads) == 4 and data_format == "NCHW":
        pads = [pads[0], pads[2], pads[3], pads[1]]
    if len(pads) != 4 or pads[0] != [0, 0] or pads[3] != [0, 0]:
        raise ValueError(f"padding should be 'SAME', 'VALID' or a list of 4 [before, after] pairs "
                         f"with zeros for the batch and channel dimensions. Received: {padding}")
    return pads


def _geometry(size, k, s, padding, axis):
    """(output size, padding before, padding after) of one spatial dimension."""
    if padding == "VALID":
        return (size - k) // s + 1, 0, 0
    if padding == "SAME":
        n = -(-size // s)
        total = max((n - 1) * s + k - size, 0)
        return n, total // 2, total - total // 2
    before, after = padding[axis]
    return (size + before + after - k) // s + 1, before, after


def _window_geometry(h, wd, kh, kw, sh, sw, padding, op):
    """(hout, wout, (ph0, ph1), (pw0, pw1)) of a 2-D window op; TensorFlow's error when the
    windows do not fit."""
    hout, ph0, ph1 = _geometry(h, kh, sh, padding, 1)
    wout, pw0, pw1 = _geometry(wd, kw, sw, padding, 2)
    if hout <= 0 or wout <= 0:
        raise InvalidArgumentError(
            f"Computed output size would be negative: {min(hout, wout) - 1} [input_size: "
            f"{h if hout <= 0 else wd}, effective_filter_size: {kh if hout <= 0 else kw}, "
            f"stride: {sh if hout <= 0 else sw}] [Op:{op}]")
    return hout, wout, (ph0, ph1), (pw0, pw1)


def _to_nhwc(x, data_format, op):
    if data_format in (None, "NHWC"):
        return x, False
    if data_format == "NCHW":
        return np.moveaxis(x, 1, -1), True
    raise ValueError(f"data_format must be 'NHWC' or 'NCHW', got {data_format!r} [Op:{op}]")


def _tap(xp, i, j, sh, sw, hout, wout):
    """The pixels filter tap (i, j) meets at every output position: a strided view
    (N, Hout, Wout, C) of the padded image."""
    return xp[:, i:i + (hout - 1) * sh + 1:sh, j:j + (wout - 1) * sw + 1:sw]


def _patches(xp, kh, kw, sh, sw, hout, wout):
    """im2col: every window of the padded image, copied once into (N, Hout, Wout, kh, kw, C).

    Equal to ``sliding_window_view(xp, (kh, kw), axis=(1, 2))[:, ::sh, ::sw]`` with the window
    axes moved before the channels; filled one tap at a time, which copies far faster than
    reshaping that view (its strides scatter every read)."""
    n, _, _, c = xp.shape
    p = np.empty((n, hout, wout, kh, kw, c), xp.dtype)
    for i in range(kh):
        for j in range(kw):
            p[:, :, :, i, j] = _tap(xp, i, j, sh, sw, hout, wout)
    return p


def _scatter_windows(d, shape, kh, kw, sh, sw, hout, wout):
    """The adjoint of ``_patches``: add every window's gradient (N, Hout, Wout, kh, kw, C) back
    onto an image of ``shape`` (col2im): one vectorised add per filter tap."""
    dx = np.zeros(shape, d.dtype)
    for i in range(kh):
        for j in range(kw):
            _tap(dx, i, j, sh, sw, hout, wout)[...] += d[:, :, :, i, j]
    return dx


def _crop(a, ph, pw, h, w):
    return a[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w]


# ---------------------------------------------------------------- conv2d


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """``tf.nn.conv2d``: input (N, H, W, Cin), filters (KH, KW, Cin, Cout) -> (N, Hout, Wout, Cout).

    FLOPs: ``2*KH*KW*Cin*Cout*Hout*Wout`` per sample forward; backward the same again for each
    of input and filters that needs a gradient (see the module docstring).
    """
    x, f = tensor(input), tensor(filters)
    if x._v.dtype != f._v.dtype:
        raise InvalidArgumentError(
            f"cannot compute Conv2D as input #1(zero-based) was expected to be a {x.dtype.name} "
            f"tensor but is a {f.dtype.name} tensor [Op:Conv2D]")
    sh, sw = _pair(strides, "strides", "Conv2D", data_format or "NHWC")
    if dilations is not None and _pair(dilations, "dilations", "Conv2D") != (1, 1):
        from sim.engine.errors import unsupported
        raise unsupported("tf.nn.conv2d(dilations=...) other than 1")
    pad = _padding(padding, "Conv2D", data_format)
    a, channels_first = _to_nhwc(x._v, data_format, "Conv2D")
    w = f._v
    _check_conv_shapes(a, w, channels_first)
    n, h, wd, cin = a.shape
    kh, kw, _, cout = w.shape
    hout, wout, (ph0, ph1), (pw0, pw1) = _window_geometry(h, wd, kh, kw, sh, sw, pad, "Conv2D")
    xp = np.pad(a, ((0, 0), (ph0, ph1), (pw0, pw1), (0, 0))) if ph0 or ph1 or pw0 or pw1 else a
    k = kh * kw * cin
    # patches (N*Hout*Wout, kh*kw*Cin), in the filters' (kh, kw, Cin) order
    patches = _patches(xp, kh, kw, sh, sw, hout, wout).reshape(-1, k)
    wmat = w.reshape(k, cout)
    y = (patches @ wmat).reshape(n, hout, wout, cout)

    def grad_input(g):
        g = np.moveaxis(g, 1, -1) if channels_first else g
        dpatch = (g.reshape(-1, cout) @ wmat.T).reshape(n, hout, wout, kh, kw, cin)
        dx = _crop(_scatter_windows(dpatch, xp.shape, kh, kw, sh, sw, hout, wout),
                   (ph0, ph1), (pw0, pw1), h, wd)
        return np.moveaxis(dx, -1, 1) if channels_first else dx

    def grad_filters(g):
        g = np.moveaxis(g, 1, -1) if channels_first else g
        return (patches.T @ g.reshape(-1, cout)).reshape(w.shape)

    if channels_first:
        y = np.moveaxis(y, -1, 1)
    return out(y, (x, f), (grad_input, grad_filters), 2 * k * cout * n * hout * wout, x._dt,
               _CONV2D_FIRST_ORDER)


def _check_conv_shapes(a, w, channels_first):
    if a.ndim != 4:
        raise ValueError(f"`input` must be a 4-D tensor (batch, height, width, channels) for "
                         f"Conv2D; received a {a.ndim}-D tensor of shape {list(a.shape)}")
    if w.ndim != 4:
        raise ValueError(f"`filters` must be a 4-D tensor (height, width, in_channels, "
                         f"out_channels); received shape {list(w.shape)}")
    cin = a.shape[-1]
    if cin != w.shape[2]:
        from sim.i18n import t
        raise InvalidArgumentError(
            f"input depth must be evenly divisible by filter depth: {cin} vs {w.shape[2]} "
            f"[Op:Conv2D] " + t("conv.depth", input=cin, filter=w.shape[2]))


# ---------------------------------------------------------------- max_pool2d


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """``tf.nn.max_pool2d``: the maximum of each (KH, KW) window, per channel.

    FLOPs: ``KH*KW`` per output value forward, the same backward.
    """
    x = tensor(input)
    kh, kw = _pair(ksize, "ksize", "MaxPool", data_format or "NHWC")
    sh, sw = _pair(strides, "strides", "MaxPool", data_format or "NHWC")
    pad = _padding(padding, "MaxPool")
    if not isinstance(pad, str):
        raise ValueError("max_pool2d takes padding 'SAME' or 'VALID'; explicit padding is "
                         "not supported. Pad the input with tf.pad first.")
    a, channels_first = _to_nhwc(x._v, data_format, "MaxPool")
    if a.ndim != 4:
        raise ValueError(f"Input tensor must be of rank 4 (batch, height, width, channels) for "
                         f"max_pool2d; received shape {list(a.shape)}")
    n, h, wd, c = a.shape
    hout, wout, (ph0, ph1), (pw0, pw1) = _window_geometry(h, wd, kh, kw, sh, sw, pad, "MaxPool")
    padded = ph0 or ph1 or pw0 or pw1
    lowest = -np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).min
    xp = np.pad(a, ((0, 0), (ph0, ph1), (pw0, pw1), (0, 0)), constant_values=lowest) \
        if padded else a
    taps = [_tap(xp, i, j, sh, sw, hout, wout) for i in range(kh) for j in range(kw)]
    y = taps[0].copy()
    for v in taps[1:]:
        np.maximum(y, v, out=y)

    def grad(g):
        # each window's gradient goes to its first maximum in row-major order
        g = np.moveaxis(g, 1, -1) if channels_first else g
        dx = np.zeros(xp.shape, g.dtype)
        taken = np.zeros(y.shape, bool)
        disjoint = sh >= kh and sw >= kw   # windows side by side: each cell in one window
        for t, v in enumerate(taps):
            hit = v == y
            if t:
                hit &= ~taken
            taken |= hit
            cell = _tap(dx, t // kw, t % kw, sh, sw, hout, wout)
            if disjoint:
                np.multiply(g, hit, out=cell)
            else:
                cell += g * hit
        dx = _crop(dx, (ph0, ph1), (pw0, pw1), h, wd)
        return np.moveaxis(dx, -1, 1) if channels_first else dx

    if channels_first:
        y = np.moveaxis(y, -1, 1)
    return out(y, (x,), (grad,), kh * kw * y.size, x._dt, _MAXPOOL_FIRST_ORDER)

