"""``tf.image.decode_jxl`` (``DecodeJxl``): TensorFlow 2.21 decodes JPEG XL and, like
``decode_image``, JPEG, PNG, GIF, BMP and WebP. devtrace has no JPEG XL decoder among its
dependencies (Pillow reads no JPEG XL): a JPEG XL image fails in one line saying so; the other
formats decode as ``DecodeJpeg``/``DecodeImage`` decode them (one frame, 3-D)."""

from __future__ import annotations

from ...errors import InvalidArgumentError, UnimplementedError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.context import context
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ..declare import as_tensor, op, public
from .codec_ops import _bytes, _pillow, decode_image_kernel, decode_jpeg_kernel

_CODESTREAM, _CONTAINER = b"\xff\x0a", b"\x00\x00\x00\x0cJXL \r\n\x87\n"
SIGNATURE = ("Op<name=DecodeJxl; signature=contents:string -> image:dtype; attr=channels:int,default=0; "
             "attr=dtype:type,default=DT_UINT8,allowed=[DT_UINT8]>")


class _NoJxlDecoder(ValueError):
    error_class = UnimplementedError


def decode_jxl_kernel(xp, contents, channels=0, dtype="uint8"):
    data = _bytes(xp, contents)
    if not data:
        raise ValueError("Input is empty.")
    if data.startswith(_CODESTREAM) or data.startswith(_CONTAINER):
        raise _NoJxlDecoder("devtrace does not implement decoding JPEG XL images yet")
    if data.startswith(b"\xff\xd8"):
        if int(channels) == 4:
            raise ValueError("JPEG does not support 4 channels")
        return decode_jpeg_kernel(xp, contents, channels)
    if int(channels) == 1:  # TensorFlow's JPEG XL path keeps the first channel, not the luminance
        return decode_image_kernel(xp, contents, 0, dtype, expand_animations=False)[..., :1]
    return decode_image_kernel(xp, contents, channels, dtype, expand_animations=False)


op("DecodeJxl", decode_jxl_kernel, ("string",), devices=(CPU,))


@public("image.decode_jxl", "io.decode_jxl")
def decode_jxl(contents, channels=0, dtype=dtypes.uint8, name=None):
    dtype = dtypes.as_dtype(dtype)
    if dtype is not dtypes.uint8:
        raise InvalidArgumentError(f"Value for attr 'dtype' of {dtype.c_name} is not in the list of allowed values: "
                                   f"uint8\n\t; NodeDef: {{{{node DecodeJxl}}}}; {SIGNATURE} [Op:DecodeJxl]"
                                   + (f" name: {name or ''}" if isinstance(contents, Tensor) else ""))
    _pillow()
    python_value = not isinstance(contents, Tensor)
    contents = as_tensor(contents)
    if python_value:  # TensorFlow's generated function takes a Python value down its slow path (no " name:")
        ctx = context()
        ctx.list_arg_seq = ctx.trace._seq
    return execute("DecodeJxl", (contents,), {"channels": int(channels), "dtype": "uint8"}, name=name)
