"""``tf.ragged_fill_empty_rows`` and ``tf.ragged_fill_empty_rows_grad``: TensorFlow 2.21's
``RaggedFillEmptyRows`` (each empty row of a ragged tensor, given by its values' row ids, gets one
``default_value``) and its gradient op ``RaggedFillEmptyRowsGrad`` (the values' gradients read back
through the reverse index map, the rest summed into the default value's), CPU and GPU kernels as
TensorFlow registers them."""

from __future__ import annotations

import collections

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ..declare import as_tensor, gradient, on_host, op, public

_NUMERIC = ("bfloat16", "complex128", "complex64", "float16", "float32", "float64", "int16", "int32", "int64", "int8",
            "uint16", "uint32", "uint64", "uint8")
_FILL_TYPES = {CPU: _NUMERIC + ("bool", "string", "variant", "resource"), GPU: _NUMERIC + ("bool",)}
_GRAD_TYPES = {CPU: _NUMERIC, GPU: tuple(t for t in _NUMERIC if not t.startswith("complex"))}


def _fill(xp, value_rowids, values, nrows, default_value):
    rowids, host_values = on_host(xp, value_rowids).astype(np.int64), on_host(xp, values)
    rows = int(on_host(xp, nrows))
    default = on_host(xp, default_value)
    default = default.item() if default.dtype == object and default.ndim == 0 else default
    counts = np.bincount(rowids, minlength=rows)[:rows] if rowids.size else np.zeros(rows, np.int64)
    empty = counts == 0
    out_rowids, out_values, reverse = [], [], np.zeros(len(rowids), np.int64)
    for row in range(rows):
        if empty[row]:
            out_rowids.append(row)
            out_values.append(default)
            continue
        start = int(counts[:row].sum())
        for i in range(start, start + int(counts[row])):
            reverse[i] = len(out_rowids)
            out_rowids.append(row)
            out_values.append(host_values[i])
    values_out = np.array(out_values, dtype=host_values.dtype).reshape((len(out_values),) + host_values.shape[1:])
    as_device = (lambda a: a) if host_values.dtype == object else xp.asarray
    return (xp.asarray(np.array(out_rowids, np.int64)), as_device(values_out), xp.asarray(empty),
            xp.asarray(reverse))


def _fill_grad(xp, reverse_index_map, grad_values):
    reverse, grads = on_host(xp, reverse_index_map).astype(np.int64), on_host(xp, grad_values)
    d_values = grads[reverse]
    d_default = grads.sum(axis=0) - d_values.sum(axis=0)
    return xp.asarray(d_values), xp.asarray(np.asarray(d_default, grads.dtype))


def _fill_shape(name, shapes, attrs, dtype):
    rows = shapes[0][0] if shapes and shapes[0] is not None else None
    return [(dtypes.int64, (None,)), (dtype, None), (dtypes.bool_, (None,)), (dtypes.int64, (rows,))], None


op("RaggedFillEmptyRows", _fill, _FILL_TYPES, shape=_fill_shape, multi=True, mixed_dtypes=True)
op("RaggedFillEmptyRowsGrad", _fill_grad, _GRAD_TYPES, multi=True, mixed_dtypes=True,
   shape=lambda name, shapes, attrs, dtype: ([(dtype, (shapes[0][0] if shapes[0] else None,)), (dtype, ())], None))


@gradient("RaggedFillEmptyRows")
def _ragged_fill_empty_rows_grad(op, *grads):
    if grads[1] is None:
        return [None, None, None, None]
    d_values, d_default = execute("RaggedFillEmptyRowsGrad", (op.outputs[3], grads[1]), dtype=grads[1].dtype)
    return [None, d_values, None, d_default]


_Filled = collections.namedtuple("RaggedFillEmptyRows", ["output_value_rowids", "output_values",
                                                         "empty_row_indicator", "reverse_index_map"])
_Grads = collections.namedtuple("RaggedFillEmptyRowsGrad", ["d_values", "d_default_value"])


@public("ragged_fill_empty_rows")
def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None):
    values = as_tensor(values)
    out = execute("RaggedFillEmptyRows", (as_tensor(value_rowids), values, as_tensor(nrows),
                                          as_tensor(default_value)), name=name, dtype=values.dtype)
    return _Filled(*out)


@public("ragged_fill_empty_rows_grad")
def ragged_fill_empty_rows_grad(reverse_index_map, grad_values, name=None):
    grad_values = as_tensor(grad_values)
    return _Grads(*execute("RaggedFillEmptyRowsGrad", (as_tensor(reverse_index_map), grad_values), name=name,
                           dtype=grad_values.dtype))
