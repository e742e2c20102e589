"""The rest of ``tf.sparse``: the sparse segment reductions (``SparseSegmentSum``/``Mean``/``SqrtN``
and their ``WithNumSegments`` forms: ops with TensorFlow's CPU and GPU kernels), and, host-side on
the index arrays as :mod:`.sparse_ops`, ``retain``, ``reset_shape``, ``reshape``,
``fill_empty_rows``, ``to_indicator``, ``mask`` (of ``IndexedSlices``) and ``cross``."""

from __future__ import annotations

import itertools

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ...runtime.values import constant
from ..declare import API, as_tensor, on_host, op, public
from .sparse_ops import _ordered, _parts
from .sparse_tensor import SparseTensor

_SUM_TYPES = {CPU: {"bfloat16", "float16", "float32", "float64", "int16", "int32", "int64", "int8", "uint16",
                    "uint32", "uint64", "uint8"},
              GPU: {"bfloat16", "float16", "float32", "float64", "int32", "int64"}}
_MEAN_TYPES = {CPU: {"bfloat16", "float16", "float32", "float64", "int32", "int64"},
               GPU: {"bfloat16", "float16", "float32", "float64", "int32", "int64"}}


def _sparse_segment(kind):
    def kernel(xp, data, indices, segment_ids, *num, sparse_gradient=False):
        idx, seg = on_host(xp, indices).astype(np.int64), on_host(xp, segment_ids).astype(np.int64)
        rows = int(data.shape[0])
        bad = idx[(idx < 0) | (idx >= rows)]
        if bad.size:
            raise InvalidArgumentError(f"Index {int(bad[0])} out of range [0, {rows}).")
        if seg.size and (np.diff(seg) < 0).any():
            raise InvalidArgumentError("segment ids are not increasing")
        count = int(on_host(xp, num[0])) if num else (int(seg[-1]) + 1 if seg.size else 0)
        picked = on_host(xp, data)[idx]
        out = np.zeros((count,) + tuple(data.shape[1:]), picked.dtype)
        np.add.at(out, seg, picked)
        if kind != "sum":  # in the data's type, as TensorFlow's kernel divides
            work = picked.dtype if picked.dtype.kind == "f" else np.float64
            sizes = np.maximum(np.bincount(seg, minlength=count), 1).astype(work).reshape((-1,) + (1,) * (data.ndim - 1))
            out = out.astype(work) / (np.sqrt(sizes) if kind == "sqrt_n" else sizes)
        return xp.asarray(out.astype(data.dtype))
    return kernel


def _segment_shape(name, shapes, attrs, dtype):
    data = shapes[0]
    return dtype, None if data is None else (None,) + tuple(data[1:])


for _kind, _op, _types in (("sum", "SparseSegmentSum", _SUM_TYPES), ("mean", "SparseSegmentMean", _MEAN_TYPES),
                           ("sqrt_n", "SparseSegmentSqrtN", _MEAN_TYPES)):
    op(_op, _sparse_segment(_kind), _types, shape=_segment_shape, mixed_dtypes=True)
    op(_op + "WithNumSegments", _sparse_segment(_kind), _types if _kind != "sum" else
       {CPU: _SUM_TYPES[CPU], GPU: _MEAN_TYPES[GPU]}, shape=_segment_shape, mixed_dtypes=True)


def _segment_fn(op_type):
    def fn(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
        inputs = [as_tensor(data), as_tensor(indices), as_tensor(segment_ids)]
        if num_segments is None:
            return execute(op_type, tuple(inputs), {"sparse_gradient": bool(sparse_gradient)}, name=name)
        inputs.append(as_tensor(num_segments))
        return execute(op_type + "WithNumSegments", tuple(inputs), {"sparse_gradient": bool(sparse_gradient)},
                       name=name)
    return fn


segment_sum = public("sparse.segment_sum")(_segment_fn("SparseSegmentSum"))
segment_mean = public("sparse.segment_mean")(_segment_fn("SparseSegmentMean"))
segment_sqrt_n = public("sparse.segment_sqrt_n")(_segment_fn("SparseSegmentSqrtN"))


@public("sparse.retain")
def retain(sp_input, to_retain):
    """The entries where ``to_retain`` (one bool per entry) is true."""
    indices, values, shape = _parts(sp_input)
    keep = np.asarray(as_tensor(to_retain).numpy(), bool).reshape(-1)
    if keep.size != len(values):
        raise ValueError(f"Shapes ({len(values)},) and ({keep.size},) are incompatible")
    return SparseTensor(indices[keep].reshape(-1, len(shape)), constant(values[keep], sp_input.dtype), shape)


@public("sparse.reset_shape")
def reset_shape(sp_input, new_shape=None):
    """The same entries with ``new_shape`` (each dimension at least the old), or the tightest shape."""
    indices, values, shape = _parts(sp_input)
    if new_shape is None:
        tight = indices.max(axis=0) + 1 if len(indices) else np.zeros(len(shape), np.int64)
        return SparseTensor(indices, sp_input.values, tight.astype(np.int64))
    new = np.asarray(as_tensor(new_shape).numpy(), np.int64).reshape(-1)
    if len(new) != len(shape):
        raise ValueError(f"Shapes {tuple(shape)} and {tuple(new)} must have the same rank")
    if (new < shape).any():
        raise InvalidArgumentError("Assertion failed: [\"Condition x <= y did not hold element-wise:\"]")
    return SparseTensor(indices, sp_input.values, new)


@public("sparse.reshape")
def reshape(sp_input, shape, name=None):
    indices, values, old = _parts(sp_input)
    new = [int(v) for v in np.asarray(as_tensor(shape).numpy()).reshape(-1)]
    total = int(np.prod(old))
    if new.count(-1) > 1:
        raise InvalidArgumentError("only one output dimension may be -1, not both 0 and 1")
    if -1 in new:
        known = int(np.prod([d for d in new if d != -1]))
        new[new.index(-1)] = total // known if known else 0
    if int(np.prod(new)) != total:
        raise InvalidArgumentError(f"Input to reshape is a tensor with {total} dense values, but the requested shape "
                                   f"has {int(np.prod(new))}")
    flat = np.ravel_multi_index(indices.T, old) if len(indices) else np.zeros(0, np.int64)
    moved = np.stack(np.unravel_index(flat, new), 1).astype(np.int64) if len(indices) else \
        np.zeros((0, len(new)), np.int64)
    return SparseTensor(moved, sp_input.values, np.asarray(new, np.int64))


@public("sparse.fill_empty_rows")
def fill_empty_rows(sp_input, default_value, name=None):
    """Each empty row gets ``default_value`` at column 0; also which rows were empty."""
    indices, values, shape = _parts(sp_input)
    rows = int(shape[0])
    present = np.zeros(rows, bool)
    present[indices[:, 0]] = True
    empty = np.nonzero(~present)[0]
    extra = np.zeros((len(empty), len(shape)), np.int64)
    extra[:, 0] = empty
    default = np.asarray(as_tensor(default_value, ).numpy() if hasattr(default_value, "numpy") else default_value,
                         dtype=values.dtype)
    filled = _ordered(np.concatenate([indices, extra]), np.concatenate([values, np.full(len(empty), default,
                                                                                        values.dtype)]), shape)
    filled = SparseTensor(filled.indices, constant(filled.values.numpy(), sp_input.dtype), shape)
    return filled, constant(~present)


@public("sparse.to_indicator")
def to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor, one more dimension of ``vocab_size``: true at each row's values."""
    indices, values, shape = _parts(sp_input)
    out = np.zeros(tuple(shape[:-1]) + (int(vocab_size),), bool)
    for index, value in zip(indices, values):
        if 0 <= value < vocab_size:
            out[tuple(index[:-1]) + (int(value),)] = True
    return constant(out)


@public("sparse.mask")
def mask(a, mask_indices, name=None):
    """``IndexedSlices`` ``a`` without the slices at ``mask_indices``."""
    from .indexed_slices import IndexedSlices

    indices = as_tensor(a.indices).numpy()
    drop = set(np.asarray(as_tensor(mask_indices).numpy()).reshape(-1).tolist())
    keep = np.array([i for i, v in enumerate(indices.tolist()) if v not in drop], np.int32)
    kept = constant(keep)
    return IndexedSlices(API["gather"](a.values, kept), API["gather"](a.indices, kept), a.dense_shape)


def _rows_of(x, batch, raw=False):
    """Each row's feature values (as bytes; ``raw``: as they are), from a SparseTensor or a dense 2-D tensor."""
    if isinstance(x, SparseTensor):
        indices, values, _ = _parts(x)
        rows = [[] for _ in range(batch)]
        for index, value in zip(indices, values):
            rows[int(index[0])].append(value)
    else:
        rows = [list(r) for r in as_tensor(x).numpy()]
    if raw:
        return rows
    return [[v if isinstance(v, bytes) else str(v).encode() for v in row] for row in rows]


@public("sparse.cross")
def cross(inputs, name=None, separator=None):
    """Per row, every combination of one value from each input, joined by ``separator`` (``"_X_"``)."""
    sep = (separator or "_X_").encode() if isinstance(separator or "_X_", str) else separator
    batch = next(int(x.dense_shape.numpy()[0]) if isinstance(x, SparseTensor) else int(as_tensor(x).shape[0])
                 for x in inputs)
    ordered = [x for x in inputs if isinstance(x, SparseTensor)] + [x for x in inputs if not isinstance(x, SparseTensor)]
    columns = [_rows_of(x, batch) for x in ordered]  # TensorFlow's order: the sparse inputs, then the dense
    indices, values = [], []
    for row in range(batch):
        for k, combo in enumerate(itertools.product(*(c[row] for c in columns))):
            indices.append((row, k))
            values.append(sep.join(combo))
    width = max((k + 1 for (_, k) in indices), default=0)
    return SparseTensor(np.array(indices, np.int64).reshape(-1, 2), constant(np.array(values, object),
                                                                             dtypes.string), [batch, width])


_KMUL = 0xC6A4A7935BD1E995
_U64 = (1 << 64) - 1
DEFAULT_HASH_KEY = 0xDECAFCAFFE  # TensorFlow's sparse_ops._DEFAULT_HASH_KEY


def _shift_mix(v):
    return v ^ (v >> 47)


def _fingerprint_cat64(fp1, fp2):
    """TensorFlow's ``FingerprintCat64``: two 64-bit fingerprints into one."""
    out = fp1 ^ _KMUL
    out ^= (_shift_mix((fp2 * _KMUL) & _U64) * _KMUL) & _U64
    out = (out * _KMUL) & _U64
    out = (_shift_mix(out) * _KMUL) & _U64
    return _shift_mix(out)


def cross_hash(combo, hash_key=None, num_buckets=0) -> int:
    """A crossed feature's id as TensorFlow's ``HashCrosser``: each value's hash (a string's
    FarmHash fingerprint, an integer itself) folded into the key, modulo ``num_buckets`` (none: the
    largest int64)."""
    from ..strings.farmhash import fingerprint64

    out = DEFAULT_HASH_KEY if hash_key is None else int(hash_key) & _U64
    for v in combo:
        if isinstance(v, str):
            v = v.encode()
        out = _fingerprint_cat64(out, fingerprint64(v) if isinstance(v, bytes) else int(v) & _U64)
    return out % (int(num_buckets) if num_buckets and num_buckets > 0 else (1 << 63) - 1)


@public("sparse.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Per row, every combination of one value from each input, hashed to an int64 id."""
    batch = next(int(x.dense_shape.numpy()[0]) if isinstance(x, SparseTensor) else int(as_tensor(x).shape[0])
                 for x in inputs)
    ordered = [x for x in inputs if isinstance(x, SparseTensor)] + [x for x in inputs if not isinstance(x, SparseTensor)]
    columns = [_rows_of(x, batch, raw=True) for x in ordered]
    indices, values = [], []
    for row in range(batch):
        for k, combo in enumerate(itertools.product(*(c[row] for c in columns))):
            indices.append((row, k))
            values.append(cross_hash(combo, hash_key, num_buckets))
    width = max((k + 1 for (_, k) in indices), default=0)
    return SparseTensor(np.array(indices, np.int64).reshape(-1, 2), constant(np.array(values, np.int64)),
                        [batch, width])
