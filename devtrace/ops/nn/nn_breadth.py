"""The rest of ``tf.nn`` (issue 28's breadth): 3-D pooling (``MaxPool3D``, ``AvgPool3D``; the 3-D
convolution's ops are ``conv3d_ops``'s), ``LRN``, ``Dilation2D``,
``MaxPoolWithArgmax``, ``CTCGreedyDecoder`` and ``ComputeAccidentalHits``
(ops with TensorFlow's kernels per device type); and what TensorFlow composes from ops:
``convolution``/``conv_transpose`` and their 1-D/2-D/3-D/atrous forms (dilations through
``SpaceToBatchND``/``BatchToSpaceND``, as TensorFlow's ``with_space_to_batch``), ``pool``,
``separable_conv2d``, ``crelu``, ``erosion2d``, the moments helpers, the loss scalers,
``batch_norm_with_global_normalization``, ``collapse_repeated`` and ``ctc_unique_labels``."""

from __future__ import annotations

import collections

import numpy as np

from ... import hooks
from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..declare import API, as_tensor, gradient, not_differentiable, on_host, op, public
from .conv3d_ops import conv3d, conv3d_transpose
from .nn_impl import _pad_amounts, _pair

_F = frozenset(("bfloat16", "float16", "float32", "float64"))


def _ints(value, n, default=1):
    """A stride/ksize/dilation argument as ``n`` spatial ints (from one int, ``n`` of them or ``n + 2``)."""
    if value is None:
        return (default,) * n
    values = [int(v) for v in (value if isinstance(value, (list, tuple, np.ndarray)) else [value])]
    if len(values) == 1:
        return tuple(values) * n
    return tuple(values[1:-1]) if len(values) == n + 2 else tuple(values)


def _padded(xp, x, window, strides, padding, fill=0.0, dilations=None):
    """``x`` (N, *spatial, C) padded as TensorFlow pads for ``window``/``strides``; the output sizes."""
    pads, sizes = [(0, 0)], []
    for i, (k, s) in enumerate(zip(window, strides)):
        d = 1 if dilations is None else dilations[i]
        before, after, out = _pad_amounts(x.shape[1 + i], (k - 1) * d + 1, s, padding)
        pads.append((before, after))
        sizes.append(out)
    pads.append((0, 0))
    return xp.pad(x, pads, constant_values=fill), sizes


def _windows_nd(xp, x, window, strides, padding, fill=0.0):
    """(N, *out, *window, C) windows of an N-d input (NDHWC …)."""
    padded, _ = _padded(xp, x, window, strides, padding, fill)
    n = len(window)
    view = np.lib.stride_tricks.sliding_window_view(on_host(xp, padded), tuple(window), axis=tuple(range(1, n + 1)))
    view = view[(slice(None),) + tuple(slice(None, None, s) for s in strides)]
    # (N, *out, C, *window) -> (N, *out, *window, C)
    order = list(range(n + 1)) + list(range(n + 2, 2 * n + 2)) + [n + 1]
    return xp.asarray(view.transpose(order))


def _conv_transpose_nd(xp, filters, grad, input_sizes=(), strides=(), padding="VALID"):
    """The gradient of an N-d convolution to its input (a transposed convolution): each output
    position's contribution, through the filter, added back over its window."""
    n = filters.ndim - 2
    sizes = [int(v) for v in input_sizes]
    window = filters.shape[:n]
    pads = [_pad_amounts(sizes[1 + i], window[i], strides[i], padding) for i in range(n)]
    padded_shape = [sizes[0]] + [sizes[1 + i] + pads[i][0] + pads[i][1] for i in range(n)] + [sizes[-1]]
    out = xp.zeros(padded_shape, grad.dtype)
    outs = grad.shape[1:1 + n]
    for offset in np.ndindex(*window):
        piece = xp.tensordot(grad, filters[offset], axes=([n + 1], [1]))  # (N, *outs, C)
        index = (slice(None),) + tuple(slice(o, o + strides[i] * outs[i], strides[i]) for i, o in enumerate(offset))
        out[index] += piece
    crop = (slice(None),) + tuple(slice(p[0], p[0] + sizes[1 + i]) for i, p in enumerate(pads))
    return out[crop].astype(grad.dtype)


def _pool_nd(reduce):
    def kernel(xp, x, ksize=(), strides=(), padding="VALID"):
        n = x.ndim - 2
        window, steps = tuple(ksize)[1:1 + n], tuple(strides)[1:1 + n]
        fill = -np.inf if reduce == "max" else 0.0
        win = _windows_nd(xp, x, window, steps, padding, fill)
        axes = tuple(range(1 + n, 1 + 2 * n))
        if reduce == "max":
            return win.max(axis=axes).astype(x.dtype)
        ones = _windows_nd(xp, xp.ones(x.shape[:-1] + (1,), x.dtype), window, steps, padding)
        return (win.sum(axis=axes) / ones.sum(axis=axes)).astype(x.dtype)
    return kernel


def _unknown(name, shapes, attrs, dtype):
    return dtype, None


op("MaxPool3D", _pool_nd("max"), {CPU: {"bfloat16", "float32"}, GPU: {"bfloat16", "float16", "float32"}},
   shape=_unknown)
op("AvgPool3D", _pool_nd("avg"), {CPU: {"bfloat16", "float32"}, GPU: {"bfloat16", "float16", "float32"}},
   shape=_unknown)


def _transpose_sizes(output_shape):
    return [int(v) for v in (output_shape.numpy() if isinstance(output_shape, Tensor) else output_shape)]


@public("nn.conv2d_transpose")
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    if _ints(dilations, 2) != (1, 1):
        raise NotImplementedError("devtrace does not implement tf.nn.conv2d_transpose with dilations yet")
    return execute("Conv2DBackpropInput", (as_tensor(filters), as_tensor(input)),
                   {"input_sizes": tuple(_transpose_sizes(output_shape)), "strides": _ints(strides, 2),
                    "padding": padding.upper()}, name=name)


@public("nn.conv1d_transpose")
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    x = API["expand_dims"](as_tensor(input), 1)
    f = API["expand_dims"](as_tensor(filters), 0)
    sizes = _transpose_sizes(output_shape)
    out = conv2d_transpose(x, f, [sizes[0], 1] + sizes[1:], [1, _ints(strides, 1)[0]], padding)
    return API["squeeze"](out, [1], name=name)


@public("nn.conv_transpose")
def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    rank = len(_transpose_sizes(output_shape)) - 2
    fn = {1: conv1d_transpose, 2: conv2d_transpose, 3: conv3d_transpose}.get(rank)
    if fn is None:
        raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: output_shape={output_shape} of "
                         f"length {rank + 2}.")
    return fn(input, filters, output_shape, strides, padding, dilations=dilations, name=name)


@public("nn.atrous_conv2d_transpose")
def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    if rate == 1:
        return conv2d_transpose(value, filters, output_shape, 1, padding, name=name)
    raise NotImplementedError("devtrace does not implement tf.nn.atrous_conv2d_transpose with rate > 1 yet")


def _convolve(x, filters, strides, padding, name=None):
    rank = x.shape.rank - 2
    if rank == 1:
        return API["nn.conv1d"](x, filters, list(strides), padding, name=name)
    if rank == 2:
        return API["nn.conv2d"](x, filters, list(strides), padding, name=name)
    if rank == 3:
        return conv3d(x, filters, list(strides), padding, name=name)
    raise ValueError(f"`input` must be 3-D, 4-D or 5-D. Received input of rank {rank + 2}")


@public("nn.with_space_to_batch")
def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """``op(converted, num_spatial_dims, "VALID")`` on ``input`` taken apart by ``SpaceToBatchND``
    (``dilation_rate`` the block), put back by ``BatchToSpaceND``: a dilated op as TensorFlow runs it."""
    x = as_tensor(input)
    rate = np.asarray(dilation_rate, np.int32).reshape(-1)
    n = rate.size
    if (rate == 1).all():
        return op(x, n, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. Received: filter_shape=None "
                             "and padding='SAME'")
        fs = np.asarray(filter_shape, np.int32).reshape(-1)
        extra = fs + (fs - 1) * (rate - 1) - 1
        base = np.stack([extra // 2, extra - extra // 2], 1)
    elif padding == "VALID":
        base = np.zeros((n, 2), np.int32)
    else:
        raise ValueError(f"Padding method {padding!r} not supported")
    spatial = [int(d) for d in x.shape[1:1 + n]]
    paddings, crops = API["required_space_to_batch_paddings"](spatial, rate, base)
    converted = API["space_to_batch_nd"](x, rate, paddings)
    result = op(converted, n, "VALID")
    return API["batch_to_space"](result, rate, crops)


@public("nn.convolution")
def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,  # noqa: A002
                name=None):
    x, f = as_tensor(input), as_tensor(filters)
    n = f.shape.rank - 2
    steps, rates = _ints(strides, n), _ints(dilations, n)
    if set(rates) == {1}:
        return _convolve(x, f, steps, padding.upper(), name)
    if set(steps) != {1}:
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides={list(steps)} and dilation_rate={list(rates)}")
    return with_space_to_batch(x, rates, padding.upper(), lambda c, k, p: _convolve(c, f, steps, p),
                               filter_shape=[int(d) for d in f.shape[:n]])


@public("nn.atrous_conv2d")
def atrous_conv2d(value, filters, rate, padding, name=None):
    return convolution(value, filters, padding=padding, dilations=[rate, rate], name=name)


def _pool3d(op_type, input, ksize, strides, padding, name):  # noqa: A002
    return execute(op_type, (as_tensor(input),), {"ksize": (1,) + _ints(ksize, 3) + (1,),
                                                  "strides": (1,) + _ints(strides, 3) + (1,),
                                                  "padding": padding.upper()}, name=name)


@public("nn.max_pool3d")
def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _pool3d("MaxPool3D", input, ksize, strides, padding, name)


@public("nn.avg_pool3d")
def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _pool3d("AvgPool3D", input, ksize, strides, padding, name)


@public("nn.pool")
def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    x = as_tensor(input)
    n = len(window_shape)
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{pooling_type!r} is not a valid pooling_type. Must be 'MAX' or 'AVG'.")
    if _ints(dilations, n) != (1,) * n:
        raise NotImplementedError("devtrace does not implement tf.nn.pool with dilations yet")
    window, steps = list(window_shape), list(_ints(strides, n))
    if n == 1:
        fn = API["nn.max_pool1d"] if pooling_type == "MAX" else API["nn.avg_pool1d"]
    elif n == 2:
        fn = API["nn.max_pool2d"] if pooling_type == "MAX" else API["nn.avg_pool2d"]
    else:
        fn = max_pool3d if pooling_type == "MAX" else avg_pool3d
    return fn(x, window, steps, padding, name=name)


@public("nn.separable_conv2d")
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    depthwise = API["nn.depthwise_conv2d"](input, depthwise_filter, strides, padding, dilations=dilations)
    return API["nn.conv2d"](depthwise, pointwise_filter, [1, 1, 1, 1], "VALID", name=name)


@public("nn.crelu")
def crelu(features, axis=-1, name=None):
    """``relu`` of ``features`` and of its negation, concatenated (TensorFlow's order: Neg, ConcatV2, Relu)."""
    x = as_tensor(features)
    both = API["concat"]([x, API["negative"](x)], axis)
    return API["nn.relu"](both, name=name)


def _lrn(xp, x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    squared = (x.astype(np.float32) ** 2)
    channels = x.shape[-1]
    total = xp.zeros_like(squared)
    for shift in range(-depth_radius, depth_radius + 1):
        lo, hi = max(0, -shift), min(channels, channels - shift)
        total[..., lo:hi] += squared[..., lo + shift:hi + shift]
    return (x / (bias + alpha * total) ** beta).astype(x.dtype)


op("LRN", _lrn, {CPU: {"float16", "float32"}, GPU: {"float32"}}, shape=lambda name, shapes, attrs, dtype:
   (dtype, shapes[0]))


@public("nn.local_response_normalization", "nn.lrn")
def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):  # noqa: A002
    return execute("LRN", (as_tensor(input),), {"depth_radius": int(depth_radius), "bias": float(bias),
                                                "alpha": float(alpha), "beta": float(beta)}, name=name)


def _dilation2d(xp, x, filters, strides=(1, 1, 1, 1), rates=(1, 1, 1, 1), padding="VALID"):
    host, f = on_host(xp, x), on_host(xp, filters)
    (sh, sw), (rh, rw) = tuple(strides)[1:3], tuple(rates)[1:3]
    kh, kw = f.shape[:2]
    fill = -np.inf if host.dtype.kind == "f" else np.iinfo(host.dtype).min
    padded, (oh, ow) = _padded(np, host.astype(np.float64), (kh, kw), (sh, sw), padding, -np.inf, (rh, rw))
    out = np.full((host.shape[0], oh, ow, host.shape[3]), -np.inf)
    for i in range(kh):
        for j in range(kw):
            piece = padded[:, i * rh:i * rh + sh * oh:sh, j * rw:j * rw + sw * ow:sw, :] + f[i, j]
            out = np.maximum(out, piece)
    out = np.where(np.isneginf(out), fill, out)
    return xp.asarray(out.astype(host.dtype))


op("Dilation2D", _dilation2d, {CPU: {"bfloat16", "float16", "float32", "float64", "int16", "int32", "int64", "int8",
                                     "uint16", "uint32", "uint64", "uint8"}, GPU: _F}, shape=_unknown)


@public("nn.dilation2d")
def dilation2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    return execute("Dilation2D", (as_tensor(input), as_tensor(filters)),
                   {"strides": (1,) + _ints(strides, 2) + (1,), "rates": (1,) + _ints(dilations, 2) + (1,),
                    "padding": padding.upper()}, name=name)


@public("nn.erosion2d")
def erosion2d(value, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """``-dilation2d(-value, reversed filters)``, as TensorFlow composes it."""
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    flipped = API["reverse"](as_tensor(filters), [0, 1])
    return API["negative"](dilation2d(API["negative"](value), flipped, strides, padding, "NHWC", dilations),
                           name=name)


MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def _max_pool_with_argmax(xp, x, ksize=(), strides=(), padding="VALID", Targmax="int64",
                          include_batch_in_index=False):
    host = on_host(xp, x)
    n, h, w, c = host.shape
    (kh, kw), (sh, sw) = tuple(ksize)[1:3], tuple(strides)[1:3]
    top, _, oh = _pad_amounts(h, kh, sh, padding)
    left, _, ow = _pad_amounts(w, kw, sw, padding)
    out = np.zeros((n, oh, ow, c), host.dtype)
    arg = np.zeros((n, oh, ow, c), np.int64)
    for b in range(n):
        for y in range(oh):
            for xx in range(ow):
                ys = range(max(0, y * sh - top), min(h, y * sh - top + kh))
                xs = range(max(0, xx * sw - left), min(w, xx * sw - left + kw))
                block = host[b, ys.start:ys.stop, xs.start:xs.stop, :].reshape(-1, c)
                best = block.argmax(axis=0)
                out[b, y, xx] = block[best, np.arange(c)]
                by, bx = ys.start + best // len(xs), xs.start + best % len(xs)
                flat = (by * w + bx) * c + np.arange(c)
                arg[b, y, xx] = flat + (b * h * w * c if include_batch_in_index else 0)
    return xp.asarray(out), xp.asarray(arg.astype(dtypes.as_dtype(Targmax).np))


def _argmax_shape(name, shapes, attrs, dtype):
    return [(dtype, None), (dtypes.as_dtype(attrs.get("Targmax", "int64")), None)], None


op("MaxPoolWithArgmax", _max_pool_with_argmax, {CPU: {"bfloat16", "float16", "float32", "float64", "int16", "int32",
                                                      "int64", "int8", "uint16", "uint32", "uint64", "uint8"},
                                                GPU: _F | {"int64"}}, shape=_argmax_shape, multi=True)
not_differentiable("MaxPoolWithArgmax")


@public("nn.max_pool_with_argmax")
def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", output_dtype=dtypes.int64,  # noqa: A002
                         include_batch_in_index=False, name=None):
    if data_format != "NHWC":
        raise ValueError("`data_format` values other than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    out, arg = execute("MaxPoolWithArgmax", (as_tensor(input),),
                       {"ksize": (1,) + _ints(ksize, 2) + (1,), "strides": (1,) + _ints(strides, 2) + (1,),
                        "padding": padding.upper(), "Targmax": dtypes.as_dtype(output_dtype).name,
                        "include_batch_in_index": bool(include_batch_in_index)}, name=name)
    return MaxPoolWithArgmax(out, arg)


@public("nn.depthwise_conv2d_backprop_input")
def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                    data_format="NHWC", dilations=None, name=None):
    return execute("DepthwiseConv2dNativeBackpropInput", (as_tensor(filter), as_tensor(out_backprop)),
                   {"input_sizes": tuple(_transpose_sizes(input_sizes)), "strides": tuple(strides)[1:3],
                    "padding": padding.upper()}, name=name)


@public("nn.depthwise_conv2d_backprop_filter")
def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                     data_format="NHWC", dilations=None, name=None):
    return execute("DepthwiseConv2dNativeBackpropFilter", (as_tensor(input), as_tensor(out_backprop)),
                   {"filter_sizes": tuple(_transpose_sizes(filter_sizes)), "strides": tuple(strides)[1:3],
                    "padding": padding.upper()}, name=name)


@public("nn.normalize_moments")
def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """The mean and variance from sufficient statistics (``shift``-ed sums), as TensorFlow computes them."""
    divisor = API["math.reciprocal"](as_tensor(counts))
    if shift is not None:
        shifted_mean = API["multiply"](mean_ss, divisor)
        mean = API["add"](shifted_mean, shift)
    else:
        shifted_mean = API["multiply"](mean_ss, divisor)
        mean = shifted_mean
    variance = API["subtract"](API["multiply"](variance_ss, divisor), API["square"](shifted_mean))
    return mean, variance


@public("nn.sufficient_statistics")
def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """The count, (shifted) sum and sum of squares of ``x`` over ``axes``, and the shift."""
    x = as_tensor(x)
    dims = [int(d) for d in x.shape]
    count = float(np.prod([dims[a] for a in axes]))
    counts = constant(count, x.dtype)
    if shift is not None:
        shift = as_tensor(shift)
        centered = API["subtract"](x, shift)
        m_ss = API["reduce_sum"](centered, axes, keepdims=keepdims)
        v_ss = API["reduce_sum"](API["square"](centered), axes, keepdims=keepdims)
    else:
        m_ss = API["reduce_sum"](x, axes, keepdims=keepdims)
        v_ss = API["reduce_sum"](API["square"](x), axes, keepdims=keepdims)
    return counts, m_ss, v_ss, shift


@public("nn.weighted_moments")
def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """The frequency-weighted mean and variance of ``x`` over ``axes``."""
    x = as_tensor(x)
    w = API["cast"](as_tensor(frequency_weights), x.dtype)
    weighted_sum = API["reduce_sum"](API["multiply"](w, x), axes, keepdims=True)
    total = API["reduce_sum"](API["multiply"](w, API["ones_like"](x)), axes, keepdims=True)
    divisor = API["math.reciprocal"](total)
    mean = API["multiply"](weighted_sum, divisor)
    variance = API["multiply"](API["reduce_sum"](API["multiply"](w, API["math.squared_difference"](x, mean)), axes,
                                                 keepdims=True), divisor)
    if not keepdims:
        mean = API["squeeze"](mean, axes)
        variance = API["squeeze"](variance, axes)
    return mean, variance


@public("nn.compute_average_loss")
def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The per-example losses' sum over the global batch size: by default this replica's batch
    times the number of replicas in sync (a distribution strategy's, else one)."""
    loss = as_tensor(per_example_loss)
    if sample_weight is not None:
        loss = API["multiply"](loss, API["cast"](as_tensor(sample_weight), loss.dtype))
    if global_batch_size is None:
        replicas = _replicas_in_sync("compute_average_loss")
        global_batch_size = API["shape"](loss)[0]
        if replicas != 1:
            global_batch_size = API["multiply"](global_batch_size, constant(replicas, dtypes.int32))
    batch = API["cast"](as_tensor(global_batch_size), loss.dtype)
    return API["math.divide"](API["reduce_sum"](loss), batch)


@public("nn.scale_regularization_loss")
def scale_regularization_loss(regularization_loss):
    """The sum of the losses over the number of replicas in sync."""
    replicas = _replicas_in_sync("scale_regularization_loss")
    if isinstance(regularization_loss, (list, tuple)):
        regularization_loss = API["add_n"](list(regularization_loss))
    total = API["reduce_sum"](as_tensor(regularization_loss))
    return API["math.divide"](total, constant(replicas, total.dtype))


def _replicas_in_sync(name: str) -> int:
    """``get_strategy().num_replicas_in_sync`` where a replica runs; TensorFlow's error in a
    strategy's cross-replica scope."""
    where = hooks.DISTRIBUTION[0]() if hooks.DISTRIBUTION else None
    if where is None:
        return 1
    strategy, replica = where
    if replica is None:
        raise RuntimeError(f"You are calling `{name}` in cross replica context, while it was expected to be called "
                           "in replica context.")
    return strategy.num_replicas_in_sync


@public("nn.batch_norm_with_global_normalization")
def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,  # noqa: A002
                                         scale_after_normalization, name=None):
    return API["nn.batch_normalization"](input, mean, variance, beta, gamma if scale_after_normalization else None,
                                         variance_epsilon, name=name)


@public("nn.collapse_repeated")
def collapse_repeated(labels, seq_length, name=None):
    """Each row's runs of a repeated label merged into one, and the new lengths."""
    labels, lengths = on_host(np, as_tensor(labels).numpy()), as_tensor(seq_length).numpy()
    rows = []
    for row, n in zip(labels, lengths):
        kept = [v for i, v in enumerate(row[:n]) if i == 0 or v != row[i - 1]]
        rows.append(kept)
    width = max((len(r) for r in rows), default=0)
    out = np.zeros((len(rows), width), labels.dtype)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return constant(out), constant(np.array([len(r) for r in rows], lengths.dtype))


@public("nn.ctc_unique_labels")
def ctc_unique_labels(labels, name=None):
    """Per row: its unique labels (in order of appearance, zero-padded) and each label's index among them."""
    host = as_tensor(labels).numpy()
    uniques, indices = [], []
    for row in host:
        seen = {}
        idx = [seen.setdefault(v, len(seen)) for v in row.tolist()]
        uniques.append(list(seen))
        indices.append(idx)
    out = np.zeros(host.shape, host.dtype)
    for i, u in enumerate(uniques):
        out[i, :len(u)] = u
    return constant(out.astype(np.int64)), constant(np.array(indices, host.dtype))


def _ctc_greedy(xp, inputs, sequence_length, merge_repeated=True, blank_index=-1):
    logits, lengths = on_host(xp, inputs), on_host(xp, sequence_length)
    t, b, classes = logits.shape
    blank = classes - 1 if blank_index < 0 else blank_index
    indices, values, log_probs = [], [], np.zeros((b, 1), logits.dtype)
    longest = 0
    for row in range(b):
        steps = logits[:int(lengths[row]), row]
        best = steps.argmax(axis=1)
        log_probs[row, 0] = -steps.max(axis=1).sum()
        decoded, previous = [], -1
        for label in best.tolist():
            if label != blank and not (merge_repeated and label == previous):
                decoded.append(label)
            previous = label
        for i, v in enumerate(decoded):
            indices.append((row, i))
            values.append(v)
        longest = max(longest, len(decoded))
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64), np.array([b, longest], np.int64),
            log_probs)


def _ctc_greedy_shape(name, shapes, attrs, dtype):
    return [(dtypes.int64, (None, 2)), (dtypes.int64, (None,)), (dtypes.int64, (2,)), (dtype, None)], None


op("CTCGreedyDecoder", _ctc_greedy, {"float32", "float64"}, devices=(CPU,), shape=_ctc_greedy_shape, multi=True,
   mixed_dtypes=True)
not_differentiable("CTCGreedyDecoder")


@public("nn.ctc_greedy_decoder")
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    from ..sparse.sparse_tensor import SparseTensor

    x = as_tensor(inputs)
    classes = int(x.shape[-1])
    if blank_index is not None and blank_index < 0:
        blank_index += classes
    indices, values, shape, log_probs = execute(
        "CTCGreedyDecoder", (x, API["cast"](as_tensor(sequence_length), dtypes.int32)),
        {"merge_repeated": bool(merge_repeated), "blank_index": -1 if blank_index is None else int(blank_index)})
    return [SparseTensor(indices, values, shape)], log_probs


def _accidental_hits(xp, true_classes, sampled_candidates, num_true=1, seed=0, seed2=0):
    true, sampled = on_host(xp, true_classes), on_host(xp, sampled_candidates)
    where = {}
    for j, s in enumerate(sampled.tolist()):
        where.setdefault(s, []).append(j)
    indices, ids = [], []
    for i, row in enumerate(true.tolist()):
        for v in row:
            for j in where.get(v, ()):
                indices.append(i)
                ids.append(j)
    return (np.array(indices, np.int32), np.array(ids, np.int64),
            np.full(len(indices), -np.finfo(np.float32).max, np.float32))


op("ComputeAccidentalHits", _accidental_hits, None, devices=(CPU,), mixed_dtypes=True, multi=True,
   shape=lambda name, shapes, attrs, dtype: ([(dtypes.int32, (None,)), (dtypes.int64, (None,)),
                                             (dtypes.float32, (None,))], None))
not_differentiable("ComputeAccidentalHits")


@public("nn.compute_accidental_hits")
def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    from ..random.random_ops import get_seed

    seed1, seed2 = get_seed(seed)  # TensorFlow draws the op's seeds (the op seed counter moves on), unused
    indices, ids, weights = execute("ComputeAccidentalHits", (as_tensor(true_classes), as_tensor(sampled_candidates)),
                                    {"num_true": int(num_true), "seed": seed1 or 0, "seed2": seed2 or 0}, name=name)
    return _AccidentalHits(indices, ids, weights)


_AccidentalHits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])


def _conv_generic(xp, x, filters, strides=(), padding="VALID", explicit_paddings=(), data_format="CHANNELS_LAST",
                  dilations=(), batch_dims=1, groups=1):
    """``Conv``: the N-d convolution (channels last) of one batch dimension, ``strides`` per dimension."""
    n = x.ndim - 2
    win = _windows_nd(xp, x, filters.shape[:n], tuple(strides)[1:1 + n], padding)
    letters = "xyz"[:n]
    return xp.einsum(f"n{letters}{letters.upper()}i,{letters.upper()}io->n{letters}o", win,
                     filters).astype(x.dtype)


op("Conv", _conv_generic, {"bfloat16", "float16", "float32", "float64", "int32"}, shape=_unknown)


@public("conv")
def conv(input, filter, strides, padding, explicit_paddings=(), data_format="CHANNELS_LAST",  # noqa: A002
         dilations=(), batch_dims=1, groups=1, name=None):
    """TensorFlow's generic ``Conv`` op (2-D or 3-D, channels last, one batch dimension)."""
    x = as_tensor(input)
    if data_format != "CHANNELS_LAST" or batch_dims != 1 or groups != 1 or padding == "EXPLICIT" or \
            any(int(d) != 1 for d in dilations):
        raise NotImplementedError("devtrace does not implement tf.conv with data_format, batch_dims, groups, "
                                  "explicit paddings or dilations yet")
    return execute("Conv", (x, as_tensor(filter)), {"strides": [int(v) for v in strides], "padding": padding,
                                                    "data_format": data_format}, name=name)


def _extract_volume_patches(xp, x, ksizes=(), strides=(), padding="VALID"):
    window, steps = tuple(ksizes)[1:4], tuple(strides)[1:4]
    win = _windows_nd(xp, x, window, steps, padding)  # (n, d, h, w, kd, kh, kw, c)
    return win.reshape(win.shape[:4] + (-1,))


op("ExtractVolumePatches", _extract_volume_patches, {CPU: {"bfloat16", "float16", "float32", "float64", "int16",
                                                           "int32", "int64", "int8", "uint16", "uint32", "uint64",
                                                           "uint8"}, GPU: _F}, shape=_unknown)


@public("extract_volume_patches")
def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    return execute("ExtractVolumePatches", (as_tensor(input),), {"ksizes": [int(v) for v in ksizes],
                                                                 "strides": [int(v) for v in strides],
                                                                 "padding": padding}, name=name)
