"""``keras.ops.image`` on devtrace's ``tf.image``: channels last as TensorFlow's image ops take them;
``data_format="channels_first"`` images transposed there and back, as Keras's TensorFlow backend does."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

import devtrace as tf
from .. import keywords
from .image_more import _first, extract_patches_3d


def _to_last(images, first):
    images = tf.convert_to_tensor(images)
    if not first:
        return images
    rank = images.shape.rank
    return tf.transpose(images, list(range(rank - 3)) + [rank - 2, rank - 1, rank - 3])


def _from_last(images, first):
    if not first:
        return images
    rank = images.shape.rank
    return tf.transpose(images, list(range(rank - 3)) + [rank - 1, rank - 3, rank - 2])


def resize(images, size, interpolation="bilinear", antialias=False, data_format=None, **kwargs):
    keywords.unimplemented("keras.ops.image.resize", **{k: (v, None) for k, v in kwargs.items()})
    first = _first(data_format)
    return _from_last(tf.image.resize(_to_last(images, first), size, method=interpolation, antialias=antialias),
                      first)


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """Keras's ``ops.image.ssim``: TensorFlow's ``tf.image.ssim`` (channels last)."""
    keywords.unimplemented("keras.ops.image.ssim", data_format=(data_format, (None, "channels_last")))
    return tf.image.ssim(tf.convert_to_tensor(image1), tf.convert_to_tensor(image2), max_val,
                         filter_size=filter_size, filter_sigma=filter_sigma, k1=k1, k2=k2)


def _channels_last(where, data_format):
    keywords.unimplemented(f"keras.ops.image.{where}", data_format=(data_format, (None, "channels_last")))


def _either(fn):
    """``fn`` (channels last) taking ``data_format`` too."""
    def op(images, *args, data_format=None, **kwargs):
        first = _first(data_format)
        return _from_last(fn(_to_last(images, first), *args, **kwargs), first)
    op.__name__, op.__doc__ = fn.__name__, fn.__doc__
    return op


def _rank_3_or_4(images):
    if len(images.shape) not in (3, 4):
        raise ValueError(f"Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: images.shape={tuple(images.shape)}")


@_either
def rgb_to_grayscale(images):
    """Keras's weights ``[0.2989, 0.5870, 0.1140]`` over the channels (``Tensordot``)."""
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    if images.shape[-1] not in (1, 3):
        raise ValueError(f"Invalid channel size: expected 3 (RGB) or 1 (Grayscale). Received input with shape: "
                         f"images.shape={tuple(images.shape)}")
    if images.shape[-1] == 1:
        return tf.identity(images)
    dtype = images.dtype
    x = images if dtype.is_floating else tf.cast(images, tf.float32)
    gray = tf.tensordot(x, tf.constant([0.2989, 0.5870, 0.1140], x.dtype), axes=(-1, -1))
    return tf.cast(tf.expand_dims(gray, -1), dtype)


def _float_images(where, images):
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    if not images.dtype.is_floating:
        raise ValueError(f"Invalid images dtype: expected float dtype. Received: images.dtype={images.dtype.name}")
    return images


@_either
def rgb_to_hsv(images):
    return tf.image.rgb_to_hsv(_float_images("rgb_to_hsv", images))


@_either
def hsv_to_rgb(images):
    return tf.image.hsv_to_rgb(_float_images("hsv_to_rgb", images))


@_either
def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0):
    """One ``ImageProjectiveTransformV3``, as Keras's TensorFlow backend runs it."""
    from ..layers_augment import affine_transform as transform_images

    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one ('nearest', 'bilinear'). "
                         f"Received: interpolation={interpolation}")
    if fill_mode not in ("constant", "nearest", "wrap", "reflect"):
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one ('constant', 'nearest', "
                         f"'wrap', 'mirror', 'reflect'). Received: fill_mode={fill_mode}")
    images, transform = tf.convert_to_tensor(images), tf.convert_to_tensor(transform)
    _rank_3_or_4(images)
    single = len(images.shape) == 3
    if single:
        images = tf.expand_dims(images, 0)
    if len(transform.shape) == 1:
        transform = tf.expand_dims(transform, 0)
    out = transform_images(images, transform, interpolation, fill_mode, fill_value)
    return tf.squeeze(out, [0]) if single else out


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Keras's: a ``Conv2D`` with the identity kernel, each patch's pixels on the channel axis (a 3-D
    ``size``: ``extract_patches_3d``)."""
    if not isinstance(size, int) and len(size) == 3:
        return extract_patches_3d(images, size, strides, dilation_rate, padding, data_format)
    _channels_last("extract_patches", data_format)
    keywords.unimplemented("keras.ops.image.extract_patches", dilation_rate=(dilation_rate, (1, (1, 1))))
    patch_h, patch_w = (size, size) if isinstance(size, int) else tuple(size)
    images = tf.convert_to_tensor(images)
    channels = images.shape[-1]
    strides = strides or (patch_h, patch_w)
    out_dim = patch_h * patch_w * channels
    kernel = tf.reshape(tf.eye(out_dim, dtype=images.dtype), [patch_h, patch_w, channels, out_dim])
    single = len(images.shape) == 3
    if single:
        images = tf.expand_dims(images, 0)
    patches = tf.nn.conv2d(images, kernel, strides, padding.upper())
    return tf.squeeze(patches, [0]) if single else patches


def _sides(before, after, target, size, names):
    if [before, after, target].count(None) != 1:
        raise ValueError(f"Must specify exactly two of {names[0]}, {names[1]}, {names[2]}. Received: "
                         f"{names[0]}={before}, {names[1]}={after}, {names[2]}={target}")
    if before is None:
        before = target - after - size
    if after is None:
        after = target - before - size
    return before, after


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None, right_padding=None,
               target_height=None, target_width=None, data_format=None):
    _channels_last("pad_images", data_format)
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    height, width = images.shape[-3], images.shape[-2]
    top, bottom = _sides(top_padding, bottom_padding, target_height, height,
                         ("top_padding", "bottom_padding", "target_height"))
    left, right = _sides(left_padding, right_padding, target_width, width,
                         ("left_padding", "right_padding", "target_width"))
    for name, value in (("top_padding", top), ("left_padding", left), ("right_padding", right),
                        ("bottom_padding", bottom)):
        if value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")
    pads = [[top, bottom], [left, right], [0, 0]]
    return tf.pad(images, ([[0, 0]] if len(images.shape) == 4 else []) + pads)


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None, right_cropping=None,
                target_height=None, target_width=None, data_format=None):
    _channels_last("crop_images", data_format)
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    height, width = images.shape[-3], images.shape[-2]
    names_h = ("top_cropping", "bottom_cropping", "target_height")
    names_w = ("left_cropping", "right_cropping", "target_width")
    if [top_cropping, bottom_cropping, target_height].count(None) != 1:
        _sides(top_cropping, bottom_cropping, target_height, height, names_h)
    if [left_cropping, right_cropping, target_width].count(None) != 1:
        _sides(left_cropping, right_cropping, target_width, width, names_w)
    top = top_cropping if top_cropping is not None else height - target_height - bottom_cropping
    left = left_cropping if left_cropping is not None else width - target_width - right_cropping
    target_height = target_height if target_height is not None else height - top - bottom_cropping
    target_width = target_width if target_width is not None else width - left - right_cropping
    return images[..., top:top + target_height, left:left + target_width, :]


from .image_more import *  # noqa: E402,F401,F403 (the rest of keras.ops.image)
from .image_more import __all__ as _more  # noqa: E402

__all__ = ["affine_transform", "crop_images", "extract_patches", "hsv_to_rgb", "pad_images", "resize",
           "rgb_to_grayscale", "rgb_to_hsv", "ssim", *_more]
__getattr__ = _missing("keras.ops.image")
