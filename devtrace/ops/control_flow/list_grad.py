"""Gradients of the TensorList ops (a ``TensorArray`` inside a ``tf.function``), after
TensorFlow's ``list_ops`` gradients: a list's gradient is a list of its elements' gradients (an
element never written stands for zeros)."""

from __future__ import annotations

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from . import list_ops  # noqa: F401 (the ops)
from ..declare import gradient


def _shape_attrs(template, element_dtype) -> dict:
    shape = template._shape if hasattr(template, "_shape") else tuple(template.shape)
    attrs = {"element_dtype": element_dtype}
    if shape is not None and None not in tuple(shape):
        attrs["element_shape"] = tuple(shape)
    return attrs


@gradient("TensorListStack")
def _stack_grad(op, grad):
    return (execute("TensorListFromTensor", (grad,)),)


@gradient("TensorListFromTensor")
def _from_tensor_grad(op, grad):
    tensor = op.inputs[0]
    attrs = {"element_dtype": tensor.dtype.name, "element_shape": tuple(tensor.shape)[1:]}
    return (execute("TensorListStack", (grad,), attrs, dtype=dtypes.variant),)


@gradient("TensorListSetItem")
def _set_item_grad(op, grad):
    _, index, item = op.inputs
    zeros = execute("ZerosLike", (item,))
    list_grad = execute("TensorListSetItem", (grad, index, zeros), {"resize_if_index_out_of_bounds": False})
    item_grad = execute("TensorListGetItem", (grad, index), _shape_attrs(item, item.dtype.name), dtype=dtypes.variant)
    return list_grad, None, item_grad


@gradient("TensorListGetItem")
def _get_item_grad(op, grad):
    lst, index = op.inputs
    reserved = execute("TensorListReserve", (execute("TensorListLength", (lst,), dtype=dtypes.variant),),
                       {"element_dtype": grad.dtype.name})
    return execute("TensorListSetItem", (reserved, index, grad), {"resize_if_index_out_of_bounds": False}), None
