"""The kernels of ``tf.image``'s own ops, as TensorFlow's C++ kernels compute them: ``xp`` arrays in,
``xp`` arrays out (NHWC images)."""

from __future__ import annotations

import math

import numpy as np

FLOAT_OUT = np.float32


def _half_pixel_source(xp, out_size, in_size):
    """Where each output row samples its input (TensorFlow's ``HalfPixelScaler``)."""
    return (xp.arange(out_size, dtype=xp.float32) + 0.5) * (in_size / out_size) - 0.5


def _legacy_source(xp, out_size, in_size, align_corners):
    scale = (in_size - 1) / (out_size - 1) if align_corners and out_size > 1 else in_size / out_size
    return xp.arange(out_size, dtype=xp.float32) * xp.float32(scale)


def resize_bilinear(xp, images, size=(1, 1), align_corners=False, half_pixel_centers=False):
    """``ResizeBilinear``: float32 out, whatever the input's type."""
    _, h, w, _ = images.shape
    out_h, out_w = int(size[0]), int(size[1])
    x = images.astype(xp.float32)

    def axis(out_size, in_size):
        src = (_half_pixel_source(xp, out_size, in_size) if half_pixel_centers
               else _legacy_source(xp, out_size, in_size, align_corners))
        floor = xp.floor(src)
        lower = xp.maximum(floor, 0).astype(xp.int64)
        upper = xp.minimum(xp.ceil(src), in_size - 1).astype(xp.int64)
        return lower, upper, (src - floor).astype(xp.float32)

    ty, by, ly = axis(out_h, h)
    lx, rx, lxw = axis(out_w, w)
    top = x[:, ty][:, :, lx] + (x[:, ty][:, :, rx] - x[:, ty][:, :, lx]) * lxw[None, None, :, None]
    bottom = x[:, by][:, :, lx] + (x[:, by][:, :, rx] - x[:, by][:, :, lx]) * lxw[None, None, :, None]
    return (top + (bottom - top) * ly[None, :, None, None]).astype(xp.float32)


def resize_nearest(xp, images, size=(1, 1), align_corners=False, half_pixel_centers=False):
    """``ResizeNearestNeighbor``: the input's type out."""
    _, h, w, _ = images.shape

    def axis(out_size, in_size):
        scale = ((in_size - 1) / (out_size - 1) if align_corners and out_size > 1 else in_size / out_size)
        pos = xp.arange(out_size, dtype=xp.float32)
        if half_pixel_centers:
            src = xp.floor((pos + 0.5) * xp.float32(scale))
        else:
            src = pos * xp.float32(scale)
            src = xp.round(src) if align_corners else xp.floor(src)
        return xp.clip(src, 0, in_size - 1).astype(xp.int64)

    return images[:, axis(int(size[0]), h)][:, :, axis(int(size[1]), w)]


def _cubic_weights(xp, t, a):
    """Keys' cubic convolution weights of the four taps around a sample ``t`` past its floor."""
    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return xp.stack([far(t + 1), near(t), near(1 - t), far(2 - t)], axis=-1)


def resize_bicubic(xp, images, size=(1, 1), align_corners=False, half_pixel_centers=False):
    """``ResizeBicubic``: Keys' cubic (a = -0.5, taps outside the image dropped and the rest renormalised)
    with half-pixel centers, else a = -0.75 with clamped taps, as TensorFlow's legacy kernel."""
    _, h, w, _ = images.shape
    x = images.astype(xp.float64)

    def matrix(out_size, in_size):  # the interpolation weights, built on the host
        src = (_half_pixel_source(np, out_size, in_size) if half_pixel_centers
               else _legacy_source(np, out_size, in_size, align_corners)).astype(np.float64)
        floor = np.floor(src)
        t = np.rint((src - floor) * 1024) / 1024  # TensorFlow reads the weights from a 1024-entry table
        weights = _cubic_weights(np, t, -0.5 if half_pixel_centers else -0.75)
        taps = floor.astype(np.int64)[:, None] + np.arange(-1, 3)[None, :]
        inside = (taps >= 0) & (taps < in_size)
        if half_pixel_centers:
            weights = np.where(inside, weights, 0.0)
            weights = weights / weights.sum(axis=1, keepdims=True)
        m = np.zeros((out_size, in_size))
        np.add.at(m, (np.repeat(np.arange(out_size), 4), np.clip(taps, 0, in_size - 1).ravel()), weights.ravel())
        return xp.asarray(m)

    out = xp.einsum("oh,bhwc->bowc", matrix(int(size[0]), h), x)
    return xp.einsum("pw,bowc->bopc", matrix(int(size[1]), w), out).astype(xp.float32)


def resize_area(xp, images, size=(1, 1), align_corners=False):
    """``ResizeArea``: each output pixel the area-weighted mean of the input pixels it covers."""
    _, h, w, _ = images.shape

    def matrix(out_size, in_size):
        scale = (in_size - 1) / (out_size - 1) if align_corners and out_size > 1 else in_size / out_size
        m = np.zeros((out_size, in_size))
        for o in range(out_size):
            start, end = o * scale, (o + 1) * scale
            for i in range(int(math.floor(start)), min(int(math.ceil(end)), in_size)):
                m[o, i] = (min(i + 1, end) - max(i, start)) / scale
        return xp.asarray(m)

    out = xp.einsum("oh,bhwc->bowc", matrix(int(size[0]), h), images.astype(xp.float64))
    return xp.einsum("pw,bowc->bopc", matrix(int(size[1]), w), out).astype(xp.float32)


def _lanczos(radius):
    def kernel(x):
        x = np.abs(x)
        sinc = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / np.maximum(np.pi ** 2 * x * x, 1e-30)
        out = np.where(x > 1e-3, sinc, 1.0)
        return np.where(x > radius, 0.0, out)
    return kernel, float(radius)


def _keys_cubic(x):
    x = np.abs(x)
    return np.where(x >= 2, 0.0, np.where(x >= 1, ((-0.5 * x + 2.5) * x - 4) * x + 2, (1.5 * x - 2.5) * x * x + 1))


def _mitchell(x):
    x = np.abs(x)
    return np.where(x >= 2, 0.0, np.where(x >= 1, (((-7 / 18) * x + 2) * x - 10 / 3) * x + 16 / 9,
                                           ((7 / 6) * x - 2) * x * x + 8 / 9))


KERNELS = {
    "lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
    "gaussian": (lambda x: np.where(np.abs(x) >= 1.5, 0.0, np.exp(-x * x / (2 * 0.5 * 0.5))), 1.5),
    "box": (lambda x: np.where(np.abs(x) < 0.5, 1.0, np.where(np.abs(x) == 0.5, 0.5, 0.0)), 0.5),
    "triangle": (lambda x: np.maximum(0.0, 1 - np.abs(x)), 1.0),
    "keyscubic": (_keys_cubic, 2.0),
    "mitchellcubic": (_mitchell, 2.0),
}


def scale_and_translate(xp, images, size=(1, 1), scale=(1.0, 1.0), translation=(0.0, 0.0),
                        kernel_type="lanczos3", antialias=True):
    """``ScaleAndTranslate``: each output pixel a normalised, kernel-weighted sum of the input pixels
    around its source position (the kernel widened by the inverse scale when ``antialias``)."""
    _, h, w, _ = images.shape
    fn, radius = KERNELS[kernel_type]

    def matrix(out_size, in_size, s, t):
        inv = 1.0 / s
        kscale = max(inv, 1.0) if antialias else 1.0
        sample = (np.arange(out_size) + 0.5 - t) * inv
        span = radius * kscale
        taps = np.arange(in_size)[None, :] + 0.5
        weights = fn((taps - sample[:, None]) / kscale)
        weights = np.where(np.abs(taps - sample[:, None]) <= span, weights, 0.0)
        total = weights.sum(axis=1, keepdims=True)
        normalised = weights / np.where(total == 0, 1, total)
        weights = np.where(np.abs(total) > 1000 * np.finfo(np.float32).tiny, normalised, 0.0)
        outside = (sample < 0) | (sample > in_size)
        weights[outside] = 0.0
        return xp.asarray(weights.astype(np.float32))

    x = images.astype(xp.float32)
    out = xp.einsum("oh,bhwc->bowc", matrix(int(size[0]), h, float(scale[0]), float(translation[0])), x)
    return xp.einsum("pw,bowc->bopc", matrix(int(size[1]), w, float(scale[1]), float(translation[1])), out)


def rgb_to_hsv(xp, rgb):
    """``RGBToHSV``: hue in [0, 1), as TensorFlow's kernel (0 where the pixel is gray)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = xp.maximum(xp.maximum(r, g), b)
    spread = v - xp.minimum(xp.minimum(r, g), b)
    safe_v = xp.where(v > 0, v, 1)
    s = xp.where(v > 0, spread / safe_v, 0)
    safe = xp.where(spread > 0, spread, 1)
    h = xp.where(r == v, (g - b) / safe, xp.where(g == v, 2 + (b - r) / safe, 4 + (r - g) / safe)) / 6
    h = xp.where(h < 0, h + 1, h)
    h = xp.where(spread > 0, h, 0)
    return xp.stack([h, s, v], axis=-1).astype(rgb.dtype)


def hsv_to_rgb(xp, hsv):
    """``HSVToRGB``: TensorFlow's sector formula (hue sector ``floor(6h)``, outside [0, 6) black)."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    c = s * v
    m = v - c
    dh = h * 6
    sector = xp.floor(dh)
    x = c * (1 - xp.abs(xp.fmod(dh, 2) - 1))
    zero = xp.zeros_like(c)
    table = [(c, x, zero), (x, c, zero), (zero, c, x), (zero, x, c), (x, zero, c), (c, zero, x)]
    channels = []
    for k in range(3):
        value = zero
        for i, entry in enumerate(table):
            value = xp.where(sector == i, entry[k], value)
        channels.append(value + m)
    return xp.stack(channels, axis=-1).astype(hsv.dtype)


def adjust_hue(xp, images, delta=0.0):
    """``AdjustHue``: the hue turned by ``delta`` of a full turn."""
    hsv = rgb_to_hsv(xp, images.astype(xp.float32))
    h = xp.fmod(hsv[..., 0] + xp.float32(delta), 1.0)
    hsv[..., 0] = xp.where(h < 0, h + 1, h)
    return hsv_to_rgb(xp, hsv).astype(images.dtype)


def adjust_saturation(xp, images, scale=1.0):
    """``AdjustSaturation``: the saturation scaled by ``scale``, clamped to [0, 1]."""
    hsv = rgb_to_hsv(xp, images.astype(xp.float32))
    hsv[..., 1] = xp.clip(hsv[..., 1] * xp.float32(scale), 0, 1)
    return hsv_to_rgb(xp, hsv).astype(images.dtype)


def adjust_contrast(xp, images, contrast_factor=1.0):
    """``AdjustContrastv2``: each channel pulled from (or pushed away from) its mean over the image."""
    x = images.astype(xp.float32)
    mean = x.mean(axis=(-3, -2), keepdims=True)
    return ((x - mean) * xp.float32(contrast_factor) + mean).astype(images.dtype)


_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                            [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]])


def draw_bounding_boxes(xp, images, boxes, colors=None):
    """``DrawBoundingBoxesV2``: each box's outline in its color (``colors`` cycled), the edges at
    ``int(coordinate * (size - 1))``."""
    canvas = np.array(images, copy=True) if xp is np else xp.asnumpy(images).copy()
    boxes = boxes if xp is np else xp.asnumpy(boxes)
    table = _DEFAULT_COLORS if colors is None or np.size(colors) == 0 else np.asarray(
        colors if xp is np else xp.asnumpy(colors), np.float64)
    _, height, width, depth = canvas.shape
    for b in range(canvas.shape[0]):
        for i, box in enumerate(boxes[b]):
            color = table[i % len(table)]
            top, bottom = int(np.float32(box[0]) * (height - 1)), int(np.float32(box[2]) * (height - 1))
            left, right = int(np.float32(box[1]) * (width - 1)), int(np.float32(box[3]) * (width - 1))
            if top > bottom or left > right or top >= height or bottom < 0 or left >= width or right < 0:
                continue
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            cols = slice(max(left, 0), min(right, width - 1) + 1)
            paint = color[:depth].astype(canvas.dtype)
            n = len(paint)
            if top >= 0:
                canvas[b, top, cols, :n] = paint
            if bottom < height:
                canvas[b, bottom, cols, :n] = paint
            if left >= 0:
                canvas[b, rows, left, :n] = paint
            if right < width:
                canvas[b, rows, right, :n] = paint
    return xp.asarray(canvas)


def crop_and_resize(xp, image, boxes, box_index, crop_size=(1, 1), method="bilinear", extrapolation_value=0.0):
    """``CropAndResize``: each box (normalised ``y1, x1, y2, x2``) of its batch entry sampled on a
    ``crop_size`` grid spanning the box's corners; samples outside the image take
    ``extrapolation_value``."""
    _, h, w, _ = image.shape
    crop_h, crop_w = int(crop_size[0]), int(crop_size[1])
    x = image.astype(xp.float32)
    out = []
    for box, b in zip(_host(xp, boxes).astype(np.float32), _host(xp, box_index).astype(np.int64)):
        y1, x1, y2, x2 = (float(v) for v in box)

        def axis(n, lo, hi, size):
            if n > 1:
                return lo * (size - 1) + xp.arange(n, dtype=xp.float32) * ((hi - lo) * (size - 1) / (n - 1))
            return xp.full((1,), 0.5 * (lo + hi) * (size - 1), dtype=xp.float32)

        ys, xs = axis(crop_h, y1, y2, h), axis(crop_w, x1, x2, w)
        valid = ((ys >= 0) & (ys <= h - 1))[:, None] & ((xs >= 0) & (xs <= w - 1))[None, :]
        img = x[int(b)]
        if method == "nearest":
            yi = xp.clip(xp.sign(ys) * xp.floor(xp.abs(ys) + 0.5), 0, h - 1).astype(xp.int64)  # roundf: halves away
            xi = xp.clip(xp.sign(xs) * xp.floor(xp.abs(xs) + 0.5), 0, w - 1).astype(xp.int64)
            crop = img[yi][:, xi]
        else:
            top, left = xp.floor(ys), xp.floor(xs)
            ty, lx = xp.clip(top, 0, h - 1).astype(xp.int64), xp.clip(left, 0, w - 1).astype(xp.int64)
            by = xp.clip(xp.ceil(ys), 0, h - 1).astype(xp.int64)
            rx = xp.clip(xp.ceil(xs), 0, w - 1).astype(xp.int64)
            yl, xl = (ys - top)[:, None, None], (xs - left)[None, :, None]
            upper = img[ty][:, lx] + (img[ty][:, rx] - img[ty][:, lx]) * xl
            lower = img[by][:, lx] + (img[by][:, rx] - img[by][:, lx]) * xl
            crop = upper + (lower - upper) * yl
        out.append(xp.where(valid[:, :, None], crop, xp.float32(extrapolation_value)))
    if not out:
        return xp.zeros((0, crop_h, crop_w, image.shape[-1]), xp.float32)
    return xp.stack(out).astype(xp.float32)


def _greedy(scores, overlap, max_output_size, threshold, score_threshold):
    """The indices greedily kept, best score first (ties: lower index), each overlapping every box
    kept before it by at most ``threshold``."""
    order = sorted((i for i in range(len(scores)) if scores[i] > score_threshold), key=lambda i: (-scores[i], i))
    kept = []
    for i in order:
        if len(kept) >= int(max_output_size):
            break
        if all(overlap(i, j) <= threshold for j in kept):
            kept.append(i)
    return kept


def _iou(boxes):
    boxes = np.asarray(boxes, np.float64)
    y_lo, y_hi = np.minimum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 0], boxes[:, 2])
    x_lo, x_hi = np.minimum(boxes[:, 1], boxes[:, 3]), np.maximum(boxes[:, 1], boxes[:, 3])
    area = (y_hi - y_lo) * (x_hi - x_lo)

    def iou(i, j):
        inter = max(0.0, min(y_hi[i], y_hi[j]) - max(y_lo[i], y_lo[j])) * max(
            0.0, min(x_hi[i], x_hi[j]) - max(x_lo[i], x_lo[j]))
        union = area[i] + area[j] - inter
        return inter / union if union > 0 else 0.0
    return iou


def _host(xp, array):
    return np.asarray(array if xp is np else xp.asnumpy(array), np.float64)


def non_max_suppression(xp, boxes, scores, max_output_size=0, iou_threshold=0.5, score_threshold=float("-inf")):
    """``NonMaxSuppressionV3``: greedily the highest-scoring boxes whose IoU with every box kept
    before is at most ``iou_threshold`` (boxes' corners in either order), at most ``max_output_size``."""
    kept = _greedy(_host(xp, scores), _iou(_host(xp, boxes)), max_output_size, iou_threshold, score_threshold)
    return xp.asarray(np.array(kept, np.int32))


def non_max_suppression_scores(xp, boxes, scores, max_output_size=0, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False):
    """``NonMaxSuppressionV5`` without soft-NMS: the kept indices, their scores and how many."""
    host_scores = _host(xp, scores)
    kept = _greedy(host_scores, _iou(_host(xp, boxes)), max_output_size, iou_threshold, score_threshold)
    count = len(kept)
    indices = np.array(kept, np.int32)
    values = host_scores[indices].astype(np.asarray(scores).dtype if xp is np else scores.dtype)
    if pad_to_max_output_size:
        indices = np.pad(indices, (0, int(max_output_size) - count))
        values = np.pad(values, (0, int(max_output_size) - count))
    return xp.asarray(indices), xp.asarray(values), xp.asarray(np.int32(count))


def non_max_suppression_overlaps(xp, overlaps, scores, max_output_size=0, overlap_threshold=0.5,
                                 score_threshold=float("-inf")):
    """``NonMaxSuppressionWithOverlaps``: as V3, the overlaps given."""
    table = _host(xp, overlaps)
    kept = _greedy(_host(xp, scores), lambda i, j: table[i, j], max_output_size, overlap_threshold, score_threshold)
    return xp.asarray(np.array(kept, np.int32))


def extract_patches(xp, images, ksizes=(1, 1, 1, 1), strides=(1, 1, 1, 1), rates=(1, 1, 1, 1), padding="VALID"):
    """``ExtractImagePatches``: each ``ksizes`` patch (dilated by ``rates``) flattened into the depth."""
    _, h, w, c = images.shape
    kh, kw = int(ksizes[1]), int(ksizes[2])
    sh, sw = int(strides[1]), int(strides[2])
    rh, rw = int(rates[1]), int(rates[2])
    eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    if padding == "SAME":
        oh, ow = -(-h // sh), -(-w // sw)
        ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
        images = xp.pad(images, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
    rows = []
    for i in range(kh):
        for j in range(kw):
            rows.append(images[:, i * rh: i * rh + (oh - 1) * sh + 1: sh, j * rw: j * rw + (ow - 1) * sw + 1: sw, :])
    return xp.concatenate(rows, axis=-1) if rows else images


def extract_glimpse(xp, images, offsets, size=(1, 1), centered=True, normalized=True, uniform_noise=True,
                    noise="uniform"):
    """``ExtractGlimpseV2``: a ``size`` window of each image at its offset (``y, x``: the window's
    top-left corner, from the image's centre when ``centered``, in [0, 1] of the image when
    ``normalized`` — both: [-1, 1], the window's centre); where it leaves the image, noise
    (``"zero"``: zeros; uniform or Gaussian noise of the image's range, unseeded as TensorFlow's)."""
    batch, h, w, c = images.shape
    gh, gw = int(size[0]), int(size[1])
    out = xp.zeros((batch, gh, gw, c), xp.float32)
    host = np.asarray(offsets if xp is np else xp.asnumpy(offsets), np.float32)
    for b in range(batch):
        y, x = float(host[b][0]), float(host[b][1])
        if normalized and centered:  # the offset is the window's centre
            y, x = (y + 1) / 2 * h - gh / 2.0, (x + 1) / 2 * w - gw / 2.0
        elif normalized:
            y, x = y * h, x * w
        elif centered:
            y, x = y + h / 2.0, x + w / 2.0
        top, left = int(y), int(x)
        image = images[b].astype(xp.float32)
        if noise == "zero":
            fill = xp.zeros((gh, gw, c), xp.float32)
        elif noise == "gaussian" or not uniform_noise:
            fill = xp.asarray(np.random.standard_normal((gh, gw, c)).astype(np.float32))
        else:
            lo, hi = float(image.min()), float(image.max())
            fill = xp.asarray(np.random.uniform(lo, hi, (gh, gw, c)).astype(np.float32))
        rows, cols = np.arange(top, top + gh), np.arange(left, left + gw)
        inside = ((rows >= 0) & (rows < h))[:, None] & ((cols >= 0) & (cols < w))[None, :]
        window = image[xp.asarray(np.clip(rows, 0, h - 1))][:, xp.asarray(np.clip(cols, 0, w - 1))]
        out[b] = xp.where(xp.asarray(inside)[:, :, None], window, fill)
    return out
