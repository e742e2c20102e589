"""``tf.experimental.StructuredTensor``: a tensor of records. Its fields (Tensors, RaggedTensors
or StructuredTensors) share its leading dimensions (``shape``); a dimension past the first is
ragged, described by a ``RowPartition``. Built from Python values (``from_pyval``) or fields
(``from_fields``), read by field name, path or row, and printed as TensorFlow prints it."""

from __future__ import annotations

import numpy as np

from ..ops.declare import API
from ..ops.ragged.ragged_shape import RowPartition
from ..ops.ragged.ragged_tensor import RaggedTensor
from ..runtime import dtypes
from ..runtime.tensor import Tensor
from ..runtime.tensor_shape import TensorShape
from ..runtime.values import constant, convert_to_tensor


def _is_records(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _depth(value) -> int:
    return 1 + _depth(value[0]) if isinstance(value, list) and value else int(isinstance(value, list))


def _nested_records(value) -> bool:
    """A list of lists (… of lists) whose leaves are records."""
    if not isinstance(value, list):
        return False
    items = [v for v in value]
    while items and all(isinstance(v, list) for v in items):
        items = [x for v in items for x in v]
    return bool(items) and all(isinstance(v, dict) for v in items) and any(isinstance(v, list) for v in value)


def _leaf(value, batched: bool):
    """A field's values: scalars and flat lists dense, deeper lists (or a batch of lists) ragged."""
    if isinstance(value, list) and not value:
        return constant(np.zeros((0,), np.float32))
    depth = _depth(value)
    if depth <= (1 if not batched else 1) or not isinstance(value, list):
        return constant(value)
    return API["ragged.constant"](value)


def _partition(value, splits):
    """A field's values (rows flattened) grouped into rows by ``splits``."""
    if isinstance(value, StructuredTensor):
        return value.partition_outer_dimension(RowPartition(splits))
    return RaggedTensor.from_row_splits(value, constant(np.asarray(splits, np.int64)))


class StructuredTensor:
    """``tf.experimental.StructuredTensor``."""

    def __init__(self, fields: dict, shape, row_partitions=()):
        self._fields = dict(fields)
        self._shape = TensorShape(shape)
        self._row_partitions = tuple(row_partitions)

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def from_pyval(cls, pyval, typespec=None):
        if isinstance(pyval, dict):
            return cls({k: cls._field(v) for k, v in pyval.items()}, ())
        if _nested_records(pyval):
            lengths = [len(row) for row in pyval]
            inner = cls.from_pyval([x for row in pyval for x in row])
            return inner.partition_outer_dimension(RowPartition.from_row_lengths(lengths))
        if _is_records(pyval):
            keys = list(dict.fromkeys(k for record in pyval for k in record))
            for record in pyval:  # every record has every field (TensorFlow's KeyError names the first missing)
                for k in keys:
                    if k not in record:
                        raise KeyError(k)
            fields = {}
            for k in keys:
                column = [record[k] for record in pyval]
                if all(isinstance(v, dict) for v in column) or _is_records(column[0]) or _nested_records(column):
                    fields[k] = cls.from_pyval(column)
                elif all(isinstance(v, list) and (not v or _is_records(v)) for v in column) and any(column):
                    fields[k] = cls.from_pyval(column)
                elif any(isinstance(v, list) for v in column):
                    fields[k] = API["ragged.constant"](column)
                else:
                    fields[k] = constant(column)
            return cls(fields, (len(pyval),))
        raise ValueError(f"devtrace does not implement tf.experimental.StructuredTensor.from_pyval of {pyval!r} yet")

    @classmethod
    def _field(cls, value):
        if isinstance(value, dict) or _is_records(value) or _nested_records(value):
            return cls.from_pyval(value)
        return _leaf(value, False)

    @classmethod
    def from_fields(cls, fields, shape=(), nrows=None, row_partitions=None, validate=False):
        shape = TensorShape(shape)
        out = {}
        for k, v in fields.items():
            out[k] = v if isinstance(v, (Tensor, RaggedTensor, StructuredTensor)) else convert_to_tensor(v)
        return cls(out, shape, row_partitions or ())

    @classmethod
    def from_fields_and_rank(cls, fields, rank, validate=False):
        if not fields:
            raise ValueError("Must provide at least one field")
        first = next(iter(fields.values()))
        first = first if isinstance(first, (Tensor, RaggedTensor, StructuredTensor)) else convert_to_tensor(first)
        return cls.from_fields(fields, tuple(first.shape)[:rank])

    def partition_outer_dimension(self, row_partition):
        """This tensor's rows grouped by ``row_partition``: one more (ragged) dimension."""
        splits = row_partition._splits
        fields = {k: _partition(v, splits) for k, v in self._fields.items()}
        return StructuredTensor(fields, (len(splits) - 1, None) + tuple(self._shape)[1:],
                                (row_partition,) + self._row_partitions)

    # -- reading -------------------------------------------------------------------------------
    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def rank(self) -> int:
        return self._shape.rank

    @property
    def row_partitions(self) -> tuple:
        return self._row_partitions

    def nrows(self):
        return constant(self._shape[0] if self.rank else 1, dtypes.int64)

    def field_names(self) -> tuple:
        return tuple(self._fields)

    def field_value(self, field_name):
        if isinstance(field_name, (tuple, list)):
            value = self
            for name in field_name:
                value = value.field_value(name)
            return value
        if field_name not in self._fields:
            raise KeyError(field_name)
        return self._fields[field_name]

    def __getitem__(self, key):
        if isinstance(key, str) or isinstance(key, tuple) and key and all(isinstance(k, str) for k in key):
            return self.field_value(key)
        if isinstance(key, int):
            if not self.rank:
                raise ValueError("Scalar StructuredTensor can not be indexed.")
            fields = {k: v[key] for k, v in self._fields.items()}
            if self.rank == 1:
                return StructuredTensor(fields, ())
            splits = self._row_partitions[0]._splits
            n = int(splits[key + 1] - splits[key]) if key >= 0 else int(np.diff(splits)[key])
            return StructuredTensor(fields, (n,) + tuple(self._shape)[2:], self._row_partitions[1:])
        raise TypeError(f"devtrace does not implement StructuredTensor indexing by {key!r} yet")

    def merge_dims(self, outer_axis, inner_axis):
        if (outer_axis, inner_axis) != (0, 1) or self.rank < 2:
            raise NotImplementedError("devtrace does not implement StructuredTensor.merge_dims but of axes 0 and 1 "
                                      "yet")
        fields = {k: v.merge_dims(0, 1) if isinstance(v, StructuredTensor) else v.values
                  for k, v in self._fields.items()}
        total = int(self._row_partitions[0]._splits[-1])
        return StructuredTensor(fields, (total,) + tuple(self._shape)[2:], self._row_partitions[1:])

    def promote(self, source_path, new_name):
        """The field at ``source_path`` also a field of this tensor, its inner dims merged into ours."""
        value = self.field_value(source_path)
        inner_rank = self.field_value(source_path[:-1]).rank if len(source_path) > 1 else self.rank
        while inner_rank > self.rank:
            value = value.merge_dims(self.rank, self.rank + 1) if isinstance(value, RaggedTensor) else \
                value.merge_dims(self.rank, self.rank + 1)
            inner_rank -= 1
        return self.with_updates({new_name: value})

    def with_updates(self, updates, validate=False):
        """A copy with fields replaced, added (a path's parents made) or transformed (a callable)."""
        out = StructuredTensor(self._fields, self._shape, self._row_partitions)
        for path, update in updates.items():
            path = (path,) if isinstance(path, str) else tuple(path)
            out = out._updated(path, update)
        return out

    def _updated(self, path, update):
        fields = dict(self._fields)
        head = path[0]
        if len(path) == 1:
            fields[head] = update(fields[head]) if callable(update) else update
        else:
            fields[head] = fields[head]._updated(path[1:], update)
        return StructuredTensor(fields, self._shape, self._row_partitions)

    def to_pyval(self):
        def py(value):
            if isinstance(value, StructuredTensor):
                return value.to_pyval()
            if isinstance(value, RaggedTensor):
                return value.to_list()
            return value.numpy().tolist()
        if not self.rank:
            return {k: py(v) for k, v in self._fields.items()}
        n = int(self._shape[0])
        return [self[i].to_pyval() for i in range(n)]

    def __repr__(self):
        return self._show(0)

    def _show(self, indent: int) -> str:
        pad = " " * indent
        lines = []
        for k in sorted(self._fields):
            v = self._fields[k]
            text = v._show(indent + 12) if isinstance(v, StructuredTensor) else repr(v) if isinstance(
                v, RaggedTensor) else str(v)
            lines.append(f'{pad}        "{k}": {text}')
        body = ",\n".join(lines)
        shape = tuple(self._shape)
        return (f"<StructuredTensor(\n{pad}    fields={{\n{body}}},\n{pad}    shape="
                f"{shape if len(shape) != 1 else f'({shape[0]},)'})>").replace("(None,)", "(None,)")
