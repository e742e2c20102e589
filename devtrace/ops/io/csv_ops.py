"""``tf.io.decode_csv`` (``DecodeCSV``: each record's fields parsed into one tensor per column,
an empty field taking its column's default) and ``tf.io.decode_compressed``
(``DecodeCompressed``: ZLIB or GZIP), CPU-only as in TensorFlow."""

from __future__ import annotations

import csv
import gzip
import zlib

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from .. import shapes
from ..declare import op, public

_CSV_TYPES = {"float32", "float64", "int32", "int64", "string"}


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _decode_csv(xp, records, *defaults, out_types=(), field_delim=",", use_quote_delim=True, na_value="",
                select_cols=()):
    records_arr = np.asarray(records, dtype=object)
    flat = records_arr.reshape(-1).tolist()
    columns = [[] for _ in defaults]
    kinds = [np.asarray(d).dtype for d in defaults]
    for r, record in enumerate(flat):
        row = next(csv.reader([_text(record)], delimiter=field_delim,
                              quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE), [""])
        if select_cols:
            row = [row[i] if i < len(row) else "" for i in select_cols]
        if len(row) != len(defaults):
            raise InvalidArgumentError(f"Expect {len(defaults)} fields but have {len(row)} in record {r}")
        for i, (text, default, kind) in enumerate(zip(row, defaults, kinds)):
            default = np.asarray(default).reshape(-1)
            if text == "" or text == na_value:
                if default.size == 0:
                    raise InvalidArgumentError(f"Field {i} is required but missing in record {r}!")
                columns[i].append(default[0])
            elif kind == object:
                columns[i].append(text.encode())
            else:
                try:
                    columns[i].append(float(text) if kind.kind == "f" else int(text))
                except ValueError:
                    name = dtypes.as_dtype(kind.name).name
                    raise InvalidArgumentError(f"Field {i} in record {r} is not a valid {name}: {text}") from None
    return tuple(np.asarray(col, dtype=kind).reshape(records_arr.shape) for col, kind in zip(columns, kinds))


def _decode_csv_shape(name, shapes_, attrs, dtype):
    return [(dtypes.as_dtype(t), shapes_[0]) for t in attrs["out_types"]], None


def _decode_compressed(xp, data, compression_type=""):
    def one(value: bytes) -> bytes:
        if compression_type == "":
            return value
        try:
            return zlib.decompress(value) if compression_type == "ZLIB" else gzip.decompress(value)
        except (zlib.error, OSError, EOFError):
            raise InvalidArgumentError("Invalid ZLIB data" if compression_type == "ZLIB" else
                                       "Invalid GZIP data") from None
    arr = np.asarray(data, dtype=object)
    return np.array([one(v) for v in arr.reshape(-1).tolist()], dtype=object).reshape(arr.shape)


op("DecodeCSV", _decode_csv, {CPU: _CSV_TYPES}, devices=(CPU,), shape=_decode_csv_shape, multi=True,
   mixed_dtypes=True)
op("DecodeCompressed", _decode_compressed, {CPU: {"string"}}, devices=(CPU,), shape=shapes.same)


def _default(value):
    """A ``record_defaults`` entry as a tensor (a list of one value, an empty one for a required field)."""
    if isinstance(value, Tensor):
        return value
    return constant(value)


@public("io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    records = records if isinstance(records, Tensor) else constant(records, dtypes.string)
    defaults = [_default(d) for d in record_defaults]
    return list(execute("DecodeCSV", (records, *defaults), {
        "out_types": [d.dtype.name for d in defaults], "field_delim": field_delim,
        "use_quote_delim": bool(use_quote_delim), "na_value": na_value,
        "select_cols": list(select_cols or ())}, name=name))


@public("io.decode_compressed")
def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 (TensorFlow's name)
    data = bytes if isinstance(bytes, Tensor) else constant(bytes, dtypes.string)
    return execute("DecodeCompressed", (data,), {"compression_type": compression_type or ""}, name=name,
                   dtype=dtypes.string)
