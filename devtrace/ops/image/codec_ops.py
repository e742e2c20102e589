"""``tf.io``/``tf.image``'s PNG and JPEG codecs (``DecodePng``, ``EncodePng``, ``DecodeJpeg``,
``EncodeJpeg``, ``EncodeJpegVariableQuality``, ``DecodeImage``): CPU-only ops, as TensorFlow's are,
whose kernels call Pillow — devtrace's optional ``image`` extra, imported when one runs."""

from __future__ import annotations

import io

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..declare import API, as_tensor, host_arg, op, public

_INSTALL = "pip install 'devtrace[image]'"


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"devtrace's image codecs need Pillow, which is not installed: {_INSTALL}") from None
    return Image


def _bytes(xp, contents):
    value = np.asarray(contents, dtype=object).reshape(-1)
    if value.size != 1:
        raise ValueError(f"contents must be scalar, got shape {list(np.shape(contents))}")
    return value[0]


def _scalar_string(data: bytes):
    out = np.empty((), object)
    out[()] = data
    return out


_UNKNOWN = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."


_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def _to_array(image, channels, dtype=np.uint8):
    """A decoded Pillow image as HWC ``dtype``: ``channels`` of them (0: as the file has them)."""
    if channels == 0:
        channels = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4, "I;16": 1, "I": 1, "P": 3 if "transparency" not in
                    image.info else 4, "1": 1, "CMYK": 3}.get(image.mode, 3)
    sixteen = image.mode in ("I;16", "I;16B", "I") and dtype == np.uint16
    if sixteen and channels == 1:
        array = np.asarray(image, dtype=np.uint16)
        return array[..., None]
    converted = image.convert(_MODES[channels])
    array = np.asarray(converted, dtype=np.uint8)
    if array.ndim == 2:
        array = array[..., None]
    if dtype == np.uint16:
        array = array.astype(np.uint16) * 257
    return array


def decode_png_kernel(xp, contents, channels=0, dtype="uint8"):
    Image = _pillow()
    try:
        image = Image.open(io.BytesIO(_bytes(xp, contents)))
        image.load()
    except Exception:
        raise ValueError(_UNKNOWN) from None
    return _to_array(image, int(channels), dtypes.as_dtype(dtype).np)


def _fast_idct(image, fancy_upscaling, dct_method):
    """Whether to decode as TensorFlow's default does (libjpeg's fast integer IDCT): Pillow's draft
    decoder (its ``decoderconfig`` flag) is that IDCT without fancy upsampling, the same values
    wherever the chroma is not upsampled (4:4:4, grayscale, at most one chroma sample a side) or
    ``fancy_upscaling=False``. Elsewhere (upsampled chroma) Pillow has no fast IDCT with fancy
    upsampling: devtrace decodes as ``dct_method="INTEGER_ACCURATE"`` does, which TensorFlow's
    default differs from by the fast IDCT's rounding (up to ~20 levels at quality 95+)."""
    if dct_method not in ("", "INTEGER_FAST"):
        return False
    if not fancy_upscaling:
        return True
    from PIL import JpegImagePlugin

    subsampled = JpegImagePlugin.get_sampling(image) not in (-1, 0)
    return not subsampled or (image.width <= 2 and image.height <= 2)


def decode_jpeg_kernel(xp, contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                       acceptable_fraction=1.0, dct_method=""):
    Image = _pillow()
    try:
        image = Image.open(io.BytesIO(_bytes(xp, contents)))
        if int(ratio) > 1:
            image.draft(image.mode, (image.width // int(ratio), image.height // int(ratio)))
        elif _fast_idct(image, fancy_upscaling, dct_method):
            image.decoderconfig = (1, 1)
        image.load()
    except Exception:
        raise ValueError(_UNKNOWN) from None
    return _to_array(image, int(channels))


def decode_image_kernel(xp, contents, channels=0, dtype="uint8", expand_animations=True):
    Image = _pillow()
    try:
        image = Image.open(io.BytesIO(_bytes(xp, contents)))
        if image.format == "JPEG" and _fast_idct(image, True, ""):
            image.decoderconfig = (1, 1)
        image.load()
    except Exception:
        raise ValueError(_UNKNOWN) from None
    out = dtypes.as_dtype(dtype)
    array = _to_array(image, int(channels), np.uint16 if out.name == "uint16" else np.uint8)
    if out.is_floating:
        array = (array.astype(np.float64) / 255.0).astype(out.np)
    return array


def _from_array(array):
    Image = _pillow()
    array = np.asarray(array)
    channels = array.shape[-1]
    if array.dtype == np.uint16:
        if channels != 1:
            raise ValueError("devtrace encodes uint16 PNGs of one channel only")
        return Image.fromarray(np.ascontiguousarray(array[..., 0]))
    return Image.fromarray(array[..., 0] if channels == 1 else array, _MODES[channels])


def encode_png_kernel(xp, image, compression=-1):
    out = io.BytesIO()
    level = 6 if int(compression) < 0 else int(compression)
    _from_array(image).save(out, format="PNG", compress_level=level)
    return _scalar_string(out.getvalue())


def encode_jpeg_kernel(xp, image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
                       chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata=""):
    out = io.BytesIO()
    pil = _from_array(image)
    if format == "grayscale":
        pil = pil.convert("L")
    elif format == "rgb":
        pil = pil.convert("RGB")
    pil.save(out, format="JPEG", quality=int(quality), progressive=bool(progressive), optimize=bool(optimize_size),
             subsampling=2 if chroma_downsampling else 0,
             dpi=(int(x_density), int(y_density)))
    return _scalar_string(out.getvalue())


def encode_jpeg_variable_quality_kernel(xp, image, quality=95):
    return encode_jpeg_kernel(xp, image, quality=quality)


_STRING = {CPU: ("string",)}


def _decoded(name, shapes, attrs, dtype):
    """A decoded image in a graph: ``dtype`` (uint8 by default), height and width unknown, the
    channels asked for; ``decode_image`` of animations (by default) of unknown rank; a GIF's frames."""
    out = dtypes.as_dtype(attrs.get("dtype", "uint8"))
    if name == "DecodeGif":
        return out, (None, None, None, 3)
    if name == "DecodeImage" and attrs.get("expand_animations", True):
        return out, None
    return out, (None, None, int(attrs.get("channels", 0)) or None)


op("DecodePng", decode_png_kernel, _STRING, devices=(CPU,), shape=_decoded)
op("DecodeJpeg", decode_jpeg_kernel, _STRING, devices=(CPU,), shape=_decoded)
op("DecodeImage", decode_image_kernel, _STRING, devices=(CPU,), shape=_decoded)
op("EncodePng", encode_png_kernel, {CPU: ("uint8", "uint16")}, devices=(CPU,))
op("EncodeJpeg", encode_jpeg_kernel, {CPU: ("uint8",)}, devices=(CPU,))
op("EncodeJpegVariableQuality", encode_jpeg_variable_quality_kernel, {CPU: ("uint8",)}, devices=(CPU,),
   host_args={"quality": "quality"})


@public("io.decode_png", "image.decode_png")
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    _pillow()
    return execute("DecodePng", (as_tensor(contents),), {"channels": int(channels),
                                                         "dtype": dtypes.as_dtype(dtype).name}, name=name)


@public("io.decode_jpeg", "image.decode_jpeg")
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    attrs = {"channels": int(channels), "ratio": int(ratio), "fancy_upscaling": fancy_upscaling,
             "try_recover_truncated": try_recover_truncated, "acceptable_fraction": acceptable_fraction,
             "dct_method": dct_method}
    _pillow()
    return execute("DecodeJpeg", (as_tensor(contents),), attrs, name=name)


@public("io.decode_image", "image.decode_image")
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    _pillow()
    return execute("DecodeImage", (as_tensor(contents),), {"channels": int(channels or 0),
                                                           "dtype": dtypes.as_dtype(dtype).name,
                                                           "expand_animations": expand_animations}, name=name)


@public("io.encode_png", "image.encode_png")
def encode_png(image, compression=-1, name=None):
    _pillow()
    return execute("EncodePng", (as_tensor(image),), {"compression": int(compression)}, name=name)


@public("io.encode_jpeg", "image.encode_jpeg")
def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata="",
                name=None):
    attrs = {"format": format, "quality": int(quality), "progressive": progressive, "optimize_size": optimize_size,
             "chroma_downsampling": chroma_downsampling, "density_unit": density_unit, "x_density": x_density,
             "y_density": y_density, "xmp_metadata": xmp_metadata}
    _pillow()
    return execute("EncodeJpeg", (as_tensor(image),), attrs, name=name)


@public("io.is_jpeg", "image.is_jpeg")
def is_jpeg(contents, name=None):
    """``tf.io.is_jpeg``: whether the bytes start with JPEG's signature (as TensorFlow, a ``Substr``)."""
    return API["equal"](API["strings.substr"](contents, 0, 3), b"\xff\xd8\xff")


def adjust_jpeg(image, quality, convert):
    """``adjust_jpeg_quality``'s body: the image through ``EncodeJpegVariableQuality`` and ``DecodeJpeg``."""
    _pillow()
    image = as_tensor(image)
    original = image.dtype
    image = convert(image, dtypes.uint8, saturate=True)
    channels = image.shape.as_list()[-1]
    encoded = execute("EncodeJpegVariableQuality", (image,), {"quality": int(host_arg(quality))})
    decoded = execute("DecodeJpeg", (encoded,), {"channels": channels})
    return convert(decoded, original, saturate=True)


def _decode_as(fmt, error):
    """A kernel decoding one ``fmt`` file (Pillow's format name) to HWC uint8."""
    def kernel(xp, contents, channels=0, **attrs):
        Image = _pillow()
        try:
            image = Image.open(io.BytesIO(_bytes(xp, contents)))
            if image.format != fmt:
                raise ValueError(image.format)
            frames = []
            for index in range(getattr(image, "n_frames", 1)):
                image.seek(index)
                frames.append(_to_array(image, int(channels) or (4 if fmt == "BMP" and image.mode == "RGBA" else 3)))
        except Exception:
            raise ValueError(error) from None
        return np.stack(frames) if fmt in ("GIF", "WEBP") else frames[0]
    return kernel


def extract_jpeg_shape_kernel(xp, contents, output_type="int32"):
    Image = _pillow()
    try:
        image = Image.open(io.BytesIO(_bytes(xp, contents)))
    except Exception:
        raise ValueError("Invalid JPEG data or crop window, data size 0") from None
    channels = {"L": 1, "RGB": 3, "CMYK": 4}.get(image.mode, 3)
    return np.array([image.height, image.width, channels], dtypes.as_dtype(output_type).np)


op("DecodeBmp", _decode_as("BMP", _UNKNOWN), _STRING, devices=(CPU,), shape=_decoded)
op("DecodeGif", _decode_as("GIF", _UNKNOWN), _STRING, devices=(CPU,), shape=_decoded)
op("DecodeWebP", _decode_as("WEBP", _UNKNOWN), _STRING, devices=(CPU,))
op("ExtractJpegShape", extract_jpeg_shape_kernel, _STRING, devices=(CPU,))


@public("io.decode_bmp", "image.decode_bmp")
def decode_bmp(contents, channels=0, name=None):
    _pillow()
    return execute("DecodeBmp", (as_tensor(contents),), {"channels": int(channels)}, name=name)


@public("io.decode_gif", "image.decode_gif")
def decode_gif(contents, name=None):
    _pillow()
    return execute("DecodeGif", (as_tensor(contents),), {}, name=name)


@public("io.decode_webp", "image.decode_webp")
def decode_webp(contents, channels=0, dtype=dtypes.uint8, name=None):
    _pillow()
    return execute("DecodeWebP", (as_tensor(contents),), {"channels": int(channels)}, name=name)


@public("io.extract_jpeg_shape", "image.extract_jpeg_shape")
def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    _pillow()
    return execute("ExtractJpegShape", (as_tensor(contents),), {"output_type": dtypes.as_dtype(output_type).name},
                   name=name)


@public("io.decode_and_crop_jpeg", "image.decode_and_crop_jpeg")
def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """Decodes the whole image, then crops it (TensorFlow decodes only the window: the same pixels)."""
    y, x, h, w = (int(v) for v in host_arg(crop_window))
    image = decode_jpeg(contents, channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                        dct_method)
    return API["slice"](image, [y, x, 0], [h, w, -1])
