"""Scatters: ``ScatterNd`` (into zeros, duplicates summed) and ``TensorScatterUpdate`` / ``Add`` /
``Sub`` / ``Min`` / ``Max`` (into a copy of a tensor), with TensorFlow's index checks."""

from __future__ import annotations

import weakref

import numpy as np

from ...runtime.eager.executor import execute
from ...runtime.eager.variables import Variable
from ...runtime.tensor import Tensor
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ...runtime.values import host_array
from .. import shapes
from ..declare import as_tensor, host_arg, on_host, op, public

_ANY_ON_CPU = {CPU: ALL_TYPES, GPU: DEVICE_SAFE}


def _positions(indices, shape, what="shape"):
    """Index tuples for ``np.<ufunc>.at``; TensorFlow's error for one out of range."""
    idx = np.asarray(indices).reshape(-1, np.shape(indices)[-1])
    for k, row in enumerate(idx):
        if any(not 0 <= int(i) < d for i, d in zip(row, shape)):
            dims = ", ".join(map(str, row.tolist()))
            raise ValueError(f"indices[{k}] = [{dims}] does not index into {what} [{','.join(map(str, shape))}]")
    return tuple(idx.T)


def _scatter(combine, gpu=False):
    """The kernel of a scatter into a copy of ``tensor``; ``gpu``: TensorFlow's GPU kernel, which
    ignores an index out of range (the CPU's raises; the ops' docstrings, ``bad_indices_policy``)."""
    def kernel(xp, tensor, indices, updates):
        out = on_host(xp, tensor).copy()
        idx = on_host(xp, indices)
        values = np.asarray(on_host(xp, updates))
        if gpu:
            rows = np.asarray(idx).reshape(-1, np.shape(idx)[-1])
            depth = rows.shape[1]
            keep = ((rows >= 0) & (rows < np.array(out.shape[:depth], dtype=np.int64))).all(axis=1)
            where = tuple(rows[keep].T)
            values = values.reshape((len(rows),) + out.shape[depth:])[keep]
        else:
            where = _positions(idx, out.shape)
            values = values.reshape((len(where[0]),) + out.shape[len(where):])
        if combine is None:
            out[where] = values
        else:
            combine.at(out, where, values)
        return xp.asarray(out)
    return kernel


def _scatter_nd(gpu=False):
    scatter = _scatter(np.add, gpu)

    def kernel(xp, indices, updates, shape=()):
        return scatter(xp, np.zeros(tuple(shape), dtype=on_host(xp, updates).dtype), indices, updates)
    return kernel


for _name, _combine in (("TensorScatterUpdate", None), ("TensorScatterAdd", np.add), ("TensorScatterSub", np.subtract),
                        ("TensorScatterMin", np.minimum), ("TensorScatterMax", np.maximum)):
    op(_name, _scatter(_combine), _ANY_ON_CPU, mixed_dtypes=True, shape=shapes.same,
       gpu_kernel=_scatter(_combine, gpu=True))
op("ScatterNd", _scatter_nd(), _ANY_ON_CPU, host_args={"shape": "shape"}, mixed_dtypes=True,
   gpu_kernel=_scatter_nd(gpu=True))


def _tensor_scatter(op_type):
    def fn(tensor, indices, updates, name=None):
        t = as_tensor(tensor)
        u = as_tensor(updates, slow_list=True) if not isinstance(updates, list) else \
            as_tensor(host_array(updates, t.dtype)[0], slow_list=True)
        return execute(op_type, (t, as_tensor(indices, slow_list=True), u), name=name, dtype=t.dtype)
    return fn


tensor_scatter_nd_update = public("tensor_scatter_nd_update")(_tensor_scatter("TensorScatterUpdate"))
tensor_scatter_nd_add = public("tensor_scatter_nd_add")(_tensor_scatter("TensorScatterAdd"))
tensor_scatter_nd_sub = public("tensor_scatter_nd_sub")(_tensor_scatter("TensorScatterSub"))
tensor_scatter_nd_min = public("tensor_scatter_nd_min")(_tensor_scatter("TensorScatterMin"))
tensor_scatter_nd_max = public("tensor_scatter_nd_max")(_tensor_scatter("TensorScatterMax"))


@public("scatter_nd")
def scatter_nd(indices, updates, shape, name=None):
    u = as_tensor(updates)
    return execute("ScatterNd", (as_tensor(indices), u), {"shape": tuple(int(d) for d in host_arg(shape))},
                   name=name, dtype=u.dtype)


# -- a variable's scatter and slice assignments (TensorFlow's ResourceScatterNd*, StridedSliceAssign) --

def _variable_scatter(fn):
    def method(self, indices, updates, name=None):
        return self.assign(fn(self.value(), indices, updates))
    return method


Variable.scatter_nd_update = _variable_scatter(tensor_scatter_nd_update)
Variable.scatter_nd_add = _variable_scatter(tensor_scatter_nd_add)
Variable.scatter_nd_sub = _variable_scatter(tensor_scatter_nd_sub)
Variable.scatter_nd_max = _variable_scatter(tensor_scatter_nd_max)
Variable.scatter_nd_min = _variable_scatter(tensor_scatter_nd_min)


_SLICES: dict = {}  # id(sliced tensor) -> (variable, key), dropped with the tensor


class SlicedVariable(Tensor):
    """``variable[key]``: the slice's value (the same tensor a tape saw), with ``assign`` writing
    it back into the variable."""

    __slots__ = ()

    def assign(self, value, use_locking=None, name=None, read_value=True):
        variable, key = _SLICES[id(self)]
        whole = variable.numpy().copy()
        whole[key] = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
        return variable.assign(whole, read_value=read_value)


def _sliced(variable, key):
    from .indexing_ops import getitem

    value = getitem(variable.value(), key)
    if type(value) is not Tensor:  # a symbolic slice (in a function graph): no assign
        return value
    value.__class__ = SlicedVariable
    _SLICES[id(value)] = (variable, key)
    weakref.finalize(value, _SLICES.pop, id(value), None)
    return value


Variable.__getitem__ = _sliced


def _sparse_read(self, indices, name=None):
    from .indexing_ops import gather

    return gather(self.value(), indices, name=name)


def _gather_nd(self, indices, name=None):
    from .indexing_ops import gather_nd

    return gather_nd(self.value(), indices, name=name)


Variable.sparse_read = _sparse_read
Variable.gather_nd = _gather_nd
