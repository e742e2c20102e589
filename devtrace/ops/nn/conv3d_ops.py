"""What training Keras's 3-D and depthwise convolutions needs past ``nn_breadth``'s ops:
``Conv3DBackpropFilterV2`` (the 3-D filter's gradient; the filter sizes an attribute, from the static
shape, as devtrace's ``Conv2DBackpropFilter`` takes them), the gradients of ``Conv3D`` (both
inputs), ``Conv3DBackpropInputV2`` and ``DepthwiseConv2dNative`` (through
``DepthwiseConv2dNativeBackpropInput`` / ``Filter``), as TensorFlow's ``nn_grad.py`` runs them.
Strides as the backprop ops take them: ``(1, s..., 1)``."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ..declare import gradient, on_host, op
from .nn_impl import _pad_amounts

_F = dtypes.FLOATS


def _spatial(strides, n):
    strides = tuple(int(s) for s in strides)
    return strides[1:-1] if len(strides) == n + 2 else strides


def _conv3d_filter_grad(xp, x, grad, filter_sizes=(), strides=(1, 1, 1, 1, 1), padding="VALID"):
    window, steps = tuple(filter_sizes)[:3], _spatial(strides, 3)
    pads = [_pad_amounts(x.shape[i + 1], window[i], steps[i], padding)[:2] for i in range(3)]
    padded = xp.pad(x, [(0, 0), *pads, (0, 0)])
    view = np.lib.stride_tricks.sliding_window_view(on_host(xp, padded), window, axis=(1, 2, 3))
    win = xp.asarray(view[:, ::steps[0], ::steps[1], ::steps[2]])  # (n, od, oh, ow, c, kd, kh, kw)
    return xp.einsum("ndhwcijk,ndhwo->ijkco", win, grad).astype(grad.dtype)


op("Conv3DBackpropFilterV2", _conv3d_filter_grad, _F, host_args=("filter_sizes", "strides"),
   shape=lambda name, shapes, attrs, dtype: (dtype, tuple(attrs["filter_sizes"])))


def _attrs3(op_):
    return {"strides": (1,) + _spatial(op_.attrs["strides"], 3) + (1,), "padding": op_.attrs["padding"]}


@gradient("Conv3D")
def _conv3d_grad(op_, grad):
    x, filters = op_.inputs
    return (execute("Conv3DBackpropInputV2", (filters, grad), dict(_attrs3(op_), input_sizes=tuple(x.shape))),
            execute("Conv3DBackpropFilterV2", (x, grad), dict(_attrs3(op_), filter_sizes=tuple(filters.shape))))


@gradient("Conv3DBackpropInputV2")
def _conv3d_backprop_input_grad(op_, grad):
    """Second order, and a transposed convolution's gradient: the filter's through
    ``Conv3DBackpropFilterV2``, the upstream's a ``Conv3D``."""
    filters, upstream = op_.inputs
    attrs = _attrs3(op_)
    return (execute("Conv3DBackpropFilterV2", (grad, upstream), dict(attrs, filter_sizes=tuple(filters.shape))),
            execute("Conv3D", (grad, filters), {"strides": attrs["strides"][1:-1], "padding": attrs["padding"],
                                                "dilations": (1, 1, 1)}))


@gradient("DepthwiseConv2dNative")
def _depthwise_grad(op_, grad):
    if op_.attrs.get("padding") == "EXPLICIT":
        raise NotImplementedError("devtrace does not implement the gradient of a depthwise convolution with "
                                  "explicit padding yet")
    x, filters = op_.inputs
    attrs = {"strides": (1,) + _spatial(op_.attrs["strides"], 2) + (1,), "padding": op_.attrs["padding"]}
    return (execute("DepthwiseConv2dNativeBackpropInput", (filters, grad), dict(attrs, input_sizes=tuple(x.shape))),
            execute("DepthwiseConv2dNativeBackpropFilter", (x, grad), dict(attrs, filter_sizes=tuple(filters.shape))))
