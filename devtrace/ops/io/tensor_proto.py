"""``TensorProto`` as ``tf.make_tensor_proto`` builds it and ``tf.make_ndarray`` reads it: dtype,
shape, and the values (``tensor_content`` for a numeric array, ``<type>_val`` for a scalar,
``string_val`` for strings); printed in protobuf's text format, serialized as ``SerializeTensor``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...runtime import dtypes
from . import io_ops

# the repeated field a scalar's value goes in, per dtype (TensorFlow's ``_TF_TO_IS_OK``/``_NP_TO_APPEND_FN``)
_SCALAR_FIELD = {"float16": "half_val", "bfloat16": "half_val", "float32": "float_val", "float64": "double_val",
                 "int8": "int_val", "int16": "int_val", "int32": "int_val", "uint8": "int_val", "uint16": "int_val",
                 "int64": "int64_val", "uint32": "uint32_val", "uint64": "uint64_val", "bool": "bool_val",
                 "complex64": "scomplex_val", "complex128": "dcomplex_val"}


def _escape(data: bytes) -> str:
    """Protobuf's C escaping of bytes in text format."""
    special = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5C: "\\\\"}
    return "".join(special.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}") for b in data)


@dataclass
class TensorProto:
    array: np.ndarray
    dtype_name: str

    @classmethod
    def from_array(cls, array) -> "TensorProto":
        array = np.asarray(array)
        name = "string" if array.dtype.kind in "OSU" else dtypes.as_dtype(array.dtype).name
        return cls(array, name)

    @property
    def dtype(self) -> int:
        return dtypes.as_dtype(self.dtype_name).as_datatype_enum

    def to_array(self) -> np.ndarray:
        if self.dtype_name == "string":
            return np.array([v if isinstance(v, bytes) else str(v).encode() for v in self.array.reshape(-1).tolist()],
                            dtype=object).reshape(self.array.shape)
        return np.array(self.array, dtypes.as_dtype(self.dtype_name).np)

    def SerializeToString(self) -> bytes:  # noqa: N802 (protobuf's name)
        return bytes(io_ops._serialize_tensor(np, self.to_array(), self.dtype_name)[()])

    def __str__(self) -> str:
        dt = dtypes.as_dtype(self.dtype_name)
        lines = [f"dtype: {dt.enum_name}", "tensor_shape {"]
        for d in self.array.shape:
            lines += ["  dim {", f"    size: {d}", "  }"]
        lines.append("}")
        if self.dtype_name == "string":
            lines += [f'string_val: "{_escape(v)}"' for v in self.to_array().reshape(-1).tolist()]
        elif self.array.ndim == 0:
            value = self.to_array()[()]
            shown = str(value).lower() if self.dtype_name == "bool" else (
                repr(float(value)) if dt.is_floating else str(int(value)))
            lines.append(f"{_SCALAR_FIELD.get(self.dtype_name, 'float_val')}: {shown}")
        elif self.array.size:
            data = np.ascontiguousarray(self.to_array()).astype(np.dtype(dt.np).newbyteorder("<")).tobytes()
            lines.append(f'tensor_content: "{_escape(data)}"')
        return "\n".join(lines) + "\n"

    __repr__ = __str__
