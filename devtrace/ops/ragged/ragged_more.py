"""More of ``tf.ragged``: range (``RaggedRange``, CPU only as TensorFlow), stack, boolean_mask,
stack_dynamic_partitions, cross, and the row-splits/segment-ids conversions. The partitions are
host arrays, as ``ragged_tensor``'s."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.values import constant
from ..declare import as_tensor, on_host, op, public
from .ragged_ops import ragged_constant
from .ragged_tensor import RaggedTensor


def _ragged_range(xp, starts, limits, deltas, Tsplits="int64"):
    starts, limits, deltas = np.broadcast_arrays(*(on_host(xp, a).reshape(-1) if a.ndim else on_host(xp, a)
                                                   for a in (starts, limits, deltas)))
    starts, limits, deltas = (np.atleast_1d(a) for a in (starts, limits, deltas))
    if np.any(deltas == 0):
        raise ValueError("Requires delta != 0")
    rows = [np.arange(s, l, d, dtype=starts.dtype) for s, l, d in zip(starts, limits, deltas)]
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(Tsplits)
    values = np.concatenate(rows) if rows else np.zeros(0, starts.dtype)
    return xp.asarray(splits), xp.asarray(values.astype(starts.dtype))


def _range_shapes(name, shapes, attrs, dtype):
    return [(dtypes.as_dtype(attrs.get("Tsplits", "int64")), None), (dtype, None)], None


op("RaggedRange", _ragged_range, None, devices=(CPU,), shape=_range_shapes, multi=True)


@public("ragged.range")
def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):
    if limits is None:
        starts, limits = 0, starts
    parts = [as_tensor(v) if dtype is None else as_tensor(np.asarray(v, dtypes.as_dtype(dtype).np))
             for v in (starts, limits, deltas)]
    common = parts[1].dtype if dtype is None else dtypes.as_dtype(dtype)
    parts = [p if p.dtype == common else constant(p.numpy().astype(common.np), common) for p in parts]
    splits, values = execute("RaggedRange", tuple(parts), {"Tsplits": dtypes.as_dtype(row_splits_dtype).name},
                             name=name)
    return RaggedTensor(values, splits)


def _rows(value) -> list:
    return value.to_list() if isinstance(value, RaggedTensor) else as_tensor(value).numpy().tolist()


def _dtype(values):
    first = values[0]
    return first.dtype if isinstance(first, RaggedTensor) else as_tensor(first).dtype


@public("ragged.stack")
def stack(values, axis=0, name=None):
    rows = [_rows(v) for v in values]
    if axis == 0:
        return ragged_constant(rows, _dtype(values))
    if axis in (1, -1) and all(len(r) == len(rows[0]) for r in rows):
        return ragged_constant([[r[i] for r in rows] for i in range(len(rows[0]))], _dtype(values))
    raise NotImplementedError(f"devtrace does not implement tf.ragged.stack over axis {axis} yet")


def _mask(data, mask):
    if isinstance(mask, list) and mask and isinstance(data, list) and mask and isinstance(mask[0], list):
        return [_mask(d, m) for d, m in zip(data, mask)]
    return [d for d, m in zip(data, mask) if m]


@public("ragged.boolean_mask")
def boolean_mask(data, mask, name=None):
    rows = _mask(_rows(data), _rows(mask))
    rank = data.ragged_rank if isinstance(data, RaggedTensor) else max(1, np.ndim(as_tensor(mask).numpy()) - 1)
    return ragged_constant(rows, _dtype([data]), ragged_rank=rank)


@public("ragged.stack_dynamic_partitions")
def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    values, parts = as_tensor(data), np.asarray(as_tensor(partitions).numpy()).reshape(-1)
    order = np.argsort(parts, kind="stable")
    counts = np.bincount(parts, minlength=int(num_partitions))
    return RaggedTensor.from_row_lengths(constant(values.numpy()[order], values.dtype), counts)


@public("ragged.cross")
def cross(inputs, name=None):
    """Each row's cartesian product of the inputs' strings, joined by ``_X_``."""
    rows = [_rows(v) for v in inputs]
    out = []
    for i in range(len(rows[0])):
        combos = [b""]
        for k, r in enumerate(rows):
            items = [x if isinstance(x, bytes) else str(x).encode() for x in r[i]]
            combos = [c + (b"_X_" if k else b"") + x for c in combos for x in items]
        out.append(combos)
    return ragged_constant(out, dtypes.string)


@public("ragged.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Each row's cartesian product of the inputs' values, hashed to int64 ids (``sparse.cross_hashed``'s)."""
    from ..sparse.sparse_breadth import cross_hash

    rows = [_rows(v) for v in inputs]
    out = []
    for i in range(len(rows[0])):
        combos = [()]
        for r in rows:
            combos = [c + (x,) for c in combos for x in r[i]]
        out.append([cross_hash(c, hash_key, num_buckets) for c in combos])
    return ragged_constant(out, dtypes.int64)


@public("ragged.row_splits_to_segment_ids")
def row_splits_to_segment_ids(splits, name=None, out_type=None):
    s = np.asarray(as_tensor(splits).numpy(), np.int64)
    out = dtypes.as_dtype(out_type) if out_type is not None else dtypes.int64
    return constant(np.repeat(np.arange(len(s) - 1), np.diff(s)).astype(out.np), out)


@public("ragged.segment_ids_to_row_splits")
def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    ids = np.asarray(as_tensor(segment_ids).numpy(), np.int64)
    count = int(num_segments) if num_segments is not None else (int(ids.max()) + 1 if ids.size else 0)
    out = dtypes.as_dtype(out_type) if out_type is not None else dtypes.int64
    return constant(np.concatenate([[0], np.cumsum(np.bincount(ids, minlength=count))]).astype(out.np), out)
