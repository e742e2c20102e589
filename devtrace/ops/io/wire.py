"""The protocol-buffer wire format, the little of it ``tf.train.Example`` and ``TensorProto`` use:
varints, length-delimited fields, fixed 32-bit floats, packed repeated fields; and the text
format's escapes and floats as TensorFlow's protobuf (upb) prints them."""

from __future__ import annotations

import struct

import numpy as np

VARINT, FIXED64, DELIMITED, FIXED32 = 0, 1, 2, 5


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # a negative int64 is its two's complement: ten bytes
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tag(field: int, wire_type: int) -> bytes:
    return varint(field << 3 | wire_type)


def delimited(field: int, payload: bytes) -> bytes:
    return tag(field, DELIMITED) + varint(len(payload)) + payload


def read_varint(data: bytes, at: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        if at >= len(data):
            raise DecodeError("Truncated message.")
        byte = data[at]
        at += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, at
        shift += 7


def signed64(n: int) -> int:
    return n - (1 << 64) if n >= 1 << 63 else n


class DecodeError(Exception):
    """``google.protobuf.message.DecodeError``'s role: bytes that are no such message."""


def fields(data: bytes):
    """``(field number, wire type, value)`` of each field: an int, or the bytes of a delimited/fixed one."""
    at = 0
    while at < len(data):
        key, at = read_varint(data, at)
        field, kind = key >> 3, key & 7
        if kind == VARINT:
            value, at = read_varint(data, at)
        elif kind == DELIMITED:
            size, at = read_varint(data, at)
            if at + size > len(data):
                raise DecodeError("Truncated message.")
            value, at = data[at:at + size], at + size
        elif kind == FIXED32:
            value, at = data[at:at + 4], at + 4
        elif kind == FIXED64:
            value, at = data[at:at + 8], at + 8
        else:
            raise DecodeError("Error parsing message")
        yield field, kind, value


def packed_floats(values) -> bytes:
    return np.asarray(values, "<f4").tobytes()


def unpack_floats(payload: bytes) -> list[float]:
    return [float(v) for v in np.frombuffer(payload, "<f4")]


def unpack_varints(payload: bytes) -> list[int]:
    out, at = [], 0
    while at < len(payload):
        value, at = read_varint(payload, at)
        out.append(signed64(value))
    return out


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'", ord("\\"): "\\\\"}


def text_bytes(value: bytes) -> str:
    """A bytes field in the text format: C escapes, octal for what is not printable ASCII."""
    return '"' + "".join(_ESCAPES.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}") for b in value) + '"'


def text_float(value: float) -> str:
    """A float field as upb prints it: 6 significant digits if they read back as the same float32, else 9."""
    v = np.float32(value)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    short = f"{float(v):.6g}"
    return short if np.float32(short) == v else f"{float(v):.9g}"


def fixed32_float(value: float) -> bytes:
    return struct.pack("<f", value)


def text_double(value: float) -> str:
    """A double field as upb prints it: 15 significant digits if they read back as the same double, else 17."""
    if value != value:
        return "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    short = f"{value:.15g}"
    return short if float(short) == value else f"{value:.17g}"
