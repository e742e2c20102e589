"""``ImageProjectiveTransformV3``: each output pixel ``(x, y)`` of image ``b`` reads the input at
``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1`` (``transforms[b]``),
the coordinates folded as the fill mode folds them (TensorFlow's ``map_coordinate``: reflect,
wrap, nearest, constant) and read by nearest or bilinear interpolation, outside pixels
``fill_value``. What Keras's ``ops.image.affine_transform`` and its random rotation, zoom and
translation layers run (the output shape and the fill value as attributes here, where TensorFlow
feeds them as inputs)."""

from __future__ import annotations

import numpy as np

from ...runtime.registry import CPU, GPU
from ..declare import op


def _fold(xp, c, n, mode):
    if mode == "CONSTANT":
        return c
    if n <= 1:
        return xp.zeros_like(c)
    if mode == "NEAREST":
        return xp.clip(c, 0, n - 1)
    if mode == "REFLECT":
        sz2 = 2.0 * n
        neg = sz2 * xp.trunc(-c / sz2) + c
        neg = xp.where(neg < -n, neg + sz2, -neg - 1.0)
        pos = c - sz2 * xp.trunc(c / sz2)
        pos = xp.where(pos >= n, sz2 - pos - 1.0, pos)
    elif mode == "WRAP":
        sz = n - 1.0
        neg = c + n * (xp.trunc(-c / sz) + 1.0)
        pos = c - n * xp.trunc(c / sz)
    else:
        raise ValueError(f"Unknown fill_mode: {mode}")
    return xp.clip(xp.where(c < 0, neg, xp.where(c > n - 1, pos, c)), 0, n - 1)


def _transform(xp, images, transforms, output_shape=None, fill_value=0.0, interpolation="BILINEAR",
               fill_mode="CONSTANT"):
    n, h, w, c = images.shape
    oh, ow = tuple(output_shape) if output_shape else (h, w)
    rows, cols = xp.meshgrid(xp.arange(oh, dtype=xp.float32), xp.arange(ow, dtype=xp.float32), indexing="ij")
    t = transforms.astype(xp.float32).reshape(-1, 8, 1, 1)
    if t.shape[0] == 1 and n > 1:
        t = xp.broadcast_to(t, (n, 8, 1, 1))
    k = t[:, 6] * cols + t[:, 7] * rows + 1.0
    in_x = _fold(xp, (t[:, 0] * cols + t[:, 1] * rows + t[:, 2]) / k, w, fill_mode)
    in_y = _fold(xp, (t[:, 3] * cols + t[:, 4] * rows + t[:, 5]) / k, h, fill_mode)
    batch = xp.arange(n)[:, None, None]

    def read(yy, xx):
        yi, xi = yy.astype(np.int64), xx.astype(np.int64)
        inside = (yi >= 0) & (yi < h) & (xi >= 0) & (xi < w)
        values = images[batch, xp.clip(yi, 0, h - 1), xp.clip(xi, 0, w - 1)].astype(xp.float32)
        return xp.where(inside[..., None], values, xp.float32(fill_value))

    if interpolation == "NEAREST":
        def round_half_away(v):  # std::round, as TensorFlow's kernel rounds
            return xp.sign(v) * xp.floor(xp.abs(v) + 0.5)

        out = read(round_half_away(in_y), round_half_away(in_x))
    else:
        x0, y0 = xp.floor(in_x), xp.floor(in_y)
        x1, y1 = x0 + 1.0, y0 + 1.0
        top = (x1 - in_x)[..., None] * read(y0, x0) + (in_x - x0)[..., None] * read(y0, x1)
        bottom = (x1 - in_x)[..., None] * read(y1, x0) + (in_x - x0)[..., None] * read(y1, x1)
        out = (y1 - in_y)[..., None] * top + (in_y - y0)[..., None] * bottom
    return out.astype(images.dtype)


def _shape(name, shapes, attrs, dtype):
    x = shapes[0]
    if x is None:
        return dtype, None
    size = tuple(attrs.get("output_shape") or x[1:3])
    return dtype, (x[0], *size, x[3])


_GPU = frozenset(("uint8", "int32", "int64", "float16", "float32", "float64"))
op("ImageProjectiveTransformV3", _transform, {CPU: _GPU | {"bfloat16"}, GPU: _GPU}, mixed_dtypes=True,
   host_args=("output_shape",), shape=_shape)
