"""More of ``keras.ops.image``: ``map_coordinates``, ``gaussian_blur``, ``elastic_transform``,
``perspective_transform``, ``sobel_edges`` and ``extract_patches_3d`` — on devtrace's ops, as Keras's
TensorFlow backend composes them (``data_format="channels_first"`` transposed there and back)."""

from __future__ import annotations

import functools
import itertools
import operator

import devtrace as tf

_INTERPOLATIONS = ("nearest", "bilinear")
_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _first(data_format) -> bool:
    """Whether images come channels first (``data_format``, else Keras's ``image_data_format()``)."""
    from .. import config

    data_format = data_format or config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return data_format == "channels_first"


def _rank_3_or_4(images, what="images"):
    if images.shape.rank not in (3, 4):
        raise ValueError(f"Invalid {what} rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: {what}.shape={images.shape}")


def _indices_and_weights(coordinate, order):
    if order == 0:
        rounded = coordinate if coordinate.dtype.is_integer else tf.round(coordinate)
        return [(tf.cast(rounded, tf.int32), tf.constant(1, coordinate.dtype))]
    lower = tf.floor(coordinate)
    upper_weight = coordinate - lower
    index = tf.cast(lower, tf.int32)
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def _fixed(index, size, fill_mode):
    """The index to read for ``index`` under ``fill_mode``, and whether it lies inside."""
    if fill_mode == "constant":
        return tf.clip_by_value(index, 0, size - 1), (index >= 0) & (index < size)
    if fill_mode == "nearest":
        return tf.clip_by_value(index, 0, size - 1), tf.ones_like(index, dtype=tf.bool)
    if fill_mode == "wrap":
        return tf.math.floormod(index, size), tf.ones_like(index, dtype=tf.bool)
    index = tf.abs(index)
    mod = tf.math.floormod(index, 2 * size)
    under = mod < size
    index = tf.where(under, mod, 2 * size - mod)
    if fill_mode == "reflect":
        index = tf.where(under, index, index - 1)
    return index, tf.ones_like(index, dtype=tf.bool)


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """``inputs`` read at ``coordinates`` (one array of positions per axis), nearest (``order=0``)
    or multilinear (``order=1``), outside positions per ``fill_mode`` (SciPy's ``map_coordinates``)."""
    inputs, coordinates = tf.convert_to_tensor(inputs), tf.convert_to_tensor(coordinates)
    if coordinates.shape[0] != inputs.shape.rank:
        raise ValueError("First dim of `coordinates` must be the same as the rank of `inputs`. Received inputs "
                         f"with shape: {inputs.shape} and coordinate leading dim of {coordinates.shape[0]}")
    if coordinates.shape.rank < 2:
        raise ValueError(f"Invalid coordinates rank: expected at least rank 2. Received input with shape: "
                         f"{coordinates.shape}")
    if fill_mode not in _FILL_MODES:
        raise ValueError("Invalid value for argument `fill_mode`. Expected one of {'constant', 'nearest', 'wrap', "
                         f"'mirror', 'reflect'}}. Received: fill_mode={fill_mode}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    per_axis = []
    for coordinate, size in zip(tf.unstack(coordinates, axis=0), inputs.shape):
        per_axis.append([(*_fixed(index, size, fill_mode), weight)
                         for index, weight in _indices_and_weights(coordinate, order)])
    outputs = []
    for corner in itertools.product(*per_axis):
        indices, valid, weights = zip(*corner)
        values = tf.cast(tf.gather_nd(inputs, tf.stack(indices, axis=-1)), weights[0].dtype)
        if fill_mode == "constant":
            values = tf.where(tf.reduce_all(tf.stack(valid), axis=0), values, tf.cast(fill_value, values.dtype))
        outputs.append(functools.reduce(operator.mul, weights) * values)
    result = functools.reduce(operator.add, outputs)
    if inputs.dtype.is_integer:
        result = tf.round(result)
    return tf.cast(result, inputs.dtype)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """A depthwise ``SAME`` convolution with the separable Gaussian kernel of ``kernel_size`` and ``sigma``."""
    images = tf.convert_to_tensor(images)
    dtype = images.dtype
    _rank_3_or_4(images)
    single = images.shape.rank == 3
    if single:
        images = images[None]
    first = data_format is not None and _first(data_format)
    if first:
        images = tf.transpose(images, (0, 2, 3, 1))
    size = tf.cast(tf.convert_to_tensor(kernel_size), dtype)
    sigma = tf.cast(tf.convert_to_tensor(sigma), dtype)

    def one_dim(n, s):
        x = tf.range(n, dtype=dtype) - (n - 1) / 2
        k = tf.exp(-0.5 * (x / s) ** 2)
        return k / tf.reduce_sum(k)
    kernel = tf.tensordot(one_dim(size[1], sigma[1]), one_dim(size[0], sigma[0]), axes=0)
    kernel = tf.tile(tf.reshape(kernel, (int(kernel_size[0]), int(kernel_size[1]), 1, 1)), [1, 1, images.shape[-1], 1])
    out = tf.nn.depthwise_conv2d(images, tf.cast(kernel, dtype), strides=[1, 1, 1, 1], padding="SAME")
    if first:
        out = tf.transpose(out, (0, 3, 1, 2))
    return out[0] if single else out


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                      seed=None, data_format=None):
    """Each pixel moved by ``alpha`` times a Gaussian-smoothed (``sigma``) random field, read back with
    ``map_coordinates``."""
    from .. import random as keras_random

    first = _first(data_format)
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {_FILL_MODES}. "
                         f"Received: fill_mode={fill_mode}")
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    dtype = images.dtype
    alpha, sigma_t = tf.cast(alpha, dtype), tf.cast(sigma, dtype)
    k = 6 * int(sigma) | 1
    single = images.shape.rank == 3
    if single:
        images = images[None]
    if first:
        batch, channels, height, width = images.shape
        channel_axis = 1
    else:
        batch, height, width, channels = images.shape
        channel_axis = -1
    seed = keras_random._seed(seed)
    batch = batch or 1
    fields = [tf.random.stateless_normal((batch, height, width), seed, dtype=dtype) * sigma_t for _ in range(2)]
    dx, dy = (tf.squeeze(gaussian_blur(tf.expand_dims(f, channel_axis), (k, k), (sigma_t, sigma_t),
                                       "channels_first" if first else "channels_last"), channel_axis)
              for f in fields)
    x, y = tf.meshgrid(tf.range(width, dtype=dtype), tf.range(height, dtype=dtype), indexing="xy")
    moved_x, moved_y = x[None] + alpha * dx, y[None] + alpha * dy
    order = _INTERPOLATIONS.index(interpolation)
    planes = []
    for c in range(channels):
        planes.append(tf.stack([map_coordinates(images[b, c] if first else images[b, ..., c], [moved_y[b], moved_x[b]],
                                                order, fill_mode, fill_value) for b in range(batch)]))
    out = tf.cast(tf.stack(planes, axis=1 if first else -1), dtype)
    return out[0] if single else out


def _homography(start, end):
    """The 8 projective coefficients taking ``end``'s corners to ``start``'s (``tf.linalg.solve``)."""
    rows, targets = [], []
    zero, one = tf.zeros_like(end[:, 0, 0]), tf.ones_like(end[:, 0, 0])
    for i in range(4):
        sx, sy, ex, ey = start[:, i, 0], start[:, i, 1], end[:, i, 0], end[:, i, 1]
        rows.append(tf.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], axis=-1))
        rows.append(tf.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], axis=-1))
        targets += [sx, sy]
    solution = tf.linalg.solve(tf.stack(rows, axis=1), tf.stack(targets, axis=-1)[..., None])
    return tf.reshape(solution, [-1, 8])


def perspective_transform(images, start_points, end_points, interpolation="bilinear", fill_value=0,
                          data_format=None):
    """The projective transform taking ``start_points`` (four corners) to ``end_points``, one
    ``ImageProjectiveTransformV3``."""
    from ..layers_augment import affine_transform as transform_images

    first = _first(data_format)
    start, end = tf.convert_to_tensor(start_points, tf.float32), tf.convert_to_tensor(end_points, tf.float32)
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    for name, points in (("start_points", start), ("end_points", end)):
        if points.shape.rank not in (2, 3) or tuple(points.shape[-2:]) != (4, 2):
            raise ValueError(f"Invalid {name} shape: expected (4,2) for a single image or (N,4,2) for a batch. "
                             f"Received shape: {points.shape}")
    if start.shape != end.shape:
        raise ValueError(f"start_points and end_points must have the same shape. Received "
                         f"start_points.shape={start.shape}, end_points.shape={end.shape}")
    single = images.shape.rank == 3
    if single:
        images = images[None]
    if start.shape.rank == 2:
        start, end = start[None], end[None]
    if first:
        images = tf.transpose(images, (0, 2, 3, 1))
    out = transform_images(images, _homography(start, end), interpolation, "constant", fill_value)
    if first:
        out = tf.transpose(out, (0, 3, 1, 2))
    return out[0] if single else out


def sobel_edges(images, data_format=None):
    """``tf.image.sobel_edges``: ``(N, H, W, C, 2)``, or ``(N, C, H, W, 2)`` channels first."""
    images = tf.convert_to_tensor(images)
    first = _first(data_format)
    if first:
        images = tf.transpose(images, (0, 2, 3, 1))
    edges = tf.image.sobel_edges(images)
    return tf.transpose(edges, (0, 3, 1, 2, 4)) if first else edges


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Keras's: a ``Conv3D`` with the identity kernel, each patch's voxels on the channel axis."""
    volumes = tf.convert_to_tensor(volumes)
    if isinstance(size, int):
        size = (size,) * 3
    elif len(size) != 3:
        raise TypeError(f"Invalid `size` argument. Expected an int or a tuple of length 3. Received: size={size}")
    strides = size if strides is None else (strides,) * 3 if isinstance(strides, int) else tuple(strides)
    if len(strides) != 3:
        raise ValueError(f"Invalid `strides` argument. Got: {strides}")
    first = _first(data_format)
    single = volumes.shape.rank == 4
    if single:
        volumes = volumes[None]
    if first:
        volumes = tf.transpose(volumes, (0, 2, 3, 4, 1))
    channels = volumes.shape[-1]
    out_dim = size[0] * size[1] * size[2] * channels
    kernel = tf.reshape(tf.eye(out_dim, dtype=volumes.dtype), (*size, channels, out_dim))
    rates = (dilation_rate,) * 3 if isinstance(dilation_rate, int) else tuple(dilation_rate)
    patches = tf.nn.conv3d(volumes, kernel, (1, *strides, 1), padding.upper(), dilations=(1, *rates, 1))
    if first:
        patches = tf.transpose(patches, (0, 4, 1, 2, 3))
    return patches[0] if single else patches


__all__ = ["elastic_transform", "extract_patches_3d", "gaussian_blur", "map_coordinates", "perspective_transform",
           "sobel_edges"]
