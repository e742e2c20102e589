"""``tf.image.sample_distorted_bounding_box`` and its stateless twin (``SampleDistortedBoundingBoxV2``,
``StatelessSampleDistortedBoundingBox``): TensorFlow's kernel step for step — for each attempt an
aspect ratio from the stream's next float, a crop height drawn between the area bounds, its offsets,
kept when it covers enough of one box — over the same Philox stream (``SimplePhilox``: one 32-bit
word at a time), so a seed gives TensorFlow's crop."""

from __future__ import annotations

import math

import numpy as np

from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..declare import as_tensor, on_host, op, public
from ..random import philox
from ..random.random_ops import kernel_stream, seed_pair
from ..random.stateless_random_ops import _seed_stream

_INTS = ("int16", "int32", "int64", "int8", "uint16", "uint32", "uint64", "uint8")
_NO_BOXES = ("No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes if you wish to "
             "not provide any bounding boxes.")


class _SimplePhilox:
    """TensorFlow's ``SimplePhilox``: the stream's words one at a time."""

    def __init__(self, key: int, counter):
        self.key, self.counter, self.block, self.words = key, counter, 0, []

    def rand32(self) -> int:
        if not self.words:
            self.words = [int(w) for w in philox.words(self.key, self.counter, 1, self.block)[0]]
            self.block += 1
        return self.words.pop(0)

    def rand_float(self) -> float:
        return float(philox.to_float(np.array([self.rand32()], np.uint32), np.float32)[0])

    def uniform(self, n: int) -> int:
        """``ExactUniformInt``: a uniform integer in [0, n), by rejection."""
        if n & (n - 1) == 0:
            return self.rand32() & (n - 1)
        rem = (0xFFFFFFFF % n + 1) % n
        while True:
            bits = self.rand32()
            if bits >= rem:
                return bits % n


def _f32(x) -> float:
    return float(np.float32(x))


def _lrintf(x: float) -> int:
    return int(np.rint(np.float32(x)))


def _random_crop(width, height, min_rel, max_rel, aspect, rng):
    """``GenerateRandomCrop``: ``(x, y, w, h)`` or None."""
    min_area = _f32(_f32(min_rel * width) * height)
    max_area = _f32(_f32(max_rel * width) * height)
    h = _lrintf(math.sqrt(_f32(min_area / aspect)))
    max_h = _lrintf(math.sqrt(_f32(max_area / aspect)))
    if _lrintf(_f32(max_h * aspect)) > width:
        max_h = int(_f32((width + 0.5 - 0.0000001) / aspect))
        if _lrintf(_f32(max_h * aspect)) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += rng.uniform(max_h - h + 1)
    w = _lrintf(_f32(h * aspect))
    area = float(w * h)
    if area < min_area:
        h += 1
        w = _lrintf(_f32(h * aspect))
        area = float(w * h)
    if area > max_area:
        h -= 1
        w = _lrintf(_f32(h * aspect))
        area = float(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = rng.uniform(height - h) if h < height else 0
    x = rng.uniform(width - w) if w < width else 0
    return x, y, w, h


def _covers(crop, boxes, min_covered) -> bool:
    """``SatisfiesOverlapConstraints``."""
    x, y, w, h = crop
    if w * h < 1:
        return False
    for x0, y0, x1, y1 in boxes:
        area = (x1 - x0) * (y1 - y0)
        if area < 1:
            continue
        iw, ih = min(x + w, x1) - max(x, x0), min(y + h, y1) - max(y, y0)
        inter = iw * ih if iw > 0 and ih > 0 else 0
        if _f32(inter / area) >= min_covered:
            return True
    return False


def _sample(rng, image_size, boxes, min_covered, aspect_ratio_range, area_range, max_attempts,
            use_image_if_no_bounding_boxes):
    size = [int(v) for v in image_size]
    if len(size) != 3:
        raise ValueError(f"image_size must be 1-dimensional with 3 elements, got {size}")
    height, width = size[0], size[1]
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if ((boxes < 0) | (boxes > 1)).any():
        raise ValueError(f"All bounding box coordinates must be in [0.0, 1.0]: {boxes[((boxes < 0) | (boxes > 1)).any(1)][0][0]}")
    rects = [(int(np.float32(b[1]) * width), int(np.float32(b[0]) * height), int(np.float32(b[3]) * width),
              int(np.float32(b[2]) * height)) for b in boxes]
    if not rects:
        if not use_image_if_no_bounding_boxes:
            raise ValueError(_NO_BOXES)
        rects = [(0, 0, width, height)]
    lo_aspect, hi_aspect = (float(v) for v in aspect_ratio_range)
    crop = None
    for _ in range(int(max_attempts)):
        aspect = _f32(_f32(rng.rand_float() * _f32(hi_aspect - lo_aspect)) + lo_aspect)
        found = _random_crop(width, height, _f32(area_range[0]), _f32(area_range[1]), aspect, rng)
        if found is not None and _covers(found, rects, _f32(min_covered)):
            crop = found
            break
    x, y, w, h = crop or (0, 0, width, height)
    begin = np.array([y, x, 0])
    extent = np.array([h, w, -1])
    bbox = np.array([[[_f32(y / height), _f32(x / width), _f32((y + h) / height), _f32((x + w) / width)]]],
                    np.float32)
    return begin, extent, bbox


def _outputs(xp, image_size, begin, extent, bbox):
    dtype = on_host(xp, image_size).dtype
    return xp.asarray(begin.astype(dtype)), xp.asarray(extent.astype(dtype)), xp.asarray(bbox)


def _stateful_kernel(xp, image_size, bounding_boxes, min_object_covered, seed=None, aspect_ratio_range=(0.75, 1.33),
                     area_range=(0.05, 1.0), max_attempts=100, use_image_if_no_bounding_boxes=False):
    # TensorFlow caches a kernel (and its stream) per op and attributes: other attributes, a fresh stream
    kernel = ("SampleDistortedBoundingBoxV2", tuple(aspect_ratio_range), tuple(area_range), max_attempts,
              use_image_if_no_bounding_boxes)
    key, counter = kernel_stream(kernel, seed, "int32", 0, blocks=int(max_attempts))
    found = _sample(_SimplePhilox(key, counter), on_host(xp, image_size), on_host(xp, bounding_boxes),
                    float(on_host(xp, min_object_covered)), aspect_ratio_range, area_range, max_attempts,
                    use_image_if_no_bounding_boxes)
    return _outputs(xp, image_size, *found)


def _stateless_kernel(xp, image_size, bounding_boxes, min_object_covered, seed, aspect_ratio_range=(0.75, 1.33),
                      area_range=(0.05, 1.0), max_attempts=100, use_image_if_no_bounding_boxes=False):
    key, counter = _seed_stream(xp, seed)
    found = _sample(_SimplePhilox(key, counter), on_host(xp, image_size), on_host(xp, bounding_boxes),
                    float(on_host(xp, min_object_covered)), aspect_ratio_range, area_range, max_attempts,
                    use_image_if_no_bounding_boxes)
    return _outputs(xp, image_size, *found)


def _shape(name, shapes, attrs, dtype):
    return [(dtype, (3,)), (dtype, (3,)), ("float32", (1, 1, 4))]


op("SampleDistortedBoundingBoxV2", _stateful_kernel, {CPU: _INTS}, devices=(CPU,), shape=_shape, multi=True,
   mixed_dtypes=True, stateful=True)
op("StatelessSampleDistortedBoundingBox", _stateless_kernel, {CPU: _INTS}, devices=(CPU,), shape=_shape, multi=True,
   mixed_dtypes=True)


def _attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes) -> dict:
    return {"aspect_ratio_range": tuple(float(v) for v in aspect_ratio_range),
            "area_range": tuple(float(v) for v in area_range), "max_attempts": int(max_attempts or 100),
            "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}


@public("image.sample_distorted_bounding_box")
def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """``(begin, size, bboxes)``: a random crop covering ``min_object_covered`` of a box (TF 2's)."""
    image_size = as_tensor(image_size)
    attrs = _attrs(aspect_ratio_range or (0.75, 1.33), area_range or (0.05, 1.0), max_attempts,
                   use_image_if_no_bounding_boxes)
    attrs["seed"] = seed_pair(seed) if seed else None  # seed 0: a random crop, whatever the global seed
    return execute("SampleDistortedBoundingBoxV2",
                   (image_size, as_tensor(bounding_boxes), as_tensor(np.float32(min_object_covered))), attrs,
                   name=name, dtype=image_size.dtype)


@public("image.stateless_sample_distorted_bounding_box")
def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed, min_object_covered=0.1,
                                            aspect_ratio_range=None, area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """The stateless twin: the crop is a function of ``seed`` (shape [2])."""
    image_size = as_tensor(image_size)
    seed = as_tensor(seed)
    attrs = _attrs(aspect_ratio_range or (0.75, 1.33), area_range or (0.05, 1.0), max_attempts,
                   use_image_if_no_bounding_boxes)
    return execute("StatelessSampleDistortedBoundingBox",
                   (image_size, as_tensor(bounding_boxes), as_tensor(np.float32(min_object_covered)), seed), attrs,
                   name=name, dtype=image_size.dtype)

