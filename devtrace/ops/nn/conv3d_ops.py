"""3-D convolutions and the depthwise convolution's gradients, as TensorFlow runs them:
``Conv3D`` (NDHWC, DHWIO filters) with ``Conv3DBackpropInputV2`` / ``Conv3DBackpropFilterV2`` (the
sizes as attributes, from the static shapes, as devtrace's ``Conv2DBackprop*`` take them), and
``DepthwiseConv2dNativeBackpropInput`` / ``DepthwiseConv2dNativeBackpropFilter`` — the ops behind
``tf.nn.conv3d``, ``tf.nn.conv3d_transpose`` and the training of Keras's ``Conv3D``,
``Conv3DTranspose``, ``DepthwiseConv2D`` and ``SeparableConv2D``."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ..declare import as_tensor, gradient, on_host, op, public
from .nn_grad import _batch_of, _scatter
from .nn_impl import _pad_amounts, _windows

_F = dtypes.FLOATS


def _triple(value, default=1):
    if value is None:
        return (default,) * 3
    value = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(value) == 5:
        return tuple(value[1:4])
    return tuple(value) * 3 if len(value) == 1 else tuple(value)


def _windows3(xp, x, window, strides, padding):
    """NDHWC ``x`` as ``(n, od, oh, ow, kd, kh, kw, c)`` windows, padded as TensorFlow pads."""
    pads = [_pad_amounts(x.shape[i + 1], window[i], strides[i], padding)[:2] for i in range(3)]
    padded = xp.pad(x, [(0, 0), *pads, (0, 0)])
    view = np.lib.stride_tricks.sliding_window_view(on_host(xp, padded), tuple(window), axis=(1, 2, 3))
    sd, sh, sw = strides
    return xp.asarray(view[:, ::sd, ::sh, ::sw].transpose(0, 1, 2, 3, 5, 6, 7, 4))


def _conv3d(xp, x, filters, strides=(1, 1, 1), padding="VALID"):
    win = _windows3(xp, x, filters.shape[:3], strides, padding)
    return xp.einsum("ndhwijkc,ijkco->ndhwo", win, filters).astype(x.dtype)


def _conv3d_input_grad(xp, filters, grad, input_sizes=(), strides=(1, 1, 1), padding="VALID"):
    shape = _batch_of(input_sizes, grad)
    window = filters.shape[:3]
    pieces = xp.einsum("ndhwo,ijkco->ndhwijkc", grad, filters)
    amounts = [_pad_amounts(shape[i + 1], window[i], strides[i], padding) for i in range(3)]
    padded = xp.zeros((shape[0],) + tuple(shape[i + 1] + a[0] + a[1] for i, a in enumerate(amounts)) + (shape[4],),
                      grad.dtype)
    (sd, sh, sw), (od, oh, ow) = strides, (a[2] for a in amounts)
    for i in range(window[0]):
        for j in range(window[1]):
            for k in range(window[2]):
                padded[:, i:i + sd * od:sd, j:j + sh * oh:sh, k:k + sw * ow:sw, :] += pieces[:, :, :, :, i, j, k, :]
    (front, _, _), (top, _, _), (left, _, _) = amounts
    return padded[:, front:front + shape[1], top:top + shape[2], left:left + shape[3], :].astype(grad.dtype)


def _conv3d_filter_grad(xp, x, grad, filter_sizes=(), strides=(1, 1, 1), padding="VALID"):
    win = _windows3(xp, x, tuple(filter_sizes)[:3], strides, padding)
    return xp.einsum("ndhwijkc,ndhwo->ijkco", win, grad).astype(grad.dtype)


def _conv3d_shape(name, shapes, attrs, dtype):
    x, f = shapes[0], shapes[1]
    if x is None or f is None:
        return dtype, None
    dims = tuple(None if d is None else _pad_amounts(d, k, s, attrs.get("padding", "VALID"))[2]
                 for d, k, s in zip(x[1:4], f[:3], attrs.get("strides", (1, 1, 1))))
    return dtype, (x[0], *dims, f[4])


def _sized(attr):
    return lambda name, shapes, attrs, dtype: (dtype, tuple(attrs[attr]))


def _depthwise_input_grad(xp, filters, grad, input_sizes=(), strides=(1, 1), padding="VALID"):
    n, oh, ow, _ = grad.shape
    kh, kw, c, m = filters.shape
    pieces = xp.einsum("nhwcm,ijcm->nhwijc", grad.reshape(n, oh, ow, c, m), filters)
    return _scatter(xp, _batch_of(input_sizes, grad), pieces, (kh, kw), strides, padding).astype(grad.dtype)


def _depthwise_filter_grad(xp, x, grad, filter_sizes=(), strides=(1, 1), padding="VALID"):
    kh, kw, c, m = tuple(filter_sizes)
    win = _windows(xp, x, (kh, kw), strides, padding)
    n, oh, ow = grad.shape[:3]
    return xp.einsum("nhwijc,nhwcm->ijcm", win, grad.reshape(n, oh, ow, c, m)).astype(grad.dtype)


op("Conv3D", _conv3d, _F, host_args=("strides",), shape=_conv3d_shape)
op("Conv3DBackpropInputV2", _conv3d_input_grad, _F, host_args=("input_sizes", "strides"),
   shape=_sized("input_sizes"))
op("Conv3DBackpropFilterV2", _conv3d_filter_grad, _F, host_args=("filter_sizes", "strides"),
   shape=_sized("filter_sizes"))
op("DepthwiseConv2dNativeBackpropInput", _depthwise_input_grad, _F, host_args=("input_sizes", "strides"),
   shape=_sized("input_sizes"))
op("DepthwiseConv2dNativeBackpropFilter", _depthwise_filter_grad, _F, host_args=("filter_sizes", "strides"),
   shape=_sized("filter_sizes"))


def _attrs(op_):
    return {"strides": op_.attrs["strides"], "padding": op_.attrs["padding"]}


@gradient("Conv3D")
def _conv3d_grad(op_, grad):
    x, filters = op_.inputs
    return (execute("Conv3DBackpropInputV2", (filters, grad), dict(_attrs(op_), input_sizes=tuple(x.shape))),
            execute("Conv3DBackpropFilterV2", (x, grad), dict(_attrs(op_), filter_sizes=tuple(filters.shape))))


@gradient("Conv3DBackpropInputV2")
def _conv3d_input_grad_grad(op_, grad):
    filters, upstream = op_.inputs
    return (execute("Conv3DBackpropFilterV2", (grad, upstream), dict(_attrs(op_), filter_sizes=tuple(filters.shape))),
            execute("Conv3D", (grad, filters), _attrs(op_)))


@gradient("DepthwiseConv2dNative")
def _depthwise_grad(op_, grad):
    if op_.attrs.get("padding") == "EXPLICIT":
        raise NotImplementedError("devtrace does not implement the gradient of a depthwise convolution with "
                                  "explicit padding yet")
    x, filters = op_.inputs
    return (execute("DepthwiseConv2dNativeBackpropInput", (filters, grad),
                    dict(_attrs(op_), input_sizes=tuple(x.shape))),
            execute("DepthwiseConv2dNativeBackpropFilter", (x, grad),
                    dict(_attrs(op_), filter_sizes=tuple(filters.shape))))


@public("nn.conv3d")
def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    if data_format != "NDHWC" or dilations is not None and _triple(dilations) != (1, 1, 1):
        raise NotImplementedError("devtrace does not implement tf.nn.conv3d with data_format "
                                  f"{data_format!r} or dilations {dilations!r} yet")
    return execute("Conv3D", (as_tensor(input), as_tensor(filters)),
                   {"strides": _triple(strides), "padding": padding.upper()}, name=name)


@public("nn.conv3d_transpose")
def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    if data_format != "NDHWC" or dilations is not None and _triple(dilations) != (1, 1, 1):
        raise NotImplementedError("devtrace does not implement tf.nn.conv3d_transpose with data_format "
                                  f"{data_format!r} or dilations {dilations!r} yet")
    sizes = tuple(int(d) for d in (output_shape.numpy() if hasattr(output_shape, "numpy") else output_shape))
    return execute("Conv3DBackpropInputV2", (as_tensor(filters), as_tensor(input)),
                   {"input_sizes": sizes, "strides": _triple(strides), "padding": padding.upper()}, name=name)
