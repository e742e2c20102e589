"""``tf.RaggedTensor``: rows of different lengths, any number of ragged dimensions — ``values``
(a Tensor, or a RaggedTensor for the next ragged dimension) partitioned by int64 ``row_splits``.
Its constructors, conversions (lists, NumPy, dense and sparse tensors), indexing and TensorFlow's
printed form. The partitions are host arrays; the values stay tensors, so ops on them run (and
are logged) as ops."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.tensor import Tensor, TensorShape
from ...runtime.values import constant
from ..declare import API, as_tensor, public
from ..sparse.sparse_tensor import SparseTensor


def _splits(row_splits) -> Tensor:
    return constant(np.asarray(row_splits, np.int64).reshape(-1), dtypes.int64)


def _formatter(x):
    """TensorFlow's: NumPy's text with ``, `` between elements; an empty array as its list."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


@public("RaggedTensor")
class RaggedTensor:
    def __init__(self, values, row_splits, uniform_row_length=None):
        self._values = values if isinstance(values, (RaggedTensor, Tensor)) else as_tensor(values)
        self._row_splits = row_splits if isinstance(row_splits, Tensor) else _splits(row_splits)
        self._uniform_row_length = uniform_row_length

    _lengths_given = False  # made by from_row_lengths (its validation names that)

    # -- constructors ---------------------------------------------------------------------------
    def _validated(self, validate, zero_check=None):
        """TensorFlow's ``validate=True`` checks (``_from_row_partition``'s): the partition covers the
        values exactly (``zero_check``: the constructor whose first split must be 0)."""
        if not validate:
            return self
        splits = self._row_splits.numpy()
        if zero_check is not None and len(splits) and splits[0] != 0:
            API["debugging.assert_equal"](constant(splits[:1]), constant(np.zeros(1, np.int64)),
                                          message=f"Arguments to {zero_check} do not form a valid RaggedTensor:zero")
        steps = np.diff(splits)
        if (steps < 0).any():
            lengths = zero_check is None and self._lengths_given
            API["debugging.assert_non_negative"](
                constant(steps), message="Arguments to from_row_lengths do not form a valid RowPartition" if lengths
                else f"Arguments to {zero_check or 'from_row_splits'} do not form a valid RaggedTensor:monotonic")
        nvals = self._values.nrows_value() if isinstance(self._values, RaggedTensor) else \
            (self._values.shape[0] if self._values.shape.rank else None)
        if nvals is not None and len(splits) and splits[-1] != nvals:
            API["debugging.assert_equal"](constant(splits[-1]), constant(np.int64(nvals)),
                                          message="Arguments to _from_row_partition do not form a valid RaggedTensor")
        return self

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        return cls(values, _splits(row_splits))._validated(validate, "from_row_splits")

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        out = cls(values, np.concatenate([[0], np.cumsum(np.asarray(row_lengths, np.int64))]))
        out._lengths_given = True
        return out._validated(validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        total = values.nrows_value() if isinstance(values, RaggedTensor) else len(as_tensor(values).numpy())
        return cls(values, np.concatenate([np.asarray(row_starts, np.int64).reshape(-1), [total]]))

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        return cls(values, np.concatenate([[0], np.asarray(row_limits, np.int64).reshape(-1)]))._validated(validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        rowids = np.asarray(value_rowids, np.int64).reshape(-1)
        count = int(nrows) if nrows is not None else (int(rowids.max()) + 1 if rowids.size else 0)
        return cls.from_row_lengths(values, np.bincount(rowids, minlength=count))

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        length = int(uniform_row_length)
        total = values.nrows_value() if isinstance(values, RaggedTensor) else len(as_tensor(values).numpy())
        count = int(nrows) if nrows is not None else (total // length if length else 0)
        return cls(values, np.arange(count + 1, dtype=np.int64) * length, uniform_row_length=length)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        out = flat_values
        for splits in reversed(list(nested_row_splits)):
            out = cls.from_row_splits(out, splits)
        return out

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        out = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            out = cls.from_row_lengths(out, lengths)
        return out

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=dtypes.int64):
        """Each row of a dense tensor, without its trailing ``padding`` (or cut to ``lengths``)."""
        x = as_tensor(tensor)
        dense = x.numpy()
        if lengths is not None:
            counts = np.asarray(lengths, np.int64)
        elif padding is not None:
            pad = np.asarray(as_tensor(padding).numpy())
            counts = np.array([_unpadded(row, pad) for row in dense], np.int64)
        else:
            counts = np.full(len(dense), dense.shape[1] if dense.ndim > 1 else 0, np.int64)
        flat = np.concatenate([row[:n] for row, n in zip(dense, counts)]) if len(dense) else dense.reshape(
            (0,) + dense.shape[2:])
        return cls.from_row_lengths(constant(flat, x.dtype), counts)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        indices, shape = st_input.indices.numpy(), st_input.dense_shape.numpy()
        counts = np.bincount(indices[:, 0], minlength=int(shape[0])) if len(indices) else np.zeros(int(shape[0]))
        return cls.from_row_lengths(st_input.values, counts)

    # -- structure -----------------------------------------------------------------------------
    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)
    dtype = property(lambda self: self._values.dtype)
    uniform_row_length = property(lambda self: None if self._uniform_row_length is None else constant(
        self._uniform_row_length, dtypes.int64))

    @property
    def flat_values(self) -> Tensor:
        return self._values.flat_values if isinstance(self._values, RaggedTensor) else self._values

    @property
    def nested_row_splits(self) -> tuple:
        inner = self._values.nested_row_splits if isinstance(self._values, RaggedTensor) else ()
        return (self._row_splits,) + inner

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def shape(self) -> TensorShape:
        inner = self._values.shape
        return TensorShape([self.nrows_value(), self._uniform_row_length] + list(inner)[1:])

    def nrows_value(self) -> int:
        return len(self._row_splits.numpy()) - 1

    def nrows(self, out_type=None, name=None):
        return constant(self.nrows_value(), out_type or dtypes.int64)

    def row_lengths(self, axis=1, name=None):
        if axis not in (1, -self.shape.rank + 1 if self.shape.rank else 1):
            return self.with_values(self._values.row_lengths(axis - 1))
        return constant(np.diff(self._row_splits.numpy()), dtypes.int64)

    def row_limits(self, name=None):
        return constant(self._row_splits.numpy()[1:], dtypes.int64)

    def nested_value_rowids(self, name=None) -> tuple:
        inner = self._values.nested_value_rowids() if isinstance(self._values, RaggedTensor) else ()
        return (self.value_rowids(),) + inner

    def get_shape(self) -> TensorShape:
        return self.shape

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions ``outer_axis..inner_axis`` as one: their row partitions composed."""
        rank = self.shape.rank
        outer, inner = outer_axis % rank, inner_axis % rank
        if outer == inner:
            return self
        if outer == 0:
            out = self
            for _ in range(inner):
                out = out.values if isinstance(out, RaggedTensor) else API["reshape"](out, [-1] + list(out.shape)[2:])
            return out
        if outer > 1:
            return self.with_values(self._values.merge_dims(outer - 1, inner - 1))
        merged = self._values.merge_dims(0, inner - outer)
        splits = self._row_splits.numpy()
        level = self._values
        for _ in range(inner - outer):
            splits = level.row_splits.numpy()[splits]
            level = level.values
        return RaggedTensor(merged, splits)

    def value_rowids(self, name=None):
        lengths = np.diff(self._row_splits.numpy())
        return constant(np.repeat(np.arange(len(lengths), dtype=np.int64), lengths), dtypes.int64)

    def row_starts(self, name=None):
        return constant(self._row_splits.numpy()[:-1], dtypes.int64)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        dims = _bounds(self)
        return constant(np.asarray(dims if axis is None else np.asarray(dims)[axis], np.int64), dtypes.int64)

    def with_values(self, new_values):
        return RaggedTensor(new_values, self._row_splits, self._uniform_row_length)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values if isinstance(new_values, (Tensor, RaggedTensor)) else as_tensor(new_values))

    # -- conversions ---------------------------------------------------------------------------
    def to_list(self) -> list:
        splits = self._row_splits.numpy().tolist()
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) else self._values.numpy().tolist()
        return [values[a:b] for a, b in zip(splits[:-1], splits[1:])]

    def numpy(self):
        """TensorFlow's: rows as arrays; an object array of them when their lengths differ."""
        values, splits = self._values.numpy(), self._row_splits.numpy()
        rows = [values[a:b] for a, b in zip(splits[:-1], splits[1:])]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        ragged = any(len(row) != len(rows[0]) for row in rows)
        return np.array(rows, dtype=np.object_ if ragged else None)

    def to_tensor(self, default_value=None, name=None, shape=None):
        dims = _bounds(self)
        if shape is not None:
            dims = [d if s is None or s == -1 else int(s) for d, s in zip(dims, list(shape))]
        flat = self.flat_values.numpy()
        fill = (b"" if self.dtype is dtypes.string else 0) if default_value is None else default_value
        dense = np.full(dims, fill, dtype=flat.dtype)
        for index, value in zip(_positions(self), flat):
            if all(i < d for i, d in zip(index, dims)):
                dense[index] = value
        return constant(dense, self.dtype)

    def to_sparse(self, name=None):
        positions = _positions(self)
        indices = np.asarray(positions, np.int64).reshape(len(positions), self.ragged_rank + 1)
        return SparseTensor(indices, self.flat_values, _bounds(self))

    # -- indexing ------------------------------------------------------------------------------
    def _row(self, i: int):
        splits = self._row_splits.numpy()
        if not -len(splits) < i < len(splits) - 1:
            raise IndexError(f"Index {i} out of range for {len(splits) - 1} rows")
        i %= len(splits) - 1
        return _take(self._values, int(splits[i]), int(splits[i + 1]))

    def _rows(self, key: slice):
        splits = self._row_splits.numpy()
        picked = range(len(splits) - 1)[key]
        if key.step not in (None, 1):
            return _from_rows([self._row(i) for i in picked], self._values)
        start = picked.start if len(picked) else 0
        ends = splits[start:start + len(picked) + 1]
        return RaggedTensor(_take(self._values, int(ends[0]), int(ends[-1])), ends - ends[0],
                            self._uniform_row_length)

    def __getitem__(self, key):
        keys = key if isinstance(key, tuple) else (key,)
        first, rest = keys[0], keys[1:]
        if first is Ellipsis:
            return self if not rest else self[(slice(None),) + rest]
        if not isinstance(first, slice):
            row = self._row(int(first))
            return row[rest] if rest else row
        rows = self._rows(first)
        if not rest:
            return rows
        return _from_rows([rows._row(i)[rest] for i in range(rows.nrows_value())], rows._values)

    def __iter__(self):
        return (self._row(i) for i in range(self.nrows_value()))

    def __len__(self):
        return self.nrows_value()

    def _nest_components(self) -> list:
        """``tf.nest``'s view with ``expand_composites=True``: flat values, then row splits."""
        return [self.flat_values, *self.nested_row_splits]

    def _nest_rebuild(self, parts: list):
        return RaggedTensor.from_nested_row_splits(parts[0], parts[1:], validate=False)

    def __repr__(self):
        with np.printoptions(formatter={"all": _formatter}):
            return f"<tf.RaggedTensor {_formatter(self.numpy())}>"

    __str__ = __repr__


@public("RaggedTensorSpec")
class RaggedTensorSpec:
    """The type of a RaggedTensor: shape (ragged dimensions None), dtype, ragged rank."""

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=dtypes.int64,
                 flat_values_spec=None):
        self.shape, self.dtype = TensorShape(shape), dtypes.as_dtype(dtype)
        rank = self.shape.rank
        self.ragged_rank = (rank - 1 if rank is not None else 1) if ragged_rank is None else ragged_rank
        self.row_splits_dtype = dtypes.as_dtype(row_splits_dtype)

    value_type = RaggedTensor

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

    def __repr__(self):
        return f"RaggedTensorSpec({self.shape!r}, {self.dtype!r}, {self.ragged_rank}, {self.row_splits_dtype!r})"


def _unpadded(row, pad) -> int:
    """A row's length without its trailing padding."""
    n = len(row)
    while n and np.all(row[n - 1] == pad):
        n -= 1
    return n


def _take(values, start: int, stop: int):
    """Rows ``start:stop`` of a ragged tensor's values (a Tensor's, or a RaggedTensor's rows)."""
    if isinstance(values, RaggedTensor):
        return values[start:stop]
    return constant(values.numpy()[start:stop], values.dtype)


def _from_rows(rows: list, like):
    """Rows (Tensors or RaggedTensors) as one RaggedTensor; scalars as one dense Tensor."""
    if rows and not isinstance(rows[0], RaggedTensor) and rows[0].shape.rank == 0:
        return constant(np.array([r.numpy() for r in rows]), rows[0].dtype)
    if isinstance(like, RaggedTensor):
        inner = _concat_rows(rows) if rows else like[0:0]
    else:
        arrays = [r.numpy() for r in rows]
        sample = like.numpy()
        inner = constant(np.concatenate(arrays) if arrays else sample[:0], like.dtype)
    return RaggedTensor.from_row_lengths(inner, [len(r) for r in rows])


def _concat_rows(parts: list) -> RaggedTensor:
    """RaggedTensors stacked along their rows (axis 0)."""
    splits, offset = [np.zeros(1, np.int64)], 0
    for part in parts:
        own = part.row_splits.numpy()
        splits.append(own[1:] - own[0] + offset)
        offset += int(own[-1] - own[0])
    values = [_take(p.values, int(p.row_splits.numpy()[0]), int(p.row_splits.numpy()[-1])) for p in parts]
    if isinstance(values[0], RaggedTensor):
        inner = _concat_rows(values)
    else:
        inner = constant(np.concatenate([v.numpy() for v in values]), values[0].dtype)
    return RaggedTensor(inner, np.concatenate(splits))


def _bounds(rt) -> list:
    """The bounding shape: rows, the longest row at each ragged dimension, the inner dims."""
    dims = [rt.nrows_value()]
    while isinstance(rt, RaggedTensor):
        dims.append(int(np.diff(rt.row_splits.numpy()).max(initial=0)))
        rt = rt.values
    return dims + list(rt.shape)[1:]


def _positions(rt) -> list:
    """The index (up to the inner dims) of every flat value's row, in order."""
    index = [(i,) for i in range(rt.nrows_value())]
    while isinstance(rt, RaggedTensor):
        splits = rt.row_splits.numpy()
        index = [index[r] + (j,) for r in range(len(splits) - 1) for j in range(splits[r + 1] - splits[r])]
        rt = rt.values
    return index
