"""``tf.image``: TensorFlow's image ops declared once (``ResizeBilinear``, ``RGBToHSV``,
``AdjustContrastv2`` …, kernels in :mod:`.image_kernels`) and the Python functions TensorFlow's
``image_ops_impl`` composes from them and from the array and math ops (flips, crops, pads, dtype
conversion, the random and stateless-random adjustments)."""

from __future__ import annotations

import enum

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ...runtime.tensor import Tensor
from .. import shapes
from ..declare import API, as_tensor, host_arg, op, public
from . import codec_ops, image_kernels as k

_FLOAT_GPU = ("float16", "float32", "float64")
_REAL = sorted(dtypes.REAL - {"bool"})


def _f(name):
    """The public function ``name`` (``reverse``, ``random.uniform``): the ops this module composes."""
    return API[name]


def _resize_shape(name, shapes, attrs, dtype):
    s = shapes[0]
    out = None if s is None else (s[0], int(attrs["size"][0]), int(attrs["size"][1]), s[3])
    return (dtype if name == "nearest" else dtypes.float32), out


def _float_out(name, shapes, attrs, dtype):
    return _resize_shape(None, shapes, attrs, dtype)


def _same_dtype(name, shapes, attrs, dtype):
    return _resize_shape("nearest", shapes, attrs, dtype)


op("ResizeBilinear", k.resize_bilinear, {CPU: _REAL, GPU: _REAL}, shape=_float_out, host_args={"size": "size"},
   mixed_dtypes=True)
op("ResizeNearestNeighbor", k.resize_nearest, {CPU: _REAL, GPU: _REAL}, shape=_same_dtype, host_args={"size": "size"})
op("ResizeBicubic", k.resize_bicubic, {CPU: _REAL}, devices=(CPU,), shape=_float_out, host_args={"size": "size"})
op("ResizeArea", k.resize_area, {CPU: _REAL}, devices=(CPU,), shape=_float_out, host_args={"size": "size"})
op("ScaleAndTranslate", k.scale_and_translate, {CPU: _REAL}, devices=(CPU,), shape=_float_out,
   host_args={"size": "size", "scale": "scale", "translation": "translation"})
op("RGBToHSV", k.rgb_to_hsv, _FLOAT_GPU, shape=shapes.same)
op("HSVToRGB", k.hsv_to_rgb, _FLOAT_GPU, shape=shapes.same)
op("AdjustHue", k.adjust_hue, {CPU: ("float16", "float32"), GPU: ("float16", "float32")}, host_args={"delta": "delta"},
   shape=shapes.same)
op("AdjustSaturation", k.adjust_saturation, {CPU: ("float16", "float32"), GPU: ("float16", "float32")},
   host_args={"scale": "scale"}, shape=shapes.same)
op("AdjustContrastv2", k.adjust_contrast, {CPU: ("float16", "float32"), GPU: ("float16", "float32")},
   host_args={"contrast_factor": "contrast_factor"}, shape=shapes.same)
op("DrawBoundingBoxesV2", k.draw_bounding_boxes, {CPU: ("float16", "float32")}, devices=(CPU,), mixed_dtypes=True)


class ResizeMethod(str, enum.Enum):
    """``tf.image.ResizeMethod``: the names ``tf.image.resize`` takes."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"

    def __str__(self):
        return self.value


API["image.ResizeMethod"] = ResizeMethod


def _image(image, name="image"):
    image = as_tensor(image)
    rank = image.shape.rank
    if rank is not None and rank < 3:
        raise ValueError(f"'{name}' (shape {image.shape}) must be at least three-dimensional.")
    return image


def _batched(image):
    """The image as a batch, and whether it was one."""
    image = _image(image)
    if image.shape.rank == 3:
        return _f("expand_dims")(image, 0), False
    return image, True


def _unbatched(images, was_batch):
    return images if was_batch else _f("squeeze")(images, [0])


@public("image.flip_left_right")
def flip_left_right(image):
    image = _image(image)
    return _f("reverse")(image, [image.shape.rank - 2])


@public("image.flip_up_down")
def flip_up_down(image):
    image = _image(image)
    return _f("reverse")(image, [image.shape.rank - 3])


@public("image.rot90")
def rot90(image, k=1, name=None):
    image = _image(image)
    k = int(host_arg(k)) % 4
    batch = image.shape.rank == 4
    hw = [1, 2] if batch else [0, 1]
    perm = [0, 2, 1, 3] if batch else [1, 0, 2]
    if k == 0:
        return image
    if k == 1:
        return _f("transpose")(_f("reverse")(image, [hw[1]]), perm)
    if k == 2:
        return _f("reverse")(image, hw)
    return _f("reverse")(_f("transpose")(image, perm), [hw[1]])


@public("image.transpose")
def transpose(image, name=None):
    image = _image(image)
    return _f("transpose")(image, [0, 2, 1, 3] if image.shape.rank == 4 else [1, 0, 2])


def _hw(image):
    shape = image.shape.as_list()
    return shape[-3], shape[-2]


@public("image.central_crop")
def central_crop(image, central_fraction):
    image = _image(image)
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction == 1.0:
        return image
    h, w = _hw(image)
    offset = 1 / ((1 - central_fraction) / 2.0)
    top, left = int(h / offset), int(w / offset)
    begin = [top, left, 0] if image.shape.rank == 3 else [0, top, left, 0]
    size = [h - 2 * top, w - 2 * left, -1] if image.shape.rank == 3 else [-1, h - 2 * top, w - 2 * left, -1]
    return _f("slice")(image, begin, size)


@public("image.crop_to_bounding_box")
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    images, was_batch = _batched(image)
    h, w = _hw(images)
    if offset_width < 0 or offset_height < 0:
        raise ValueError("offset_width must be >= 0." if offset_width < 0 else "offset_height must be >= 0.")
    if target_width <= 0 or target_height <= 0:
        raise ValueError("target_width must be > 0." if target_width <= 0 else "target_height must be > 0.")
    if w < target_width + offset_width:
        raise ValueError("width must be >= target + offset.")
    if h < target_height + offset_height:
        raise ValueError("height must be >= target + offset.")
    cropped = _f("slice")(images, [0, int(offset_height), int(offset_width), 0],
                          [-1, int(target_height), int(target_width), -1])
    return _unbatched(cropped, was_batch)


@public("image.pad_to_bounding_box")
def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    images, was_batch = _batched(image)
    h, w = _hw(images)
    after_h, after_w = target_height - offset_height - h, target_width - offset_width - w
    if offset_height < 0 or offset_width < 0:
        raise ValueError("offset_height must be >= 0" if offset_height < 0 else "offset_width must be >= 0")
    if after_h < 0 or after_w < 0:
        raise ValueError("height must be <= target - offset" if after_h < 0 else "width must be <= target - offset")
    padded = _f("pad")(images, [[0, 0], [offset_height, after_h], [offset_width, after_w], [0, 0]])
    return _unbatched(padded, was_batch)


@public("image.resize_with_crop_or_pad", "image.resize_image_with_crop_or_pad")
def resize_with_crop_or_pad(image, target_height, target_width):
    image = _image(image)
    h, w = _hw(image)
    dw, dh = target_width - w, target_height - h
    cropped = crop_to_bounding_box(image, max(-dh // 2, 0), max(-dw // 2, 0), min(target_height, h),
                                   min(target_width, w))
    return pad_to_bounding_box(cropped, max(dh // 2, 0), max(dw // 2, 0), target_height, target_width)


@public("image.convert_image_dtype")
def convert_image_dtype(image, dtype, saturate=False, name=None):
    image = as_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    src = image.dtype
    if not (src.is_floating or src.is_integer) or not (dtype.is_floating or dtype.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if src == dtype:
        return _f("identity")(image)
    cast = _f("saturate_cast") if saturate else _f("cast")
    if src.is_integer and dtype.is_integer:
        scale_in, scale_out = src.max, dtype.max
        if scale_in > scale_out:
            scaled = _f("math.floordiv")(image, (scale_in + 1) // (scale_out + 1))
            return cast(scaled, dtype)
        return _f("multiply")(cast(image, dtype), (scale_out + 1) // (scale_in + 1))
    if src.is_floating and dtype.is_floating:
        return _f("cast")(image, dtype)
    if src.is_integer:
        return _f("multiply")(_f("cast")(image, dtype), 1.0 / src.max)
    return cast(_f("multiply")(image, dtype.max + 0.5), dtype)


def _to_float(image):
    """The image as float32 unless it is float16/float32 already (as TensorFlow's adjustments)."""
    image = as_tensor(image)
    if image.dtype in (dtypes.float16, dtypes.float32):
        return image, image.dtype
    return convert_image_dtype(image, dtypes.float32), image.dtype


@public("image.rgb_to_grayscale")
def rgb_to_grayscale(images, name=None):
    images = as_tensor(images)
    flt = convert_image_dtype(images, dtypes.float32)
    gray = _f("tensordot")(flt, [0.2989, 0.5870, 0.1140], [-1, -1])
    return convert_image_dtype(_f("expand_dims")(gray, -1), images.dtype)


@public("image.grayscale_to_rgb")
def grayscale_to_rgb(images, name=None):
    images = as_tensor(images)
    multiples = [1] * (images.shape.rank - 1) + [3]
    return _f("tile")(images, multiples)


def _color_matrix(kernel, api):
    def fn(images):
        images = as_tensor(images)
        matrix = _f("constant")(kernel, images.dtype)
        return _f("tensordot")(images, matrix, [[images.shape.rank - 1], [0]])
    fn.__name__ = fn.__qualname__ = api
    return public(f"image.{api}")(fn)


rgb_to_yiq = _color_matrix([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                            [0.114, -0.32134392, 0.31119955]], "rgb_to_yiq")
yiq_to_rgb = _color_matrix([[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
                            [0.6208248, -0.64720424, 1.70423049]], "yiq_to_rgb")
rgb_to_yuv = _color_matrix([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                            [0.114, 0.43601035, -0.10001026]], "rgb_to_yuv")
yuv_to_rgb = _color_matrix([[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]], "yuv_to_rgb")


@public("image.rgb_to_hsv")
def rgb_to_hsv(images, name=None):
    return execute("RGBToHSV", (as_tensor(images),), name=name)


@public("image.hsv_to_rgb")
def hsv_to_rgb(images, name=None):
    return execute("HSVToRGB", (as_tensor(images),), name=name)


def _scalar(value):
    return float(host_arg(value, dtypes.float32))


@public("image.adjust_brightness")
def adjust_brightness(image, delta):
    flt, orig = _to_float(image)
    adjusted = _f("add")(flt, _f("cast")(delta, flt.dtype))
    return convert_image_dtype(adjusted, orig, saturate=True)


@public("image.adjust_contrast")
def adjust_contrast(images, contrast_factor):
    flt, orig = _to_float(images)
    adjusted = execute("AdjustContrastv2", (flt,), {"contrast_factor": _scalar(contrast_factor)})
    return convert_image_dtype(adjusted, orig, saturate=True)


@public("image.adjust_gamma")
def adjust_gamma(image, gamma=1, gain=1):
    flt, orig = _to_float(image)
    if float(host_arg(gamma, dtypes.float32)) < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    adjusted = _f("multiply")(_f("cast")(gain, flt.dtype), _f("pow")(flt, _f("cast")(gamma, flt.dtype)))
    return convert_image_dtype(adjusted, orig, saturate=True)


@public("image.adjust_hue")
def adjust_hue(image, delta, name=None):
    flt, orig = _to_float(image)
    adjusted = execute("AdjustHue", (flt,), {"delta": _scalar(delta)}, name=name)
    return convert_image_dtype(adjusted, orig)


@public("image.adjust_saturation")
def adjust_saturation(image, saturation_factor, name=None):
    flt, orig = _to_float(image)
    adjusted = execute("AdjustSaturation", (flt,), {"scale": _scalar(saturation_factor)}, name=name)
    return convert_image_dtype(adjusted, orig)


@public("image.per_image_standardization")
def per_image_standardization(image):
    image = _f("cast")(_image(image), dtypes.float32)
    pixels = int(np.prod(image.shape.as_list()[-3:]))
    mean = _f("reduce_mean")(image, axis=[-1, -2, -3], keepdims=True)
    stddev = _f("math.reduce_std")(image, axis=[-1, -2, -3], keepdims=True)
    adjusted_stddev = _f("maximum")(stddev, _f("math.rsqrt")(_f("cast")(pixels, dtypes.float32)))
    return _f("divide")(_f("subtract")(image, mean), adjusted_stddev)


def _uniform(seed, stateless):
    if stateless:
        return lambda shape, minval, maxval, dtype=dtypes.float32: _f("random.stateless_uniform")(
            shape, seed=seed, minval=minval, maxval=maxval, dtype=dtype)
    return lambda shape, minval, maxval, dtype=dtypes.float32: _f("random.uniform")(
        shape, minval, maxval, dtype=dtype, seed=seed)


def _random_flip(image, index, uniform):
    image = _image(image)
    if image.shape.rank == 3:
        mirror = _f("less")(uniform([], 0, 1.0), 0.5)  # TensorFlow's tf.cond: a graph (a tf.data map) keeps both
        return _f("cond")(mirror, lambda: _f("reverse")(image, [index]), lambda: image)
    batch = image.shape.as_list()[0]
    flips = _f("cast")(_f("round")(_f("reshape")(uniform([batch], 0, 1.0), [batch, 1, 1, 1])), image.dtype)
    flipped = _f("reverse")(image, [index + 1])
    return _f("add")(_f("multiply")(flips, flipped), _f("multiply")(_f("subtract")(1, flips), image))


@public("image.random_flip_left_right")
def random_flip_left_right(image, seed=None):
    return _random_flip(image, 1, _uniform(seed, False))


@public("image.random_flip_up_down")
def random_flip_up_down(image, seed=None):
    return _random_flip(image, 0, _uniform(seed, False))


@public("image.stateless_random_flip_left_right")
def stateless_random_flip_left_right(image, seed):
    return _random_flip(image, 1, _uniform(seed, True))


@public("image.stateless_random_flip_up_down")
def stateless_random_flip_up_down(image, seed):
    return _random_flip(image, 0, _uniform(seed, True))


def _check_range(lower, upper, what):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


@public("image.random_brightness")
def random_brightness(image, max_delta, seed=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _uniform(seed, False)([], -max_delta, max_delta))


@public("image.stateless_random_brightness")
def stateless_random_brightness(image, max_delta, seed):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _uniform(seed, True)([], -max_delta, max_delta))


@public("image.random_contrast")
def random_contrast(image, lower, upper, seed=None):
    _check_range(lower, upper, "contrast")
    return adjust_contrast(image, _uniform(seed, False)([], lower, upper))


@public("image.stateless_random_contrast")
def stateless_random_contrast(image, lower, upper, seed):
    _check_range(lower, upper, "contrast")
    return adjust_contrast(image, _uniform(seed, True)([], lower, upper))


@public("image.random_saturation")
def random_saturation(image, lower, upper, seed=None):
    _check_range(lower, upper, "saturation")
    return adjust_saturation(image, _uniform(seed, False)([], lower, upper))


@public("image.stateless_random_saturation")
def stateless_random_saturation(image, lower, upper, seed):
    _check_range(lower, upper, "saturation")
    return adjust_saturation(image, _uniform(seed, True)([], lower, upper))


def _check_hue(max_delta):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


@public("image.random_hue")
def random_hue(image, max_delta, seed=None):
    _check_hue(max_delta)
    return adjust_hue(image, _uniform(seed, False)([], -max_delta, max_delta))


@public("image.stateless_random_hue")
def stateless_random_hue(image, max_delta, seed):
    _check_hue(max_delta)
    return adjust_hue(image, _uniform(seed, True)([], -max_delta, max_delta))


def _random_crop(value, size, uniform):
    value = as_tensor(value)
    size = [int(s) for s in host_arg(size)]
    shape = value.shape.as_list()
    if any(s > d for s, d in zip(size, shape)):
        raise ValueError("Need value.shape >= size, got " + f"{shape} >= {size}")
    limit = np.array(shape) - np.array(size) + 1
    offset = _f("math.floormod")(uniform([len(shape)], 0, dtypes.int32.max, dtypes.int32),
                                 _f("constant")(limit.astype(np.int32)))
    return _f("slice")(value, offset, size)


@public("image.random_crop", "compat.v1.random_crop")
def random_crop(value, size, seed=None, name=None):
    return _random_crop(value, size, _uniform(seed, False))


@public("image.stateless_random_crop")
def stateless_random_crop(value, size, seed, name=None):
    return _random_crop(value, size, _uniform(seed, True))


@public("image.draw_bounding_boxes")
def draw_bounding_boxes(images, boxes, colors, name=None):
    images = as_tensor(images)
    boxes = _f("cast")(as_tensor(boxes), dtypes.float32)
    colors = _f("constant")(np.zeros((0, 4), np.float32) if colors is None else colors, dtypes.float32)
    return execute("DrawBoundingBoxesV2", (images, boxes, colors), name=name)


_SCALE_AND_TRANSLATE = {"lanczos3", "lanczos5", "gaussian", "mitchellcubic"}


def _resize(images, size, method, antialias, name):
    method = str(method.value if isinstance(method, ResizeMethod) else method)
    h, w = images.shape.as_list()[1:3]
    size = tuple(int(s) for s in size)
    if method == "bilinear" and not antialias:
        return execute("ResizeBilinear", (images,), {"size": size, "half_pixel_centers": True}, name=name)
    if method == "nearest":
        return execute("ResizeNearestNeighbor", (images,), {"size": size, "half_pixel_centers": True}, name=name)
    if method == "bicubic" and not antialias:
        return execute("ResizeBicubic", (images,), {"size": size, "half_pixel_centers": True}, name=name)
    if method == "area":
        return execute("ResizeArea", (images,), {"size": size}, name=name)
    kernel = {"bilinear": "triangle", "bicubic": "keyscubic"}.get(method, method)
    if kernel not in k.KERNELS or (method not in _SCALE_AND_TRANSLATE and method not in ("bilinear", "bicubic")):
        raise ValueError(f"Resize method is not implemented: {method}")
    attrs = {"size": size, "scale": (size[0] / h, size[1] / w), "translation": (0.0, 0.0),
             "kernel_type": kernel, "antialias": bool(antialias)}
    return execute("ScaleAndTranslate", (images,), attrs, name=name)


@public("image.resize")
def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    rank = as_tensor(images).shape.rank
    if rank is not None and rank not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    images, was_batch = _batched(images)
    size = [int(s) for s in host_arg(size)]
    if len(size) != 2:
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    h, w = _hw(images)
    if preserve_aspect_ratio:
        factor = min(size[0] / h, size[1] / w)
        size = [int(round(h * factor)), int(round(w * factor))]
    resized = _resize(images, size, method, antialias, name)
    return _unbatched(resized, was_batch)


@public("image.resize_with_pad")
def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR, antialias=False):
    images, was_batch = _batched(image)
    h, w = _hw(images)
    f32 = np.float32  # TensorFlow's arithmetic: float32, the padding from the unrounded resized size
    ratio = max(f32(w) / f32(target_width), f32(h) / f32(target_height))
    resized_h, resized_w = int(f32(h) / ratio), int(f32(w) / ratio)
    pad_h = max(0, int(np.floor((f32(target_height) - f32(h) / ratio) / f32(2))))
    pad_w = max(0, int(np.floor((f32(target_width) - f32(w) / ratio) / f32(2))))
    resized = _resize(images, [resized_h, resized_w], method, antialias, None)
    return _unbatched(pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width), was_batch)


@public("image.total_variation")
def total_variation(images, name=None):
    images = as_tensor(images)
    axes = [-3, -2, -1]
    rows = _f("subtract")(images[..., 1:, :, :], images[..., :-1, :, :])
    cols = _f("subtract")(images[..., :, 1:, :], images[..., :, :-1, :])
    return _f("add")(_f("reduce_sum")(_f("abs")(rows), axis=axes), _f("reduce_sum")(_f("abs")(cols), axis=axes))


@public("image.image_gradients")
def image_gradients(image):
    image = as_tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {image.shape}.")
    b, h, w, d = image.shape.as_list()
    dy = _f("subtract")(image[:, 1:, :, :], image[:, :-1, :, :])
    dx = _f("subtract")(image[:, :, 1:, :], image[:, :, :-1, :])
    dy = _f("concat")([dy, _f("zeros")([b, 1, w, d], image.dtype)], 1)
    dx = _f("concat")([dx, _f("zeros")([b, h, 1, d], image.dtype)], 2)
    return dy, dx


@public("image.psnr")
def psnr(a, b, max_val, name=None):
    a, b = as_tensor(a), as_tensor(b)
    max_val = _f("cast")(max_val, a.dtype)
    a, b, max_val = (convert_image_dtype(t, dtypes.float32) for t in (a, b, max_val))
    mse = _f("reduce_mean")(_f("math.squared_difference")(a, b), [-3, -2, -1])
    ten = 1.0 / np.log(10.0)
    return _f("subtract")(_f("multiply")(20 * ten, _f("math.log")(max_val)),
                          _f("multiply")(10 * ten, _f("math.log")(mse)))


API["image.resize_image_with_pad"] = resize_with_pad


@public("image.adjust_jpeg_quality")
def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    return codec_ops.adjust_jpeg(image, jpeg_quality, convert_image_dtype)


def _check_quality(min_jpeg_quality, max_jpeg_quality):
    if min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or max_jpeg_quality > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


@public("image.random_jpeg_quality")
def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    _check_quality(min_jpeg_quality, max_jpeg_quality)
    quality = _uniform(seed, False)([], min_jpeg_quality, max_jpeg_quality, dtypes.int32)
    return adjust_jpeg_quality(image, quality)


@public("image.stateless_random_jpeg_quality")
def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    _check_quality(min_jpeg_quality, max_jpeg_quality)
    quality = _uniform(seed, True)([], min_jpeg_quality, max_jpeg_quality, dtypes.int32)
    return adjust_jpeg_quality(image, quality)


def _crop_shape(name, shapes, attrs, dtype):
    image, boxes = shapes[0], shapes[1]
    n = None if boxes is None else boxes[0]
    return dtypes.float32, (n, int(attrs["crop_size"][0]), int(attrs["crop_size"][1]),
                            None if image is None else image[3])


op("CropAndResize", k.crop_and_resize, {CPU: _REAL, GPU: _REAL}, shape=_crop_shape, mixed_dtypes=True,
   host_args={"crop_size": "crop_size"})
op("NonMaxSuppressionV3", k.non_max_suppression, {CPU: ("float16", "float32"), GPU: ("float32",)},
   host_args={"max_output_size": "max_output_size", "iou_threshold": "iou_threshold",
              "score_threshold": "score_threshold"})
op("ExtractImagePatches", k.extract_patches, None)


@public("image.crop_and_resize")
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0, name=None):
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"method must be 'bilinear' or 'nearest', got {method!r}")
    crop_size = tuple(int(s) for s in host_arg(crop_size))
    attrs = {"crop_size": crop_size, "method": method, "extrapolation_value": float(extrapolation_value)}
    inputs = (as_tensor(image), _f("cast")(as_tensor(boxes), dtypes.float32), _f("cast")(box_indices, dtypes.int32))
    return execute("CropAndResize", inputs, attrs, name=name)


@public("image.non_max_suppression")
def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    attrs = {"max_output_size": int(host_arg(max_output_size)),
             "iou_threshold": float(host_arg(iou_threshold, dtypes.float32)),
             "score_threshold": float(host_arg(score_threshold, dtypes.float32))}
    return execute("NonMaxSuppressionV3", (as_tensor(boxes), _f("cast")(scores, as_tensor(boxes).dtype)), attrs,
                   name=name)


@public("image.extract_patches")
def extract_patches(images, sizes, strides, rates, padding, name=None):
    attrs = {"ksizes": tuple(int(s) for s in sizes), "strides": tuple(int(s) for s in strides),
             "rates": tuple(int(s) for s in rates), "padding": padding}
    return execute("ExtractImagePatches", (as_tensor(images),), attrs, name=name)


def _depthwise(x, kernel):
    """Each channel of ``x`` (``[..., H, W, C]``) convolved ('VALID') with one 2-D ``kernel``: what
    TensorFlow's ``depthwise_conv2d`` computes with the kernel tiled over the channels; devtrace (no
    depthwise convolution yet) runs a ``Conv2D`` over the channels moved into the batch. ``kernel``:
    ``[kh, kw, 1, n]``, ``n`` outputs a channel (the last axis when ``n > 1``)."""
    shape = x.shape.as_list()
    h, w, c = shape[-3:]
    kh, kw, _, n = kernel.shape
    planes = _f("reshape")(_f("transpose")(_f("reshape")(x, [-1, h, w, c]), [0, 3, 1, 2]), [-1, h, w, 1])
    out = _f("nn.conv2d")(planes, _f("constant")(kernel, x.dtype), [1, 1, 1, 1], "VALID")
    oh, ow = h - kh + 1, w - kw + 1
    out = _f("transpose")(_f("reshape")(out, [-1, c, oh, ow, n]), [0, 2, 3, 1, 4])
    return _f("reshape")(out, shape[:-3] + [oh, ow, c] + ([n] if n > 1 else []))


@public("image.sobel_edges")
def sobel_edges(image):
    """The Sobel filters' responses, ``[..., 2]`` (y then x), of the reflect-padded image."""
    image = as_tensor(image)
    kernels = np.transpose(np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]),
                           (1, 2, 0))[:, :, None, :]
    return _depthwise(_f("pad")(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT"), kernels)


op("ExtractGlimpseV2", k.extract_glimpse, {CPU: ("float32",)}, devices=(CPU,), mixed_dtypes=True,
   host_args={"size": "size"})


@public("image.extract_glimpse")
def extract_glimpse(input, size, offsets, centered=True, normalized=True, noise="uniform", name=None):  # noqa: A002
    size = tuple(int(s) for s in host_arg(size))
    attrs = {"size": size, "centered": bool(centered), "normalized": bool(normalized), "uniform_noise": True,
             "noise": noise}
    return execute("ExtractGlimpseV2", (_f("cast")(input, dtypes.float32), _f("cast")(offsets, dtypes.float32)),
                   attrs, name=name)


def _gaussian(size, sigma):
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / 2
    g = np.square(coords) * np.float32(-0.5 / sigma ** 2)
    g = (g[None, :] + g[:, None]).reshape(-1)
    g = np.exp(g - g.max())
    return (g / g.sum()).astype(np.float32).reshape(size, size, 1, 1)


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, index_map=False):
    for img in (img1, img2):
        if min(img.shape.as_list()[-3:-1]) < filter_size:
            raise ValueError(f"Image {img.shape} is smaller than the filter ({filter_size}).")
    kernel = _gaussian(int(filter_size), float(filter_sigma))

    def reducer(x):
        return _depthwise(x, kernel)

    mul, add, sub, div, square = _f("multiply"), _f("add"), _f("subtract"), _f("divide"), _f("square")
    c1 = square(mul(k1, max_val))
    c2 = square(mul(k2, max_val))
    mean0, mean1 = reducer(img1), reducer(img2)
    num0 = mul(mul(mean0, mean1), 2.0)
    den0 = add(square(mean0), square(mean1))
    luminance = div(add(num0, c1), add(den0, c1))
    num1 = mul(reducer(mul(img1, img2)), 2.0)
    den1 = reducer(add(square(img1), square(img2)))
    cs = div(add(sub(num1, num0), c2), add(sub(den1, den0), c2))
    if index_map:
        return mul(luminance, cs), cs
    return _f("reduce_mean")(mul(luminance, cs), [-3, -2]), _f("reduce_mean")(cs, [-3, -2])


def _ssim_inputs(img1, img2, max_val):
    img1, img2 = as_tensor(img1), as_tensor(img2)
    if img1.shape.as_list()[-3:] != img2.shape.as_list()[-3:]:
        raise ValueError(f"Shapes {img1.shape} and {img2.shape} are incompatible.")
    max_val = convert_image_dtype(_f("cast")(max_val, img1.dtype), dtypes.float32)
    return convert_image_dtype(img1, dtypes.float32), convert_image_dtype(img2, dtypes.float32), max_val


@public("image.ssim")
def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    img1, img2, max_val = _ssim_inputs(img1, img2, max_val)
    per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map)
    return _f("reduce_mean")(per_channel, [-1])


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


@public("image.ssim_multiscale")
def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5, k1=0.01,
                    k2=0.03):
    """Multiscale SSIM: per-channel SSIM at the finest scale times the contrast-structure terms of the
    coarser ones (each a 2x2 average pool, odd edges padded symmetrically), weighted by ``power_factors``."""
    img1, img2, max_val = _ssim_inputs(img1, img2, max_val)
    images = [img1, img2]
    mcs = []
    for k in range(len(power_factors)):
        if k > 0:
            pooled = []
            for img in images:
                h, w = img.shape.as_list()[-3:-1]
                pads = [[0, 0]] * (img.shape.rank - 3) + [[0, h % 2], [0, w % 2], [0, 0]]
                img = _f("pad")(img, pads, mode="SYMMETRIC")
                shape = img.shape.as_list()
                flat = _f("reshape")(img, [-1] + shape[-3:])
                out = _f("nn.avg_pool2d")(flat, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
                pooled.append(_f("reshape")(out, shape[:-3] + out.shape.as_list()[1:]))
            images = pooled
        value, cs = _ssim_per_channel(images[0], images[1], max_val, filter_size, filter_sigma, k1, k2)
        mcs.append(_f("nn.relu")(cs))
    mcs[-1] = _f("nn.relu")(value)
    stacked = _f("stack")(mcs, axis=-1)
    product = _f("reduce_prod")(_f("pow")(stacked, _f("constant")(list(power_factors), dtypes.float32)), [-1])
    return _f("reduce_mean")(product, [-1])


_NMS_HOST = {"max_output_size": "max_output_size", "iou_threshold": "iou_threshold",
             "score_threshold": "score_threshold"}


def _nms_shape(name, shapes, attrs, dtype):
    return ((dtypes.int32, (None,)), (dtype, (None,)), (dtypes.int32, ()))


op("NonMaxSuppressionV5", k.non_max_suppression_scores, {CPU: ("float16", "float32")}, devices=(CPU,),
   host_args=_NMS_HOST, multi=True, shape=_nms_shape)
op("NonMaxSuppressionWithOverlaps", k.non_max_suppression_overlaps, {CPU: ("float32",)}, devices=(CPU,),
   host_args={"max_output_size": "max_output_size", "overlap_threshold": "overlap_threshold",
              "score_threshold": "score_threshold"})


def _nms_attrs(max_output_size, threshold, score_threshold, key="iou_threshold"):
    return {"max_output_size": int(host_arg(max_output_size)), key: float(host_arg(threshold, dtypes.float32)),
            "score_threshold": float(host_arg(score_threshold, dtypes.float32))}


@public("image.non_max_suppression_with_scores")
def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    if float(soft_nms_sigma) != 0.0:
        raise NotImplementedError("devtrace does not implement tf.image.non_max_suppression_with_scores's "
                                  "soft_nms_sigma yet")
    boxes = as_tensor(boxes)
    attrs = dict(_nms_attrs(max_output_size, iou_threshold, score_threshold), pad_to_max_output_size=False)
    indices, values, _ = execute("NonMaxSuppressionV5", (boxes, _f("cast")(scores, boxes.dtype)), attrs, name=name)
    return indices, values


@public("image.non_max_suppression_padded")
def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """Unbatched boxes: ``NonMaxSuppressionV5``'s kept indices (padded with 0 to ``max_output_size``
    when asked) and how many."""
    boxes = as_tensor(boxes)
    if boxes.shape.rank != 2:
        raise NotImplementedError("devtrace does not implement tf.image.non_max_suppression_padded of batched "
                                  "boxes yet")
    attrs = dict(_nms_attrs(max_output_size, iou_threshold, score_threshold),
                 pad_to_max_output_size=bool(pad_to_max_output_size))
    indices, _, count = execute("NonMaxSuppressionV5", (boxes, _f("cast")(scores, boxes.dtype)), attrs, name=name)
    return indices, count


@public("image.non_max_suppression_overlaps")
def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    attrs = _nms_attrs(max_output_size, overlap_threshold, score_threshold, "overlap_threshold")
    return execute("NonMaxSuppressionWithOverlaps", (as_tensor(overlaps), _f("cast")(scores, dtypes.float32)), attrs,
                   name=name)
