"""tf.data's elements on the host: structures of host arrays (NumPy, or ``HostRagged``/``HostSparse``),
their specs, rows and batches, and the conversions to and from tensors a pipeline step makes. A
dataset-valued component (``window``'s) is kept as it is (``Transforms`` is the ``Dataset`` mixin)."""

from __future__ import annotations

import numpy as np

from . import _deferred as deferred, _extension as extension, _ragged as data_ragged, _sparse as data_sparse
from ._ragged import HostRagged
from ._sparse import HostSparse
from ._transforms import Transforms
from ..ops.random import philox
from ..ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from ..polymorphic_function.function import TensorSpec
from ..runtime import dtypes
from ..runtime.graph.tensor import SymbolicTensor
from ..runtime.tensor import Tensor
from ..runtime.tensor_shape import TensorShape
from ..runtime.values import constant, host_array

AUTOTUNE = -1
INFINITE, UNKNOWN = -1, -2


class _Words:
    """TensorFlow's ``SingleSampleAdapter<PhiloxRandom>(seed, seed2)``: one uint32 word a call."""

    def __init__(self, seed, seed2):
        self._key, self._counter, self._block, self._words = seed & (2**64 - 1), (0, seed2 & (2**64 - 1)), 0, []

    def __call__(self) -> int:
        if not self._words:
            self._words = [int(w) for w in philox.words(self._key, self._counter, 1, self._block)[0]]
            self._block += 1
        return self._words.pop(0)


def _pick(window, word):
    """The shuffle buffer's step: the element at ``word % size`` leaves, the oldest takes its place."""
    offset = word % len(window)
    out = window[offset]
    window[offset] = window[0]
    window.popleft()
    return out


def map_structure(fn, *structures):
    """tf.data's structures: tuples and dicts nest; a list is one value (converted to a tensor)."""
    first = structures[0]
    if isinstance(first, extension.Record):  # an extension type's tensors: the record kept (data._extension)
        return type(first)((k, map_structure(fn, *[s[k] for s in structures])) for k in sorted(first))
    if isinstance(first, dict):  # walked in sorted key order, kept in the dict's own (as TensorFlow's nest)
        out = {k: map_structure(fn, *[s[k] for s in structures]) for k in sorted(first)}
        return {k: out[k] for k in first}
    if isinstance(first, tuple):
        return tuple(map_structure(fn, *parts) for parts in zip(*structures))
    return fn(*structures)


def flatten(structure) -> list:
    out = []
    map_structure(out.append, structure)
    return out


def _host(value):
    if isinstance(value, Transforms):
        return value
    if isinstance(value, SparseTensor):
        return data_sparse.from_sparse(value)
    if isinstance(value, RaggedTensor):
        return data_ragged.from_ragged(value)
    if isinstance(value, Tensor):
        value = value.numpy()
        return value if isinstance(value, np.ndarray) else np.array(value, object if type(value) is bytes else None)
    return host_array(value)[0]


def _deferred_parts(structure):
    """A structure holding a traced dataset function's tensors: those kept (the dataset is made of
    them, ``data._deferred``), the other values on the host."""
    parts = map_structure(lambda v: v if isinstance(v, SymbolicTensor) else _host(v), structure)
    deferred.made_of(flatten(parts))
    return parts


def _bound(part):
    """A part of a template dataset: a graph tensor's value for the element being expanded."""
    return _host(deferred.value(part)) if isinstance(part, SymbolicTensor) else part


def _spec_of_part(part):
    if isinstance(part, SymbolicTensor):
        return TensorSpec(None if part.shape.rank is None else tuple(part.shape), part.dtype)
    return _spec(part)


def _tensor(array):
    if isinstance(array, Transforms):
        return array
    if isinstance(array, HostSparse):
        return data_sparse.to_sparse(array)
    if isinstance(array, HostRagged):
        return data_ragged.to_value(array)
    return constant(array, dtypes.infer(array) if array.dtype.kind not in "SUO" else dtypes.string)


def _spec(array, batch=None) -> TensorSpec:
    if isinstance(array, HostSparse):
        return data_sparse.spec(array, batch)
    if isinstance(array, HostRagged):
        return data_ragged.spec(array, batch)
    shape = tuple(array.shape) if batch is None else (batch,) + tuple(array.shape[1:])
    dtype = dtypes.string if array.dtype.kind in "SUO" else dtypes.as_dtype(array.dtype)
    return TensorSpec(shape, dtype)


def _row(array, i):
    if isinstance(array, HostRagged):
        return data_ragged.row(array, i)
    return data_sparse.row(array, i) if isinstance(array, HostSparse) else np.asarray(array[i], array.dtype)


def _stack(*arrays):
    if isinstance(arrays[0], HostRagged):
        return data_ragged.stack(arrays)
    return data_sparse.stack(arrays) if isinstance(arrays[0], HostSparse) else np.stack(arrays)


def _numpy(value):
    """``as_numpy_iterator``'s view of one component."""
    if isinstance(value, HostRagged):
        return data_ragged.to_numpy(value)
    return value[()] if value.ndim == 0 else value


def _rows(array):
    return [_row(array, i) for i in range(len(array))]


def _batched(spec, size):
    """The spec of a batch of ``spec``'s elements (``size``: None when the last batch may be short)."""
    if isinstance(spec, RaggedTensorSpec):
        return data_ragged.batched(spec, size)
    kind = SparseTensorSpec if isinstance(spec, SparseTensorSpec) else TensorSpec
    return kind((size,) + tuple(spec.shape), spec.dtype)


def _unbatched(spec):
    if isinstance(spec, RaggedTensorSpec):
        return data_ragged.unbatched(spec)
    kind = SparseTensorSpec if isinstance(spec, SparseTensorSpec) else TensorSpec
    if spec.shape.rank is None:
        return kind(None, spec.dtype)
    return kind(tuple(spec.shape)[1:], spec.dtype)


def _along(structure, value) -> list:
    """``value``'s parts that correspond to ``structure``'s leaves (``padded_shapes`` for an element spec)."""
    if isinstance(structure, dict):
        return [part for k in sorted(structure) for part in _along(structure[k], value[k])]
    if isinstance(structure, tuple) and not isinstance(value, tuple):  # one value for every component
        return [value] * len(flatten(structure))
    if isinstance(structure, tuple):
        return [part for s, v in zip(structure, value) for part in _along(s, v)]
    return [value]


def _shape_list(shape):
    """A padded shape as a list of sizes (None: unknown); an int is a vector's length."""
    if shape is None:
        return None
    if isinstance(shape, TensorShape):
        return None if shape.rank is None else list(shape.as_list())
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    if isinstance(shape, Tensor):
        return [int(d) for d in np.asarray(shape.numpy()).reshape(-1)]
    return [None if d is None else int(d) for d in shape]


def _generated(spec, value):
    """A generator's value as the host array (or ragged host arrays) of ``spec``."""
    if isinstance(spec, RaggedTensorSpec):
        if isinstance(value, RaggedTensor):
            return data_ragged.from_ragged(value, spec.row_splits_dtype)
        return data_ragged.from_dense(host_array(value, spec.dtype)[0], 0, spec.row_splits_dtype)
    return host_array(value, spec.dtype)[0]


def _batch_unknown(input_spec, first_input, spec):
    """An eagerly run function's element spec (the first element's), its leading dimension unknown
    where it is the first input's unknown batch size (``batch`` without ``drop_remainder``), as a
    trace would leave it."""
    sizes = {np.shape(a)[0] for s, a in zip(flatten(input_spec), flatten(first_input))
             if type(s) is TensorSpec and s.shape.rank and s.shape.as_list()[0] is None and np.ndim(a)}

    def relax(s):
        if type(s) is not TensorSpec or not s.shape.rank or s.shape.as_list()[0] not in sizes:
            return s
        return TensorSpec([None] + s.shape.as_list()[1:], s.dtype)
    return map_structure(relax, spec)


_END = object()


def _as_args(element):
    """An element's host arrays (or tensors already) as a function's eager arguments."""
    return extension.values(map_structure(lambda a: a if isinstance(a, Tensor) else _tensor(a), element))


def _listless(out):
    return tuple(out) if type(out) is list else out  # TensorFlow: a list returned is a tuple


def _pack(structure, values):
    it = iter(values)
    return map_structure(lambda _: next(it), structure)
