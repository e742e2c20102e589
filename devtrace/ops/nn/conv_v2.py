"""``tf.conv2d_backprop_filter_v2`` and ``tf.conv2d_backprop_input_v2``: TensorFlow 2.21 defines their
ops (``Conv2DBackpropFilterV2``, ``Conv2DBackpropInputV2``) but registers no kernel for them on any
device, so calling them fails to place: TensorFlow's ``NotFoundError``, word for word."""

from __future__ import annotations

from ...errors import NotFoundError
from ..declare import as_tensor, public


def _attr(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return "[" + ", ".join(str(int(v)) for v in value) + "]"


def _unplaceable(op_type, x, strides, padding, use_cudnn_on_gpu, explicit_paddings, data_format, dilations, name):
    dtype = as_tensor(x).dtype
    attrs = {"T": dtype.enum_name,
             "data_format": _attr(data_format), "dilations": _attr(dilations),
             "explicit_paddings": _attr(explicit_paddings), "padding": _attr(padding), "strides": _attr(strides),
             "use_cudnn_on_gpu": _attr(bool(use_cudnn_on_gpu))}
    text = ", ".join(f"{k}={v}" for k, v in attrs.items())
    raise NotFoundError(f"Could not find device for node: {{{{node {op_type}}}}} = {op_type}[{text}]\nAll kernels "
                        f"registered for op {op_type}:\n  <no registered kernels>\n [Op:{op_type}] name: {name or ''}")


@public("conv2d_backprop_filter_v2")
def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                              explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    _unplaceable("Conv2DBackpropFilterV2", input, strides, padding, use_cudnn_on_gpu, explicit_paddings, data_format,
                 dilations, name)


@public("conv2d_backprop_input_v2")
def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                             explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    _unplaceable("Conv2DBackpropInputV2", input, strides, padding, use_cudnn_on_gpu, explicit_paddings, data_format,
                 dilations, name)
