"""Gradients of the convolution and pooling ops (TensorFlow's ``nn_grad.py``), through the ops
TensorFlow runs for them: ``Conv2DBackpropInput`` and ``Conv2DBackpropFilter`` (the sizes as
attributes, from the static shapes, where TensorFlow feeds a ``ShapeN``), ``MaxPoolGrad`` (each
window's gradient to its first maximum) and ``AvgPoolGrad`` (shared by the window's real
elements); and their own gradients, for second-order gradients (``MaxPoolGradGrad``: the
upstream gradient at each window's maximum)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime import blas_threads
from ...runtime.eager.executor import execute
from ..array import array_ops
from .. import shapes
from ..declare import gradient, on_host, op
from .native import loop, threads
from .nn_impl import _chunks, _im2col, _max_over_windows, _offsets, _pad_amounts, _padded, _pool_fill, _windows

_FLOATS = dtypes.FLOATS


def _scatter(xp, shape, pieces, window, strides, padding):
    """Add each window's ``(n, oh, ow, kh, kw, c)`` piece back onto an input of ``shape``."""
    (kh, kw), (sh, sw) = window, strides
    top, bottom, oh = _pad_amounts(shape[1], kh, sh, padding)
    left, right, ow = _pad_amounts(shape[2], kw, sw, padding)
    padded = xp.zeros((shape[0], shape[1] + top + bottom, shape[2] + left + right, shape[3]), pieces.dtype)
    for i in range(kh):
        for j in range(kw):
            padded[:, i:i + sh * oh:sh, j:j + sw * ow:sw, :] += pieces[:, :, :, i, j, :]
    return padded[:, top:top + shape[1], left:left + shape[2], :]


def _batch_of(sizes, grad) -> tuple:
    """An input's sizes (the static shape): a function's unknown batch is the gradient's."""
    return tuple(sizes) if sizes[0] is not None else (grad.shape[0], *sizes[1:])


def _conv_input_grad(xp, filters, grad, input_sizes=(), strides=(1, 1), padding="VALID"):
    """Each output position's gradient times the filter (one matrix product: ``(positions, o) @ (o,
    kh * kw * c)``, each position's window of input gradients), each window offset's part added
    onto the input positions it covered; a big gradient a few images (or rows) at a time."""
    kh, kw, c, o = filters.shape
    shape = _batch_of(input_sizes, grad)
    (sh, sw) = strides
    top, bottom, oh = _pad_amounts(shape[1], kh, sh, padding)
    left, right, ow = _pad_amounts(shape[2], kw, sw, padding)
    size = (shape[0], shape[1] + top + bottom, shape[2] + left + right, shape[3])
    chunks = _chunks((size[0], oh, ow, kh, kw, c), grad.itemsize)
    # the C loop writes each image whole: for chunks of whole images, on the host, in float32/64
    native = loop("col2im", xp, grad.dtype) if chunks[0][1].stop >= oh else None
    padded = np.empty(size, grad.dtype) if native is not None else xp.zeros(size, grad.dtype)
    weights = filters.reshape(-1, o).T
    for images, rows in chunks:
        part = grad[images, rows]
        cols = blas_threads.matmul(xp, part.reshape(-1, o), weights).reshape(part.shape[:3] + (kh, kw, c))
        if native is not None:
            target = padded[images]
            native(cols.astype(padded.dtype, copy=False), target, *target.shape, kh, kw, sh, sw, oh, ow,
                   padded.itemsize)
            continue
        target = padded[images, rows.start * sh:]
        for i in range(kh):
            for j in range(kw):
                target[:, i:i + sh * (part.shape[1] - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :] += \
                    cols[:, :, :, i, j, :].astype(grad.dtype, copy=False)
    if top or bottom or left or right:
        return padded[:, top:top + shape[1], left:left + shape[2], :].copy()
    return padded


def _conv_filter_grad(xp, x, grad, filter_sizes=(), strides=(1, 1), padding="VALID"):
    """The windows' matrix, transposed, times the output gradient (one matrix product; a big input's
    products a few images or rows at a time, summed)."""
    kh, kw = tuple(filter_sizes)[:2]
    n, oh, ow, o = grad.shape
    padded, _ = _padded(xp, x, (kh, kw), strides, padding)
    out = None
    for images, rows in _chunks((n, oh, ow, kh, kw, x.shape[3]), x.itemsize):
        cols = _im2col(xp, padded, (kh, kw), strides, ow, images, rows)
        part = blas_threads.matmul(xp, cols.T, grad[images, rows].reshape(-1, o))
        if out is None:
            out = part
        else:
            out += part
    return out.reshape(kh, kw, x.shape[3], o).astype(grad.dtype, copy=False)


def _max_pool_grad_tiled(xp, x, best, grad, window, out_size):
    """Windows that tile the input (stride = window, no padding: the common 2x2 pooling) seen as
    axes of one reshaped view: one comparison against the maxima, each window's first maximum kept
    by a running "found" mask, and one product of the gradient and that mask. Rows and columns past
    the last window get zeros. Only for finite gradients and maxima that are not NaN."""
    n, h, w, c = x.shape
    (kh, kw), (oh, ow) = window, out_size
    hits = x[:, :oh * kh, :ow * kw, :].reshape(n, oh, kh, ow, kw, c) == best[:, :, None, :, None, :]
    found = None
    for i in range(kh):
        for j in range(kw):
            hit = hits[:, :, i, :, j, :]
            if found is None:
                found = hit.copy()
            else:
                now = found | hit
                xp.not_equal(now, found, out=hit)  # a maximum not found before
                found = now
    part = xp.multiply(grad[:, :, None, :, None, :], hits).reshape(n, oh * kh, ow * kw, c)
    part += 0  # -0.0 (a negative gradient times no hit) is 0.0, as a sum onto zeros gives
    if (oh * kh, ow * kw) == (h, w):
        return part
    out = xp.zeros(x.shape, x.dtype)
    out[:, :oh * kh, :ow * kw, :] = part
    return out


def _max_pool_grad(xp, x, out, grad, ksize=(1, 1), strides=(1, 1), padding="VALID"):
    """Each window's gradient to its first maximum (row-major in the window; a NaN is a maximum)."""
    (kh, kw), (sh, sw) = ksize, strides
    top, bottom, oh = _pad_amounts(x.shape[1], kh, sh, padding)
    left, right, ow = _pad_amounts(x.shape[2], kw, sw, padding)
    native = loop("max_pool_grad", xp, x.dtype)
    if native is not None and sh >= kh and sw >= kw and not (top or bottom or left or right):
        # windows that do not overlap, without padding (2x2 pooling): one pass in C, which writes the
        # windows' elements; windows side by side (stride = window) leave only the last rows and
        # columns out (an odd size), zeroed here rather than the whole output beforehand
        tiled = (sh, sw) == (kh, kw)
        x, out = np.ascontiguousarray(x), (np.empty if tiled else np.zeros)(x.shape, x.dtype)
        native(x, np.ascontiguousarray(grad, x.dtype), out, *x.shape, kh, kw, sh, sw, oh, ow, x.itemsize,
               threads(x.size))
        if tiled:
            out[:, oh * kh:] = 0
            out[:, :oh * kh, ow * kw:] = 0
        return out
    views = _offsets(xp, x, ksize, strides, padding, _pool_fill(x.dtype))
    best = _max_over_windows(xp, views)
    grad = grad.astype(x.dtype, copy=False)
    size = (x.shape[0], x.shape[1] + top + bottom, x.shape[2] + left + right, x.shape[3])
    if x.dtype.kind == "f" and not bool(xp.isnan(best).any()) and bool(xp.isfinite(grad).all()):
        if (sh, sw) == (kh, kw) and not (top or bottom or left or right):
            return _max_pool_grad_tiled(xp, x, best, grad, (kh, kw), (oh, ow))
        # the common case, without masked selects (slow on unpredictable masks): the gradient times
        # each element's "first maximum of its window" flag, the flags from elementwise logic.
        # Windows that tile the input exactly (2x2, stride 2, even sizes) write each element once.
        tiled = (sh, sw) == (kh, kw) and (oh * kh, ow * kw) == size[1:3]
        padded = xp.empty(size, x.dtype) if tiled else xp.zeros(size, x.dtype)
        left_over = None  # windows whose maximum is still to be found
        for k, view in enumerate(views):
            hit = view == best
            if left_over is not None:
                hit &= left_over
                left_over &= ~hit
            else:
                left_over = ~hit
            i, j = divmod(k, kw)
            part = grad * hit
            target = padded[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :]
            if tiled:
                part += 0  # -0.0 (a negative gradient times no hit) is 0.0, as a sum onto zeros gives
                target[...] = part
            else:
                target += part
        if top or bottom or left or right:
            return padded[:, top:top + x.shape[1], left:left + x.shape[2], :].copy()
        return padded
    padded = xp.zeros(size, x.dtype)
    taken = None
    for k, view in enumerate(views):
        hit = (view == best) | (view != view)
        if taken is not None:
            hit &= ~taken
            taken |= hit
        else:
            taken = hit
        i, j = divmod(k, kw)
        padded[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :] += xp.where(hit, grad, 0)
    return padded[:, top:top + x.shape[1], left:left + x.shape[2], :].copy()


def _avg_pool_grad(xp, grad, orig_input_shape=(), ksize=(1, 1), strides=(1, 1), padding="VALID"):
    shape = _batch_of(orig_input_shape, grad)
    counts = _windows(xp, xp.ones(shape[:3] + (1,), grad.dtype), ksize, strides, padding).sum(axis=(3, 4))
    share = grad / counts
    pieces = xp.broadcast_to(share[:, :, :, None, None, :], share.shape[:3] + tuple(ksize) + share.shape[3:])
    return _scatter(xp, shape, pieces, ksize, strides, padding).astype(grad.dtype)


def _sized(attr):
    return lambda name, shapes, attrs, dtype: (dtype, tuple(attrs[attr]))


op("Conv2DBackpropInput", _conv_input_grad, _FLOATS, host_args=("input_sizes", "strides"), shape=_sized("input_sizes"))
op("Conv2DBackpropFilter", _conv_filter_grad, _FLOATS, host_args=("filter_sizes", "strides"),
   shape=_sized("filter_sizes"))
def _max_pool_grad_grad(xp, x, out, grad, ksize=(1, 1), strides=(1, 1), padding="VALID"):
    """Each window's value of ``grad`` (shaped as the input) at the window's first maximum."""
    win = on_host(xp, _windows(xp, x, ksize, strides, padding, -np.inf))
    n, oh, ow, kh, kw, c = win.shape
    first = win.reshape(n, oh, ow, kh * kw, c).argmax(axis=3)
    values = on_host(xp, _windows(xp, grad, ksize, strides, padding)).reshape(n, oh, ow, kh * kw, c)
    return xp.asarray(np.take_along_axis(values, first[:, :, :, None, :], axis=3)[:, :, :, 0, :].astype(grad.dtype))


op("MaxPoolGrad", _max_pool_grad, dtypes.REAL, shape=shapes.same)
op("MaxPoolGradGrad", _max_pool_grad_grad, dtypes.REAL, shape=lambda name, shapes_, attrs, dtype: (dtype, shapes_[1]))
op("AvgPoolGrad", _avg_pool_grad, _FLOATS, host_args=("orig_input_shape",), shape=_sized("orig_input_shape"))


@gradient("Conv2D")
def _conv2d_grad(op, grad):
    x, filters = op.inputs
    attrs = {"strides": op.attrs["strides"], "padding": op.attrs["padding"]}
    return (execute("Conv2DBackpropInput", (filters, grad), dict(attrs, input_sizes=tuple(x.shape))),
            execute("Conv2DBackpropFilter", (x, grad), dict(attrs, filter_sizes=tuple(filters.shape))))


@gradient("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, grad):
    """Second order (TensorFlow's): the filter's through Conv2DBackpropFilter, the upstream's a Conv2D."""
    filters, upstream = op.inputs
    attrs = {"strides": op.attrs["strides"], "padding": op.attrs["padding"]}
    return (execute("Conv2DBackpropFilter", (grad, upstream), dict(attrs, filter_sizes=tuple(filters.shape))),
            execute("Conv2D", (grad, filters), attrs))


@gradient("Conv2DBackpropFilter")
def _conv2d_backprop_filter_grad(op, grad):
    x, upstream = op.inputs
    attrs = {"strides": op.attrs["strides"], "padding": op.attrs["padding"]}
    return (execute("Conv2DBackpropInput", (grad, upstream), dict(attrs, input_sizes=tuple(x.shape))),
            execute("Conv2D", (x, grad), attrs))


def _pool_attrs(op) -> dict:
    return {"ksize": op.attrs["ksize"], "strides": op.attrs["strides"], "padding": op.attrs["padding"]}


@gradient("MaxPool")
def _max_pool_grad_fn(op, grad):
    return (execute("MaxPoolGrad", (op.inputs[0], op.outputs[0], grad), _pool_attrs(op)),)


@gradient("MaxPoolGrad")
def _max_pool_grad_grad_fn(op, grad):
    x, out, _ = op.inputs
    return (array_ops.zeros_like(x), array_ops.zeros_like(out),
            execute("MaxPoolGradGrad", (x, out, grad), _pool_attrs(op)))


@gradient("MaxPoolGradGrad")
def _max_pool_grad_grad_grad(op, grad):
    x, out, _ = op.inputs
    return (array_ops.zeros_like(x), array_ops.zeros_like(out),
            execute("MaxPoolGrad", (x, out, grad), _pool_attrs(op)))


gradient("AvgPoolGrad")(lambda op, grad: (execute("AvgPool", (grad,), _pool_attrs(op)),))


@gradient("AvgPool")
def _avg_pool_grad_fn(op, grad):
    return (execute("AvgPoolGrad", (grad,), dict(_pool_attrs(op), orig_input_shape=tuple(op.inputs[0].shape))),)


def _mirror_pad_grad_kernel(xp, grad, paddings=(), mode="REFLECT"):
    """Fold each padded border back onto the elements it mirrored, axis by axis."""
    out = grad
    shift = 1 if mode == "REFLECT" else 0
    for axis, (before, after) in enumerate(np.asarray(paddings, dtype=np.int64).reshape(-1, 2)):
        before, after = int(before), int(after)
        size = out.shape[axis] - before - after
        moved = xp.moveaxis(out, axis, 0)
        core = moved[before:before + size].copy()
        if before:
            core[shift:shift + before] += moved[:before][::-1]
        if after:
            core[size - shift - after:size - shift] += moved[before + size:][::-1]
        out = xp.moveaxis(core, 0, axis)
    return xp.ascontiguousarray(out)


op("MirrorPadGrad", _mirror_pad_grad_kernel, dtypes.NUMERIC, host_args=("paddings",))
gradient("MirrorPad")(lambda op, grad: (execute("MirrorPadGrad", (grad,), dict(op.attrs)),))
gradient("MirrorPadGrad")(lambda op, grad: (execute("MirrorPad", (grad,), dict(op.attrs)),))
