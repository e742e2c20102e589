"""More of ``tf.math``: ``accumulate_n`` (``add_n`` in TensorFlow 2), ``zero_fraction`` and the
approximate top-k family (``ApproxTopK``: exact on the host, as XLA's CPU lowering; TensorFlow's
plain CPU kernel takes only ``is_max_k`` and the last dimension, and says so)."""

from __future__ import annotations

import collections

import numpy as np

from ...errors import NotFoundError
from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ..array.sort_ops import _descending_order
from ..declare import API, as_tensor, not_differentiable, on_host, op, public

ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])


@public("math.accumulate_n")
def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The sum of ``inputs`` (one tensor: itself), through ``AddN`` as TensorFlow 2's."""
    def _input_error():
        return ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")

    if not inputs or not isinstance(inputs, (list, tuple)):
        raise _input_error()
    inputs = [as_tensor(x) for x in inputs]
    if not all(x.dtype == inputs[0].dtype for x in inputs):
        raise _input_error()
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != inputs[0].dtype:
        raise TypeError(f"The `tensor_dtype` argument is {dtypes.as_dtype(tensor_dtype)}, but `input` is of type "
                        f"{inputs[0].dtype}. These must be equal. Try casting the input to the desired type.")
    if len(inputs) == 1:
        return inputs[0] if name is None else API["identity"](inputs[0], name=name)
    return API["add_n"](inputs, name=name)


@public("math.zero_fraction", "nn.zero_fraction")
def zero_fraction(value, name=None):
    """The fraction of ``value``'s entries that are zero (float32): a count of non-zeros over the size."""
    value = as_tensor(value)
    nonzero = API["math.count_nonzero"](value, dtype=dtypes.int64)
    size = API["size"](value, out_type=dtypes.int64)
    fraction = API["subtract"](API["constant"](1.0, dtypes.float32),
                               API["cast"](API["math.divide"](nonzero, size), dtypes.float32))
    return API["identity"](fraction, name=name) if name else fraction


def _approx_top_k(xp, x, k=1, reduction_dimension=-1, recall_target=0.95, is_max_k=True,
                  reduction_input_size_override=-1, aggregate_to_topk=True):
    host = on_host(xp, x)
    axis = reduction_dimension % host.ndim
    moved = np.moveaxis(host, axis, -1)
    order = _descending_order(moved if is_max_k else -moved.astype(np.float64) if moved.dtype.kind in "iu"
                              else -moved)[..., :k]
    values = np.take_along_axis(moved, order, -1)
    return xp.asarray(np.moveaxis(values, -1, axis)), xp.asarray(np.moveaxis(order.astype(np.int32), -1, axis))


def _approx_top_k_shape(name, shapes, attrs, dtype):
    shape = shapes[0]
    if shape is None:
        return [(dtype, None), (dtypes.int32, None)], None
    out = list(shape)
    out[int(attrs.get("reduction_dimension", -1)) % len(out)] = int(attrs["k"])
    return [(dtype, tuple(out)), (dtypes.int32, tuple(out))], None


_ALL_REAL = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
             "uint32", "uint64")
op("ApproxTopK", _approx_top_k, {CPU: _ALL_REAL, GPU: ("bfloat16", "float16", "float32", "float64")},
   shape=_approx_top_k_shape, multi=True)
not_differentiable("ApproxTopK")


@public("approx_top_k")
def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002 (TensorFlow's)
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    x = as_tensor(input)
    attrs = {"k": int(k), "reduction_dimension": int(reduction_dimension), "recall_target": float(recall_target),
             "is_max_k": bool(is_max_k), "reduction_input_size_override": int(reduction_input_size_override),
             "aggregate_to_topk": bool(aggregate_to_topk)}
    if context().eager and (not is_max_k or reduction_dimension != -1):
        flags = ", ".join(f"{key}={str(v).lower() if isinstance(v, bool) else v}" for key, v in sorted(attrs.items()))
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node ApproxTopK}}}} = ApproxTopK["
                                        f"T={x.dtype.enum_name}, {flags}]")
    return ApproxTopK(*execute("ApproxTopK", (x,), attrs, name=name))


@public("math.approx_max_k", "nn.approx_max_k")
def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    return approx_top_k(operand, k, reduction_dimension, recall_target, True, reduction_input_size_override,
                        aggregate_to_topk, name)


@public("math.approx_min_k", "nn.approx_min_k")
def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    return approx_top_k(operand, k, reduction_dimension, recall_target, False, reduction_input_size_override,
                        aggregate_to_topk, name)
