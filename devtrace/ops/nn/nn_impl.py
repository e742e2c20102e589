"""``tf.nn`` beyond activations: the cross entropies (TensorFlow's fused ops, whose second output
is the gradient), ``BiasAdd``, convolutions and pooling (NHWC, ``SAME``/``VALID`` padding as
TensorFlow computes it), dropout, moments, normalisation, embedding lookup, and the reductions
TensorFlow composes (``reduce_std`` …)."""

from __future__ import annotations

import math

import numpy as np

from ...runtime import dtypes
from ...runtime import blas_threads
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.tensor_shape import shape_text
from ...runtime.values import constant
from ..array import array_ops, indexing_ops
from ..math import math_ops
from . import nn_ops
from ..random import random_ops
from ..math import reduction_ops
from .. import shapes
from . import xent_graph
from .native import loop, threads
from ..declare import API, as_tensor, gradient, on_host, op, op_scope, public
from ..math.math_grad import stop_gradient

_FLOATS = dtypes.FLOATS



BIAS_ROW = 4096  # elements a row of BiasAdd's addition takes, the bias repeated along it


def _bias_add(xp, x, bias):
    """``x + bias``. NumPy adds a bias of a few channels one row of ``x`` at a time, a loop of a few
    elements per row; on the host, in float32/64, one C pass (the same sums); in other dtypes a
    contiguous ``x`` is added as longer rows, onto the bias repeated."""
    if bias.ndim != 1 or x.shape[-1] != bias.shape[0]:
        raise ValueError(f"Must provide as many biases as the last dimension of the input tensor: {shape_text(bias.shape)} "
                         f"vs. {shape_text(x.shape)}")
    channels = bias.shape[0]
    native = loop("bias_add", xp, x.dtype) if x.ndim > 1 and channels and bias.dtype == x.dtype else None
    if native is not None and x.flags.c_contiguous:
        out = np.empty_like(x)
        native(x, np.ascontiguousarray(bias), out, x.itemsize, threads(x.size))
        return out
    if xp is np and x.ndim > 1 and 0 < channels < BIAS_ROW and x.flags.c_contiguous:
        repeat = math.gcd(x.size // channels, BIAS_ROW // channels)
        if repeat > 1:
            return (x.reshape(-1, repeat * channels) + np.tile(bias, repeat)).reshape(x.shape)
    return x + bias


def _sparse_xent(xp, logits, labels):
    host = on_host(xp, labels)
    classes = logits.shape[-1]
    bad = (host < 0) | (host >= classes)
    if bad.any():
        raise ValueError(f"Received a label value of {int(host[bad][0])} which is outside the valid range of "
                         f"[0, {classes}).  Label values: {' '.join(map(str, host.reshape(-1)))}")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    onehot = xp.eye(classes, dtype=logits.dtype)[xp.asarray(host)]
    return -(onehot * log_probs).sum(axis=-1), xp.exp(log_probs) - onehot


def _xent(xp, logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    return -(labels * log_probs).sum(axis=-1), xp.exp(log_probs) - labels


def _pad_amounts(size, window, stride, padding):
    if padding == "VALID":
        return 0, 0, (size - window) // stride + 1
    out = -(-size // stride)
    total = max((out - 1) * stride + window - size, 0)
    return total // 2, total - total // 2, out


def _windows(xp, x, window, strides, padding, fill=0.0):
    """NHWC ``x`` as ``(n, out_h, out_w, kh, kw, c)`` windows, padded as TensorFlow pads."""
    (kh, kw), (sh, sw) = window, strides
    top, bottom, _ = _pad_amounts(x.shape[1], kh, sh, padding)
    left, right, _ = _pad_amounts(x.shape[2], kw, sw, padding)
    padded = xp.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=fill)
    view = np.lib.stride_tricks.sliding_window_view(on_host(xp, padded), (kh, kw), axis=(1, 2))
    return xp.asarray(view[:, ::sh, ::sw].transpose(0, 1, 2, 4, 5, 3))


def _offsets(xp, x, window, strides, padding, fill=0.0):
    """NHWC ``x``, padded as TensorFlow pads, as one strided view per window offset ``(i, j)``, in
    the window's row-major order: view ``k`` holds element ``k`` of every output position's window.
    Plain slices (no ``as_strided``), so a kernel stays the same on NumPy and CuPy."""
    (kh, kw), (sh, sw) = window, strides
    top, bottom, oh = _pad_amounts(x.shape[1], kh, sh, padding)
    left, right, ow = _pad_amounts(x.shape[2], kw, sw, padding)
    if top or bottom or left or right:
        x = xp.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=fill)
    return [x[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :] for i in range(kh) for j in range(kw)]


def _padded(xp, x, window, strides, padding):
    """NHWC ``x`` zero-padded as TensorFlow pads, and the output's ``(height, width)``."""
    (kh, kw), (sh, sw) = window, strides
    top, bottom, oh = _pad_amounts(x.shape[1], kh, sh, padding)
    left, right, ow = _pad_amounts(x.shape[2], kw, sw, padding)
    if top or bottom or left or right:
        x = xp.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
    return x, (oh, ow)


IM2COL_BYTES = 1 << 20  # the windows' matrix is built at most this big at a time (it stays in a core's L2 cache:
# at batch 128, a 3x3x32 convolution's three products took 7-8 ms each in 1 MiB pieces, 8-14 ms in 8 MiB ones)


def _chunks(windows, itemsize):
    """``(images, rows)`` slices of the output positions of ``(n, oh, ow, kh, kw, c)`` windows whose
    matrix takes at most ``IM2COL_BYTES``: whole images at a time, or rows of one image when one
    image is more."""
    n, oh, ow, kh, kw, c = windows
    rows = max(1, IM2COL_BYTES // max(1, ow * kh * kw * c * itemsize))
    if rows >= oh:
        step = rows // oh
        return [(slice(b, b + step), slice(0, oh)) for b in range(0, max(n, 1), step)]
    return [(slice(b, b + 1), slice(r, min(r + rows, oh))) for b in range(n) for r in range(0, oh, rows)]


def _im2col(xp, x, window, strides, out_width, images, rows):
    """The windows' matrix ``(positions, kh * kw * c)`` of output rows ``rows`` of images ``images``
    of a padded ``x``: each window flattened as the filter ``(kh, kw, c, o)`` flattens its first
    three axes. On the host in float32/64, one C copy per window row (``_fastpath_nn.c``); in other
    dtypes, one copy of a strided view (``as_strided``); with one channel (the view's rows would be
    three elements long), or on a GPU, one copy per window offset."""
    (kh, kw), (sh, sw) = window, strides
    native = loop("im2col", xp, x.dtype)
    if native is not None and x.flags.c_contiguous:  # one copy per window row, in C
        first, last = images.indices(x.shape[0])[:2]
        cols = np.empty(((last - first) * (rows.stop - rows.start) * out_width, kh * kw * x.shape[3]), x.dtype)
        native(x, cols, *x.shape, kh, kw, sh, sw, (x.shape[1] - kh) // sh + 1, out_width, x.itemsize, first,
               last - first, rows.start, rows.stop - rows.start)
        return cols
    part = x[images, rows.start * sh:(rows.stop - 1) * sh + kh]
    b, r, c = part.shape[0], rows.stop - rows.start, x.shape[3]
    if xp is np and c > 1:
        s = part.strides
        view = np.lib.stride_tricks.as_strided(part, (b, r, out_width, kh, kw, c),
                                               (s[0], s[1] * sh, s[2] * sw, s[1], s[2], s[3]), writeable=False)
        return view.reshape(-1, kh * kw * c)
    cols = xp.empty((b, r, out_width, kh, kw, c), x.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, :, i, j, :] = part[:, i:i + sh * (r - 1) + 1:sh, j:j + sw * (out_width - 1) + 1:sw, :]
    return cols.reshape(-1, kh * kw * c)


def _conv2d(xp, x, filters, strides=(1, 1), padding="VALID"):
    """One matrix product (BLAS) of the windows (im2col) and the filter, as TensorFlow's CPU kernel
    contracts; a big input a few images (or rows) at a time, so that the windows' matrix stays small."""
    kh, kw, c, o = filters.shape
    padded, (oh, ow) = _padded(xp, x, (kh, kw), strides, padding)
    n = x.shape[0]
    weights = filters.reshape(-1, o)
    chunks = _chunks((n, oh, ow, kh, kw, c), x.itemsize)
    if len(chunks) == 1:
        cols = _im2col(xp, padded, (kh, kw), strides, ow, *chunks[0])
        return blas_threads.matmul(xp, cols, weights).reshape(n, oh, ow, o).astype(x.dtype, copy=False)
    out = xp.empty((n, oh, ow, o), x.dtype)
    in_place = xp is np and x.dtype in (np.float32, np.float64) and weights.dtype == x.dtype
    for images, rows in chunks:
        part = out[images, rows]
        cols = _im2col(xp, padded, (kh, kw), strides, ow, images, rows)
        if in_place and part.flags.c_contiguous:  # the product written into the output: no copy of it
            blas_threads.matmul(xp, cols, weights, out=part.reshape(-1, o))
        else:
            part[...] = blas_threads.matmul(xp, cols, weights).reshape(part.shape)
    return out


def _pool_fill(dtype):
    """What max pooling pads with: an integer type's least value, else -inf (bfloat16's kind is 'V')."""
    return np.iinfo(dtype).min if dtype.kind in "iu" else -np.inf


def _max_over_windows(xp, views):
    out = views[0].copy() if len(views) == 1 else xp.maximum(views[0], views[1])
    for view in views[2:]:
        xp.maximum(out, view, out=out)
    return out


def _pool(reduce):
    def kernel(xp, x, ksize=(1, 1), strides=(1, 1), padding="VALID", explicit_paddings=()):
        fill = _pool_fill(x.dtype) if reduce == "max" else 0.0
        if padding == "EXPLICIT":  # the given amounts, then no more
            pads = np.asarray(explicit_paddings, np.int64).reshape(4, 2)
            x, padding = xp.pad(x, [tuple(p) for p in pads], constant_values=fill), "VALID"
        native = loop("max_pool", xp, x.dtype) if reduce == "max" else None
        (kh, kw), (sh, sw) = ksize, strides
        oh, ow = (_pad_amounts(x.shape[k], ksize[k - 1], strides[k - 1], "VALID")[2] for k in (1, 2))
        if native is not None and padding == "VALID" and oh > 0 and ow > 0:  # one pass in C, the same maxima
            x = np.ascontiguousarray(x)
            out = np.empty((x.shape[0], oh, ow, x.shape[3]), x.dtype)
            native(x, out, *x.shape, kh, kw, sh, sw, oh, ow, x.itemsize, threads(x.size))
            return out
        if reduce == "max":  # one elementwise maximum per window offset: NaN wins, as in a max
            return _max_over_windows(xp, _offsets(xp, x, ksize, strides, padding, fill)).astype(x.dtype, copy=False)
        win = _windows(xp, x, ksize, strides, padding, fill)
        ones = _windows(xp, xp.ones(x.shape[:3] + (1,), x.dtype), ksize, strides, padding)
        return (win.sum(axis=(3, 4)) / ones.sum(axis=(3, 4))).astype(x.dtype)  # SAME: the real elements only
    return kernel


op("BiasAdd", _bias_add, dtypes.NUMERIC, shape=shapes.same)
def _xent_shapes(name, shapes, attrs, dtype):
    """The loss per row (the logits' shape without the class axis) and the backprop (the logits')."""
    logits = shapes[0] if shapes else None
    return [(dtype, tuple(logits[:-1]) if logits is not None else None), (dtype, logits)], None


op("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent, _FLOATS, mixed_dtypes=True, multi=True, shape=_xent_shapes)
op("SoftmaxCrossEntropyWithLogits", _xent, _FLOATS, multi=True, shape=_xent_shapes)
op("Conv2D", _conv2d, _FLOATS, host_args=("strides",), shape=shapes.conv2d)
op("MaxPool", _pool("max"), dtypes.REAL, shape=shapes.conv2d)
op("AvgPool", _pool("avg"), _FLOATS, shape=shapes.conv2d)


@gradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op, grad_loss, grad_backprop):
    return math_ops.multiply(array_ops.expand_dims(grad_loss, -1), op.outputs[1]), None


@gradient("SoftmaxCrossEntropyWithLogits")
def _xent_grad(op, grad_loss, grad_backprop):
    """TensorFlow's: each part through its ``_BroadcastMul`` (an ``ExpandDims`` and a ``mul``)."""
    grad = array_ops.expand_dims(grad_loss, -1) * op.outputs[1]
    log_probs = -nn_ops.log_softmax(op.inputs[0])
    return grad, array_ops.expand_dims(grad_loss, -1) * log_probs



@public("nn.bias_add")
def bias_add(value, bias, data_format=None, name=None):
    if context().eager:
        return execute("BiasAdd", (as_tensor(value), as_tensor(bias, slow_list=True)), name=name)
    with op_scope("BiasAdd", name) as scope:  # a variable is read in it: BiasAdd/ReadVariableOp
        return execute("BiasAdd", (as_tensor(value, name="input"), as_tensor(bias, name="bias")), name=scope)


@public("nn.sparse_softmax_cross_entropy_with_logits")
def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    logits, labels = as_tensor(logits), as_tensor(labels)
    rank, label_rank = logits.shape.rank, labels.shape.rank
    if rank is not None and label_rank is not None and label_rank != rank - 1:
        raise ValueError(f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape="
                         f"{labels.shape} of rank {label_rank} and logits.shape={logits.shape} of rank {rank}")
    if rank is None or rank == 2:
        loss, _ = execute("SparseSoftmaxCrossEntropyWithLogits", (logits, labels), name=name)
        return loss
    # TensorFlow's wrapper for other ranks: the classes of every position as rows, the loss in the labels' shape
    labels_shape = array_ops.shape(labels)
    flat_logits = array_ops.reshape(logits, [-1, array_ops.shape(logits)[-1]])
    loss, _ = execute("SparseSoftmaxCrossEntropyWithLogits", (flat_logits, array_ops.reshape(labels, [-1])), name=name)
    return array_ops.reshape(loss, labels_shape)


@public("nn.softmax_cross_entropy_with_logits")
def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    if context().eager or axis not in (-1, None):
        logits = as_tensor(logits)
        loss, _ = execute("SoftmaxCrossEntropyWithLogits", (logits, as_tensor(labels) if not isinstance(labels, list)
                                                            else constant(labels, logits.dtype)), name=name)
        return loss
    with op_scope("softmax_cross_entropy_with_logits", name) as scope:  # TensorFlow's nodes (xent_graph)
        logits = as_tensor(logits, name="logits")
        labels = as_tensor(labels, name="labels") if not isinstance(labels, list) else \
            constant(labels, logits.dtype, name="labels")
        if logits.shape.rank is None or None in tuple(logits.shape) or len(logits.shape) < 1:
            return execute("SoftmaxCrossEntropyWithLogits", (logits, labels), name=scope)[0]
        return xent_graph.softmax_cross_entropy(logits, labels, scope)


@public("nn.sigmoid_cross_entropy_with_logits")
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """``max(x, 0) - x * z + log1p(exp(-|x|))``, TensorFlow's stable form."""
    x = as_tensor(logits)
    z = as_tensor(labels) if not isinstance(labels, list) else constant(labels, x.dtype)
    zeros = array_ops.zeros_like(x)
    cond = x >= zeros
    relu_logits = array_ops.where(cond, x, zeros)
    # -|x| by a select, as TensorFlow's: at x == 0 its gradient is -1 (abs's would be 0)
    neg_abs_logits = array_ops.where(cond, -x, x)
    return math_ops.add(math_ops.subtract(relu_logits, x * z), math_ops.log1p(math_ops.exp(neg_abs_logits)))


@public("nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    x = as_tensor(logits)
    z = as_tensor(labels) if not isinstance(labels, list) else constant(labels, x.dtype)
    log_weight = 1.0 + (pos_weight - 1.0) * z
    return math_ops.add((1.0 - z) * x, log_weight * (math_ops.log1p(math_ops.exp(-math_ops.abs_(x)))
                                                     + nn_ops.relu(-x)))


@public("nn.log_poisson_loss")
def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    log_input = as_tensor(log_input)
    return math_ops.exp(log_input) - log_input * as_tensor(targets)


@public("nn.l2_normalize", "math.l2_normalize", "linalg.l2_normalize")
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    x = as_tensor(x)
    square_sum = reduction_ops.reduce_sum(math_ops.square(x), axis=axis, keepdims=True)
    return math_ops.multiply(x, math_ops.rsqrt(math_ops.maximum(square_sum, epsilon)))


@public("nn.dropout")
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    x = as_tensor(x)
    if not isinstance(rate, float) and not isinstance(rate, int) or not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    if rate == 0:
        return x
    random = random_ops.uniform(noise_shape or list(x.shape), seed=seed, dtype=x.dtype)
    kept = math_ops.multiply(x, 1 / (1 - rate))
    return array_ops.where(random >= rate, kept, array_ops.zeros_like(x))


@public("nn.moments")
def moments(x, axes, shift=None, keepdims=False, name=None):
    x = as_tensor(x)
    mean = reduction_ops.reduce_mean(x, axis=axes, keepdims=True)
    variance = reduction_ops.reduce_mean(math_ops.squared_difference(x, stop_gradient(mean)), axis=axes,
                                         keepdims=True)
    if not keepdims:
        mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
    return mean, variance


@public("nn.batch_normalization")
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    inv = math_ops.rsqrt(variance + variance_epsilon)  # as TensorFlow: a Python list here is a TypeError
    if scale is not None:
        inv = inv * scale
    x = as_tensor(x)
    shift = (offset - mean * inv) if offset is not None else -mean * inv
    return x * array_ops.cast(inv, x.dtype) + array_ops.cast(shift, x.dtype)


def _pair(value, default=1):
    if value is None:
        return (default, default)
    value = list(value) if isinstance(value, (list, tuple)) else [value]
    return tuple(value[1:3]) if len(value) == 4 else (value[0], value[-1])


def _check_padding(op_type, padding, allowed=("SAME", "VALID", "EXPLICIT")) -> None:
    """TensorFlow's op-def check of a ``padding`` string (``"valid"`` is not ``"VALID"``): eagerly the
    op's InvalidArgumentError, in a graph the ValueError of its builder."""
    if not isinstance(padding, str) or padding in allowed:
        return
    from ...errors import InvalidArgumentError
    from ...runtime.registry import lookup

    listed = ", ".join(f'"{a}"' for a in allowed)
    if not context().eager:
        raise ValueError(f"Attr 'padding' of '{op_type}' Op passed string '{padding}' not in: {listed}.")
    raise InvalidArgumentError(f'Value for attr \'padding\' of "{padding}" is not in the list of allowed values: '
                               f"{listed}\n\t; NodeDef: {{{{node {op_type}}}}}; {lookup(op_type).signature} "
                               f"[Op:{op_type}] name: ", op=op_type)


@public("nn.conv2d")
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    _check_padding("Conv2D", padding)
    if dilations is not None and set(_dilations(dilations, 2)) != {1}:
        return API["nn.convolution"](input, filters, strides, padding, dilations=_dilations(dilations, 2), name=name)
    return execute("Conv2D", (as_tensor(input), as_tensor(filters)), {"strides": _pair(strides),
                                                                     "padding": padding.upper()}, name=name)


@public("nn.conv1d")
def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    if dilations is not None and set(_dilations(dilations, 1)) != {1}:
        return API["nn.convolution"](input, filters, stride, padding, dilations=_dilations(dilations, 1), name=name)
    x = array_ops.expand_dims(as_tensor(input), 1)
    f = array_ops.expand_dims(as_tensor(filters), 0)
    return array_ops.squeeze(conv2d(x, f, [1, stride] if isinstance(stride, int) else [1, stride[0]], padding), [1])


def _dilations(value, n):
    """A ``dilations`` argument as ``n`` spatial rates (one int, ``n`` of them or ``n + 2`` with the
    batch's and the channels')."""
    rates = [int(value)] * n if isinstance(value, int) else [int(v) for v in value]
    return rates[1:-1] if len(rates) == n + 2 else rates


def _pooling(op_type, input, ksize, strides, padding, name, one_d=False):  # noqa: A002
    _check_padding(op_type, padding, ("SAME", "VALID", "EXPLICIT") if op_type == "MaxPool" else ("SAME", "VALID"))
    x = as_tensor(input)
    if one_d:
        x = array_ops.expand_dims(x, 1)
        ksize = (1, ksize if isinstance(ksize, int) else ksize[0])
        strides = (1, strides if isinstance(strides, int) else strides[0])
    attrs = {"ksize": _pair(ksize), "strides": _pair(strides), "padding": padding.upper()} if isinstance(padding, str) \
        else {"ksize": _pair(ksize), "strides": _pair(strides), "padding": "EXPLICIT",
              "explicit_paddings": [int(v) for pair in padding for v in pair]}
    out = execute(op_type, (x,), attrs, name=name)
    return array_ops.squeeze(out, [1]) if one_d else out


@public("nn.max_pool2d", "nn.max_pool")
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _pooling("MaxPool", input, ksize, strides, padding, name)


@public("nn.avg_pool2d", "nn.avg_pool")
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _pooling("AvgPool", input, ksize, strides, padding, name)


@public("nn.max_pool1d")
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _pooling("MaxPool", input, ksize, strides, padding, name, one_d=True)


@public("nn.avg_pool1d")
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _pooling("AvgPool", input, ksize, strides, padding, name, one_d=True)


@public("nn.embedding_lookup")
def embedding_lookup(params, ids, max_norm=None, name=None):
    return indexing_ops.gather(params, ids)


# -- the reductions TensorFlow composes ----------------------------------------------------------

def _floating(x, what="Input"):
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"{what} must be either real or complex. Received integer type {x.dtype}.")


@public("math.reduce_variance")
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = as_tensor(input_tensor)
    _floating(x)
    mean = reduction_ops.reduce_mean(x, axis=axis, keepdims=True)
    return reduction_ops.reduce_mean(math_ops.square(x - mean), axis=axis, keepdims=keepdims)


@public("math.reduce_std")
def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return math_ops.sqrt(reduce_variance(input_tensor, axis, keepdims))


@public("reduce_logsumexp", "math.reduce_logsumexp")
def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    from ..declare import API

    x = as_tensor(input_tensor)
    raw_max = reduction_ops.reduce_max(x, axis=axis, keepdims=True)
    # an infinite maximum (every entry -inf) is not subtracted: -inf stays -inf, not nan (TensorFlow's)
    top = stop_gradient(API["where"](math_ops.is_finite(raw_max), raw_max, API["zeros_like"](raw_max)))
    out = math_ops.log(reduction_ops.reduce_sum(math_ops.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else array_ops.reshape(out, list(reduction_ops.reduce_sum(x, axis=axis).shape))


@public("math.reduce_euclidean_norm")
def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    x = as_tensor(input_tensor)
    return math_ops.sqrt(reduction_ops.reduce_sum(math_ops.square(x), axis=axis, keepdims=keepdims))


@public("math.count_nonzero", "compat.v1.count_nonzero")
def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):  # noqa: A002
    x = as_tensor(input)
    nonzero = math_ops.not_equal(x, array_ops.zeros_like(x))
    return reduction_ops.reduce_sum(array_ops.cast(nonzero, dtype), axis=axis, keepdims=bool(keepdims))
