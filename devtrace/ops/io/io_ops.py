"""``tf.io``'s ops on bytes and files, CPU-only as in TensorFlow (strings never live on a GPU):
``ReadFile``/``WriteFile``, ``MatchingFiles``, ``SerializeTensor``/``ParseTensor`` (a
``TensorProto`` as TensorFlow writes it: dtype, shape, ``tensor_content`` — ``string_val`` for
strings), ``EncodeBase64``/``DecodeBase64`` (web-safe alphabet) and ``DecodePaddedRaw``."""

from __future__ import annotations

import base64
import glob
import os

import numpy as np

from ...errors import InvalidArgumentError, NotFoundError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from .. import shapes
from ..declare import op, public
from . import wire


def _string(x):
    return x if isinstance(x, Tensor) else constant(x, dtypes.string)


def _scalar_bytes(x) -> bytes:
    value = np.asarray(x, dtype=object).reshape(-1)[0]
    return value if isinstance(value, bytes) else str(value).encode()


def _read_file(xp, filename):
    path = _scalar_bytes(filename).decode()
    try:
        with open(path, "rb") as f:
            return np.asarray(f.read(), dtype=object)
    except (FileNotFoundError, IsADirectoryError):
        raise NotFoundError(f"{path}; No such file or directory") from None


def _write_file(xp, filename, contents):
    path = _scalar_bytes(filename).decode()
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(_scalar_bytes(contents))
    return np.zeros((0,), np.float32)


def _matching_files(xp, pattern):
    found = sorted({m for p in np.asarray(pattern, dtype=object).reshape(-1).tolist()
                    for m in glob.glob(p.decode() if isinstance(p, bytes) else str(p))})
    if not found:
        raise NotFoundError(f"Couldn't find any files matching {pattern!r}")
    return np.array([m.encode() for m in found], dtype=object)


def _serialize_tensor(xp, x, dtype_name="float32"):
    dtype = dtypes.as_dtype(dtype_name)
    array = np.asarray(x)
    shape = b"".join(wire.delimited(2, wire.tag(1, wire.VARINT) + wire.varint(d) if d else b"")
                     for d in array.shape)
    out = wire.tag(1, wire.VARINT) + wire.varint(dtype.as_datatype_enum) + wire.delimited(2, shape)
    if dtype == dtypes.string:
        out += b"".join(wire.delimited(8, v if isinstance(v, bytes) else str(v).encode())
                        for v in array.reshape(-1).tolist())
    elif array.size:  # proto3: an empty tensor_content is not written
        out += wire.delimited(4, np.ascontiguousarray(array, dtype.np).astype(np.dtype(dtype.np).newbyteorder("<"))
                              .tobytes())
    return np.asarray(out, dtype=object)


def _parse_tensor(xp, serialized, out_type="float32"):
    data = _scalar_bytes(serialized)
    dtype_enum, dims, content, strings = None, [], None, []
    for field, _, value in wire.fields(data):
        if field == 1:
            dtype_enum = value
        elif field == 2:
            for g, _, dim in wire.fields(value):
                if g == 2:
                    dims.append(next((v for f, _, v in wire.fields(dim) if f == 1), 0))
        elif field == 4:
            content = value
        elif field == 8:
            strings.append(value)
    want = dtypes.as_dtype(out_type)
    if dtype_enum != want.as_datatype_enum:
        got = dtypes.as_dtype(dtype_enum)
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({got.name}) and dtype ({want.name})")
    if want == dtypes.string:
        return np.array(strings, dtype=object).reshape(dims)
    return np.frombuffer(content or b"", np.dtype(want.np).newbyteorder("<")).astype(want.np).reshape(dims)


def _encode_base64(xp, x, pad=False):
    def one(v):
        out = base64.urlsafe_b64encode(v)
        return out if pad else out.rstrip(b"=")
    return np.array([one(v) for v in np.asarray(x, dtype=object).reshape(-1).tolist()],
                    dtype=object).reshape(np.shape(x))


def _decode_base64(xp, x):
    def one(v):
        try:
            return base64.urlsafe_b64decode(v + b"=" * (-len(v) % 4))
        except ValueError:
            raise InvalidArgumentError(f"Invalid character found in base64.") from None
    return np.array([one(v) for v in np.asarray(x, dtype=object).reshape(-1).tolist()],
                    dtype=object).reshape(np.shape(x))


def _decode_padded_raw(xp, x, fixed_length=0, out_type="uint8", little_endian=True):
    dtype = np.dtype(dtypes.as_dtype(out_type).np).newbyteorder("<" if little_endian else ">")
    width = int(fixed_length) // dtype.itemsize
    rows = [np.frombuffer(v[:width * dtype.itemsize].ljust(width * dtype.itemsize, b"\0"), dtype)
            for v in np.asarray(x, dtype=object).reshape(-1).tolist()]
    return np.array(rows, dtype=dtypes.as_dtype(out_type).np).reshape(np.shape(x) + (width,))


def _scalar_string(name, shapes_, attrs, dtype):
    return dtypes.string, ()


op("ReadFile", _read_file, {CPU: {"string"}}, devices=(CPU,), shape=_scalar_string, stateful=True)
op("WriteFile", _write_file, {CPU: {"string"}}, devices=(CPU,), stateful=True,
   shape=lambda name, s, attrs, dtype: (dtypes.float32, (0,)))
op("MatchingFiles", _matching_files, {CPU: {"string"}}, devices=(CPU,), stateful=True,
   shape=lambda name, s, attrs, dtype: (dtypes.string, (None,)))
op("SerializeTensor", _serialize_tensor, None, devices=(CPU,), shape=_scalar_string)
op("ParseTensor", _parse_tensor, {CPU: {"string"}}, devices=(CPU,),
   shape=lambda name, s, attrs, dtype: (dtypes.as_dtype(attrs["out_type"]), None))
op("EncodeBase64", _encode_base64, {CPU: {"string"}}, devices=(CPU,), shape=shapes.same)
op("DecodeBase64", _decode_base64, {CPU: {"string"}}, devices=(CPU,), shape=shapes.same)
op("DecodePaddedRaw", _decode_padded_raw, {CPU: {"string"}}, devices=(CPU,), mixed_dtypes=True,
   shape=lambda name, s, attrs, dtype: (dtypes.as_dtype(attrs["out_type"]), None))


@public("io.read_file", "compat.v1.read_file")
def read_file(filename, name=None):
    return execute("ReadFile", (_string(filename),), None, name=name, dtype=dtypes.string)


@public("io.write_file", "compat.v1.write_file")
def write_file(filename, contents, name=None):
    execute("WriteFile", (_string(filename), _string(contents)), None, name=name, dtype=dtypes.string)


@public("io.matching_files")
def matching_files(pattern, name=None):
    return execute("MatchingFiles", (_string(pattern),), None, name=name, dtype=dtypes.string)


@public("io.serialize_tensor")
def serialize_tensor(tensor, name=None):
    from ..declare import as_tensor

    tensor = as_tensor(tensor)
    return execute("SerializeTensor", (tensor,), {"dtype_name": tensor.dtype.name}, name=name, dtype=tensor.dtype)


@public("io.parse_tensor")
def parse_tensor(serialized, out_type, name=None):
    return execute("ParseTensor", (_string(serialized),), {"out_type": dtypes.as_dtype(out_type).name}, name=name,
                   dtype=dtypes.string)


@public("io.encode_base64")
def encode_base64(input, pad=False, name=None):  # noqa: A002 (TensorFlow's name)
    return execute("EncodeBase64", (_string(input),), {"pad": bool(pad)}, name=name, dtype=dtypes.string)


@public("io.decode_base64")
def decode_base64(input, name=None):  # noqa: A002
    return execute("DecodeBase64", (_string(input),), None, name=name, dtype=dtypes.string)


def decode_padded_raw(input_bytes, fixed_length, out_type, little_endian=True, name=None):
    return execute("DecodePaddedRaw", (_string(input_bytes),), {
        "fixed_length": int(fixed_length), "out_type": dtypes.as_dtype(out_type).name,
        "little_endian": bool(little_endian)}, name=name, dtype=dtypes.string)


@public("io.match_filenames_once")
def match_filenames_once(pattern, name=None):
    """A variable holding the files matching ``pattern`` (matched once, when it is made)."""
    from ...runtime.eager.variables import Variable

    return Variable(matching_files(pattern), trainable=False, name=name)
