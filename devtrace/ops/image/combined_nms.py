"""``tf.image.combined_non_max_suppression``: TensorFlow 2.21's ``CombinedNonMaxSuppression`` (CPU only):
per image and class, greedy non-max suppression of the boxes scoring above ``score_threshold`` (at most
``max_output_size_per_class``), then the classes' survivors best score first, at most ``max_total_size``
(or, ``pad_per_class``, per class times classes if fewer), boxes clipped to [0, 1] unless told not to,
the rest padded with zeros."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..declare import API, as_tensor, host_arg, op, public
from .image_kernels import _greedy, _host, _iou


def _combined(xp, boxes, scores, max_output_size_per_class=0, max_total_size=0, iou_threshold=0.5,
              score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True):
    boxes, scores = np.asarray(_host(xp, boxes), np.float32), np.asarray(_host(xp, scores), np.float32)
    batch, num_boxes, q, _ = boxes.shape
    classes = scores.shape[2]
    per_class, total = int(max_output_size_per_class), int(max_total_size)
    if total <= 0:
        raise ValueError(f"max_total_size must be > 0")
    if per_class <= 0:
        raise ValueError(f"max_size_per_class must be > 0")
    size = min(total, per_class * classes) if pad_per_class else total
    out_boxes = np.zeros((batch, size, 4), np.float32)
    out_scores = np.zeros((batch, size), np.float32)
    out_classes = np.zeros((batch, size), np.float32)
    valid = np.zeros((batch,), np.int32)
    for b in range(batch):
        found = []
        for c in range(classes):
            class_boxes = boxes[b, :, c if q > 1 else 0, :]
            kept = _greedy(scores[b, :, c], _iou(class_boxes), per_class, float(np.float32(iou_threshold)),
                           float(np.float32(score_threshold)))
            found.extend((scores[b, i, c], c, class_boxes[i]) for i in kept)
        found.sort(key=lambda f: -f[0])
        found = found[:size]
        valid[b] = len(found)
        for k, (score, c, box) in enumerate(found):
            out_boxes[b, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_scores[b, k], out_classes[b, k] = score, c
    return tuple(xp.asarray(a) for a in (out_boxes, out_scores, out_classes, valid))


def _shape(name, shapes, attrs, dtype):
    batch = shapes[0][0] if shapes and shapes[0] is not None else None
    classes = shapes[1][2] if len(shapes) > 1 and shapes[1] is not None else None
    total = int(attrs.get("max_total_size", 0))
    size = min(total, int(attrs.get("max_output_size_per_class", 0)) * classes) \
        if attrs.get("pad_per_class") and classes is not None else total
    return [(dtypes.float32, (batch, size, 4)), (dtypes.float32, (batch, size)), (dtypes.float32, (batch, size)),
            (dtypes.int32, (batch,))], None


op("CombinedNonMaxSuppression", _combined, {CPU: ("float32",)}, devices=(CPU,), multi=True, shape=_shape,
   host_args={"max_output_size_per_class": "max_output_size_per_class", "max_total_size": "max_total_size",
              "iou_threshold": "iou_threshold", "score_threshold": "score_threshold"})


@public("image.combined_non_max_suppression")
def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """Non-max suppression per class over a batch: boxes, scores, classes and how many are valid."""
    attrs = {"max_output_size_per_class": int(host_arg(max_output_size_per_class)),
             "max_total_size": int(host_arg(max_total_size)),
             "iou_threshold": float(host_arg(iou_threshold, dtypes.float32)),
             "score_threshold": float(host_arg(score_threshold, dtypes.float32)),
             "pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)}
    return execute("CombinedNonMaxSuppression", (API["cast"](as_tensor(boxes), dtypes.float32),
                                                 API["cast"](as_tensor(scores), dtypes.float32)), attrs, name=name)
