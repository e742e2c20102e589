"""``tf.data.experimental.CsvDataset``, ``make_csv_dataset`` and ``SqlDataset``: records of CSV
files (Python's ``csv`` reader) and of SQLite queries (``sqlite3``), each field as a host array of
its column's dtype, as the other readers' elements are."""

from __future__ import annotations

import collections
import csv
import io
import sqlite3

import numpy as np

from ..errors import InvalidArgumentError
from ..ops.io import tfrecord
from ..polymorphic_function.function import TensorSpec
from ..runtime import dtypes
from ..runtime.tensor import Tensor
from . import _readers as readers


def _column(default):
    """``(dtype, default value or None)`` of a ``record_defaults`` entry (a dtype: required)."""
    if isinstance(default, Tensor):
        values = default.numpy().reshape(-1)
        return default.dtype, (values[0] if values.size else None)
    if isinstance(default, dtypes.DType):
        return default, None
    value = np.asarray(default)
    values = value.reshape(-1)
    kind = dtypes.string if value.dtype.kind in "SUO" else dtypes.as_dtype(
        {"i": "int32", "f": "float32", "b": "bool"}.get(value.dtype.kind, value.dtype.name))
    return kind, (values[0] if values.size else None)


def _parse(text: str, dtype, default, index: int, na_value: str):
    if text == "" or text == na_value:
        if default is None:
            raise InvalidArgumentError(f"Field {index} is required but missing in record!")
        return np.asarray(default, object if dtype is dtypes.string else dtype.as_numpy_dtype)
    if dtype is dtypes.string:
        return np.asarray(text.encode(), object)
    try:
        return np.asarray(float(text) if dtype.is_floating else int(text), dtype.as_numpy_dtype)
    except ValueError:
        raise InvalidArgumentError(f"Field {index} in record is not a valid {dtype.name}: {text}") from None


def _rows(filenames, compression_type, header, field_delim, use_quote_delim):
    for name in filenames:
        with tfrecord.open_for_reading(name.decode(), compression_type) as f:
            text = f.read().decode()
        reader = csv.reader(io.StringIO(text), delimiter=field_delim,
                            quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)
        rows = list(reader)
        yield from rows[1:] if header else rows


def csv_dataset(Dataset, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,  # noqa: N803
                field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None):
    """``tf.data.experimental.CsvDataset``'s elements: a tuple of scalars a record."""
    if select_cols is not None and exclude_cols is not None:
        raise ValueError("Either select_cols or exclude_cols should be specified, but not both.")
    columns = [_column(d) for d in record_defaults]
    names = readers.filenames_of(filenames)

    def source():
        for row in _rows(names, compression_type, header, field_delim, use_quote_delim):
            if select_cols is not None:
                row = [row[i] if i < len(row) else "" for i in select_cols]
            elif exclude_cols is not None:
                row = [v for i, v in enumerate(row) if i not in set(exclude_cols)]
            if len(row) != len(columns):
                raise InvalidArgumentError(f"Expect {len(columns)} fields but have {len(row)} in record")
            yield tuple(_parse(text, dtype, default, i, na_value)
                        for i, (text, (dtype, default)) in enumerate(zip(row, columns)))
    return Dataset(source, tuple(TensorSpec((), dtype) for dtype, _ in columns), -2, "CSVDatasetV2")


def _infer(values: list):
    """A column's dtype from its values, as ``make_csv_dataset`` infers it (int32, float32, string)."""
    kind = dtypes.int32
    for v in values:
        if v == "":
            continue
        try:
            int(v)
            continue
        except ValueError:
            pass
        try:
            float(v)
            kind = dtypes.float32
        except ValueError:
            return dtypes.string
    return kind


def make_csv_dataset(Dataset, file_pattern, batch_size, column_names=None, column_defaults=None,  # noqa: N803
                     label_name=None, select_columns=None, field_delim=",", use_quote_delim=True, na_value="",
                     header=True, num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    """``tf.data.experimental.make_csv_dataset``: batches of ``{column: values}`` (and the label)."""
    from ..platform import gfile

    names = [n.encode() for n in gfile.glob(file_pattern)] if isinstance(file_pattern, str) else \
        readers.filenames_of(file_pattern)
    rows = list(_rows(names[:1], compression_type, False, field_delim, use_quote_delim))
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        column_names = rows[0]
    body = rows[1:] if header else rows
    if column_defaults is None:
        sample = body[:num_rows_for_inference]
        column_defaults = [_infer([r[i] for r in sample if i < len(r)]) for i in range(len(column_names))]
        column_defaults = [np.asarray("" if d is dtypes.string else 0, object if d is dtypes.string else
                                      d.as_numpy_dtype) for d in column_defaults]
    indices = list(range(len(column_names)))
    if select_columns is not None:
        indices = [column_names.index(c) if isinstance(c, str) else c for c in select_columns]
        column_defaults = [column_defaults[i] for i in indices] if len(column_defaults) == len(column_names) \
            else column_defaults
    selected = [column_names[i] for i in indices]
    dataset = csv_dataset(Dataset, names, column_defaults, compression_type, header=header, field_delim=field_delim,
                          use_quote_delim=use_quote_delim, na_value=na_value,
                          select_cols=indices if select_columns is not None else None)

    def to_dict(*values):
        features = collections.OrderedDict(zip(selected, values))
        if label_name is None:
            return features
        if label_name not in features:
            raise ValueError(f"`label_name` provided must be one of the columns: {selected}. Received: {label_name}")
        label = features.pop(label_name)
        return features, label
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    return dataset.batch(batch_size).map(to_dict)


def sql_dataset(Dataset, driver_name, data_source_name, query, output_types):  # noqa: N803
    """``tf.data.experimental.SqlDataset``: the rows of a SQLite query."""
    if driver_name != "sqlite":
        raise InvalidArgumentError(f"The database type, {driver_name}, is not supported by SqlDataset. The set of "
                                   "supported databases is: {'sqlite'}.")
    kinds = [dtypes.as_dtype(t) for t in (output_types if isinstance(output_types, (list, tuple)) else
                                          (output_types,))]

    def source():
        connection = sqlite3.connect(data_source_name)
        try:
            for row in connection.execute(query):
                yield tuple(np.asarray(str(v).encode() if k is dtypes.string else v,
                                       object if k is dtypes.string else k.as_numpy_dtype) for v, k in zip(row, kinds))
        finally:
            connection.close()
    spec = tuple(TensorSpec((), k) for k in kinds)
    return Dataset(source, spec if isinstance(output_types, (list, tuple)) else spec[0], -2, "SqlDataset")
