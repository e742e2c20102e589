"""``keras.utils``'s image helpers on Pillow (the ``image`` extra): ``load_img``, ``img_to_array``,
``array_to_img``, ``save_img`` — Keras 3's conversions (float arrays in ``floatx``, an image scaled to
0..255 unless told not to, 1, 3 or 4 channels as L, RGB, RGBA)."""

from __future__ import annotations

import io
import pathlib
import warnings

import numpy as np

from . import config

_RESAMPLING = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil(what: str):
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"Could not import PIL.Image. The use of `{what}` requires PIL.") from None
    return Image


def _channels_first(data_format) -> bool:
    data_format = config.image_data_format() if data_format is None else str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return data_format == "channels_first"


def array_to_img(x, data_format=None, scale=True, dtype=None):
    image = _pil("array_to_img")
    x = np.asarray(x, dtype=dtype or config.floatx())
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if _channels_first(data_format):
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x = x / top
        x = x * 255
    channels = x.shape[2]
    if channels in (3, 4):
        return image.fromarray(x.astype("uint8"), "RGB" if channels == 3 else "RGBA")
    if channels == 1:
        if np.max(x) > 255:  # a 32-bit integer image
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def img_to_array(img, data_format=None, dtype=None):
    x = np.asarray(img, dtype=dtype or config.floatx())
    first = _channels_first(data_format)
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if first else x
    if x.ndim == 2:
        return x.reshape((1,) + x.shape) if first else x.reshape(x.shape + (1,))
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False):
    image = _pil("load_img")
    if isinstance(path, io.BytesIO):
        img = image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        with open(str(pathlib.Path(path).resolve()) if isinstance(path, pathlib.Path) else path, "rb") as f:
            img = image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    modes = {"grayscale": ("L", ("L", "I;16", "I")), "rgba": ("RGBA", ("RGBA",)), "rgb": ("RGB", ("RGB",))}
    if color_mode not in modes:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    mode, kept = modes[color_mode]
    if img.mode not in kept:
        img = img.convert(mode)
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])
    if img.size == size:
        return img
    if interpolation not in _RESAMPLING:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                         f"{', '.join(_RESAMPLING)}")
    resample = getattr(image.Resampling, interpolation.upper())
    if keep_aspect_ratio:  # the largest centred crop of the target's aspect ratio, then the resize
        width, height = img.size
        crop_h = min(height, (width * size[1]) // size[0])
        crop_w = min(width, (height * size[0]) // size[1])
        top, left = (height - crop_h) // 2, (width - crop_w) // 2
        img = img.crop((left, top, left + crop_w, top + crop_h))
    return img.resize(size, resample)
