"""String ops: CPU-only, as in TensorFlow (strings never live on a GPU)."""

from __future__ import annotations

import re

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from .. import shapes
from ..declare import op, public, unary
from .farmhash import fingerprint64


def _as_string(xp, x, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    """TensorFlow's AsString: C's printf ``%f`` (``%e`` scientific, ``%g`` shortest) for floats,
    ``(re,im)`` for complex, ``%d`` for ints, ``true``/``false`` for bools."""
    head = "%" + fill + (str(width) if width > -1 else "") + (f".{precision}" if precision > -1 else "")
    real = head + ("e" if scientific else "g" if shortest else "f")
    kind = np.asarray(x).dtype.kind

    def text(v):
        if kind == "b":
            return "true" if v else "false"
        if kind == "c":
            return f"({real % v.real},{real % v.imag})"
        return (head + "d") % int(v) if kind in "iu" else real % float(v)

    flat = [text(v).encode() for v in np.asarray(x).reshape(-1).tolist()]
    return np.array(flat, dtype=object).reshape(np.shape(x))


op("AsString", _as_string, None, shape=shapes.to_string, devices=(CPU,))


@public("strings.as_string", "as_string", "dtypes.as_string")
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    from ..declare import as_tensor

    given = (("precision", int(precision), -1), ("scientific", scientific, False), ("shortest", shortest, False),
             ("width", int(width), -1), ("fill", fill, ""))
    attrs = {key: value for key, value, default in given if value != default}
    return execute("AsString", (as_tensor(input),), attrs or None, name=name)


# -- tf.strings: elementwise on arrays of bytes, CPU-only ------------------------------------------

def _each(fn, out_dtype=object):
    """A kernel applying ``fn`` to every bytes element."""
    def kernel(xp, x, **attrs):
        values = [fn(v, **attrs) for v in np.asarray(x, dtype=object).reshape(-1).tolist()]
        return np.array(values, dtype=out_dtype).reshape(np.shape(x))
    return kernel


def _length(v, unit="BYTE"):
    return len(v.decode("utf-8", "replace")) if unit == "UTF8_CHAR" else len(v)


def _to_number(v, out_type="float32"):
    try:
        return float(v) if dtypes.as_dtype(out_type).is_floating else int(v)
    except ValueError:
        raise ValueError(f"StringToNumberOp could not correctly convert string: {v.decode(errors='replace')}") from None


def _substr(v, pos=0, len=1, unit="BYTE"):  # noqa: A002 (TensorFlow's attr name)
    if unit == "UTF8_CHAR":  # positions and lengths count characters, not bytes
        return v.decode("utf-8", "replace")[pos:pos + len].encode("utf-8")
    return v[pos:pos + len]


op("StringLength", _each(_length, np.int32), {CPU: {"string"}}, devices=(CPU,),
   shape=lambda name, shapes_, attrs, dtype: (dtypes.int32, shapes_[0]))
def _case(v, change, encoding=""):
    """``encoding`` "utf-8": Unicode case mapping; "" (TensorFlow's default): ASCII letters only."""
    if encoding == "":
        return change(v)
    if encoding != "utf-8":
        raise ValueError(f"only utf-8 or '' (no encoding) is supported, received {encoding}")
    return change(v.decode("utf-8", "replace")).encode("utf-8")


op("StringUpper", _each(lambda v, encoding="": _case(v, lambda s: s.upper(), encoding)), {CPU: {"string"}},
   devices=(CPU,), shape=shapes.same)
op("StringLower", _each(lambda v, encoding="": _case(v, lambda s: s.lower(), encoding)), {CPU: {"string"}},
   devices=(CPU,), shape=shapes.same)
op("StringStrip", _each(lambda v: v.strip()), {CPU: {"string"}}, devices=(CPU,), shape=shapes.same)
op("Substr", _each(_substr), {CPU: {"string"}}, devices=(CPU,), shape=shapes.same)
op("StaticRegexReplace", _each(lambda v, pattern="", rewrite="", replace_global=True: re.sub(
    pattern.encode(), rewrite.encode(), v, count=0 if replace_global else 1)), {CPU: {"string"}}, devices=(CPU,),
   shape=shapes.same)
op("StaticRegexFullMatch", _each(lambda v, pattern="": re.fullmatch(pattern.encode(), v) is not None, np.bool_),
   {CPU: {"string"}}, devices=(CPU,), shape=shapes.same_bool)
op("StringToNumber", lambda xp, x, out_type="float32": _each(_to_number)(xp, x, out_type=out_type).astype(
    dtypes.as_dtype(out_type).np), {CPU: {"string"}}, devices=(CPU,),
   shape=lambda name, shapes_, attrs, dtype: (dtypes.as_dtype(attrs.get("out_type", "float32")), shapes_[0]))
op("StringJoin", lambda xp, *xs, separator="": np.array(
    [separator.encode().join(parts) for parts in zip(*[np.broadcast_to(np.asarray(x, object), np.broadcast_shapes(
        *[np.shape(y) for y in xs])).reshape(-1) for x in xs])], dtype=object).reshape(
    np.broadcast_shapes(*[np.shape(y) for y in xs])), {CPU: {"string"}}, devices=(CPU,), number_attr="N")
op("StringToHashBucketFast", _each(lambda v, num_buckets=1: fingerprint64(v) % num_buckets, np.int64),
   {CPU: {"string"}}, devices=(CPU,), shape=lambda name, shapes_, attrs, dtype: (dtypes.int64, shapes_[0]))
def _reduce_join(xp, x, reduction_indices=None, keep_dims=False, separator=""):
    """Join along the axes (all when none are given), in row-major order of the rest."""
    x = np.asarray(x, object)
    axes = tuple(range(x.ndim)) if reduction_indices is None else tuple(
        int(a) % x.ndim for a in np.atleast_1d(reduction_indices))
    kept = [d for d in range(x.ndim) if d not in axes]
    moved = np.transpose(x, kept + list(axes)).reshape([x.shape[d] for d in kept] + [-1])
    out = np.empty(moved.shape[:-1], object)
    for index in np.ndindex(out.shape):
        out[index] = separator.encode().join(moved[index])
    return out.reshape([1 if d in axes else x.shape[d] for d in range(x.ndim)]) if keep_dims else out


op("ReduceJoin", _reduce_join, {CPU: {"string"}}, devices=(CPU,), host_args={"reduction_indices": "reduction_indices"})


def _string(x):
    """A string op's input; a Python value goes down TensorFlow's slow path (its errors: no `` name: ``)."""
    if isinstance(x, Tensor):
        return x
    out = constant(x, dtypes.string)
    context().list_arg_seq = context().trace._seq
    return out


def _public(name, op_type, **defaults):
    def fn(input, name=None, **kwargs):  # noqa: A002 (TensorFlow's name)
        attrs = dict(defaults, **{k: v for k, v in kwargs.items() if k in defaults})
        return execute(op_type, (_string(input),), attrs or None, name=name, dtype=dtypes.string)
    fn.__name__ = name
    return public(f"strings.{name}")(fn)


length = _public("length", "StringLength", unit="BYTE")
upper = _public("upper", "StringUpper", encoding="")
lower = _public("lower", "StringLower", encoding="")
strip = _public("strip", "StringStrip")


@public("strings.substr")
def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 (TensorFlow's names)
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"Value for attr 'unit' of \"{unit}\" is not in the list of allowed values: \"BYTE\", "
                         '"UTF8_CHAR"')
    attrs = {"pos": int(pos), "len": int(len)}
    if unit != "BYTE":
        attrs["unit"] = unit
    return execute("Substr", (_string(input),), attrs, name=name, dtype=dtypes.string)


@public("strings.regex_replace")
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    return execute("StaticRegexReplace", (_string(input),), {"pattern": pattern, "rewrite": rewrite.replace("\\", "\\\\"),
                                                             "replace_global": replace_global}, name=name,
                   dtype=dtypes.string)


@public("strings.regex_full_match")
def regex_full_match(input, pattern, name=None):  # noqa: A002
    return execute("StaticRegexFullMatch", (_string(input),), {"pattern": pattern}, name=name, dtype=dtypes.string)


@public("strings.to_number")
def to_number(input, out_type=dtypes.float32, name=None):  # noqa: A002
    return execute("StringToNumber", (_string(input),), {"out_type": dtypes.as_dtype(out_type).name}, name=name,
                   dtype=dtypes.string)


@public("strings.to_hash_bucket_fast")
def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """FarmHash's 64-bit fingerprint of each string, modulo ``num_buckets``, as TensorFlow's kernel."""
    return execute("StringToHashBucketFast", (_string(input),), {"num_buckets": int(num_buckets)}, name=name,
                   dtype=dtypes.string)


@public("strings.join")
def join(inputs, separator="", name=None):
    return execute("StringJoin", tuple(_string(x) for x in inputs), {"separator": separator}, name=name,
                   dtype=dtypes.string)


@public("strings.reduce_join")
def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    attrs = {"separator": separator, "keep_dims": bool(keepdims),
             "reduction_indices": None if axis is None else [int(a) for a in np.atleast_1d(axis)]}
    return execute("ReduceJoin", (_string(inputs),), attrs, name=name, dtype=dtypes.string)


@public("strings.format")
def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001 (TensorFlow's name)
    tensors = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    return execute("StringFormat", tuple(_string(t) if not isinstance(t, Tensor) else t for t in tensors),
                   {"template": template, "placeholder": placeholder, "summarize": int(summarize)}, name=name,
                   dtype=None)


def _each_row(fn, input, row_dtype):  # noqa: A002
    """``fn`` on each string: one row each of a RaggedTensor (a 0-d input: one row, as a Tensor)."""
    from ..ragged.ragged_ops import ragged_constant  # strings sits below ragged
    value = _string(input).numpy()
    if np.ndim(value) == 0:
        return constant(np.array(fn(value), dtype=row_dtype.np), row_dtype)
    return ragged_constant([fn(v) for v in value.reshape(-1).tolist()], row_dtype, ragged_rank=1)


@public("strings.bytes_split")
def bytes_split(input, name=None):  # noqa: A002
    return _each_row(lambda v: [bytes([b]) for b in v], input, dtypes.string)


@public("strings.unicode_decode")
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533, replace_control_characters=False,
                   name=None):  # noqa: A002
    return _each_row(lambda v: [ord(c) for c in v.decode(_codec(input_encoding), errors)], input, dtypes.int32)


@public("strings.unicode_split")
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    codec = _codec(input_encoding)
    return _each_row(lambda v: [c.encode(codec) for c in v.decode(codec, errors)], input, dtypes.string)


def _codec(encoding: str) -> str:
    """ICU's encoding names as Python's codecs (``UTF-16-BE``, ``US ASCII``)."""
    return encoding.lower().replace(" ", "-").replace("us-ascii", "ascii")


def _decode_raw(xp, x, out_type="uint8", little_endian=True):
    """Each string's bytes as ``out_type`` numbers (TensorFlow's DecodeRaw: all strings of one length)."""
    dtype = np.dtype(dtypes.as_dtype(out_type).np).newbyteorder("<" if little_endian else ">")
    rows = [np.frombuffer(v, dtype) for v in np.asarray(x, dtype=object).reshape(-1).tolist()]
    width = len(rows[0]) if rows else 0
    return np.array(rows, dtype=dtypes.as_dtype(out_type).np).reshape(np.shape(x) + (width,))


op("DecodeRaw", _decode_raw, {CPU: {"string"}}, devices=(CPU,))


@public("io.decode_raw")
def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    if fixed_length is not None:
        from ..io.io_ops import decode_padded_raw

        return decode_padded_raw(input_bytes, fixed_length, out_type, little_endian, name=name)
    return execute("DecodeRaw", (_string(input_bytes),), {"out_type": dtypes.as_dtype(out_type).name,
                                                          "little_endian": bool(little_endian)}, name=name,
                   dtype=dtypes.string)
