"""Captures TensorFlow 2.21's crop_and_resize, non_max_suppression, extract_patches and sobel_edges
on small inputs (run in /work/tfvenv:
``/work/tfvenv/bin/python tests/tf221_image/capture_ops.py > tests/tf221_image/ops.json``)."""

import json

import numpy as np
import tensorflow as tf

image = ((np.arange(2 * 6 * 7 * 3, dtype=np.float32).reshape(2, 6, 7, 3) * 13.7) % 255)
boxes = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.1, 0.6, 1.3], [0.5, 0.5, 0.5, 0.5], [0.9, 0.8, 0.1, 0.2]], np.float32)
crops = {m: tf.image.crop_and_resize(image, boxes, [0, 1, 1, 0], [4, 5], method=m, extrapolation_value=-1.0)
         .numpy().tolist() for m in ("bilinear", "nearest")}
nms_boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                      [1, 101, 0, 100]], np.float32)
nms_scores = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
nms = {str(t): tf.image.non_max_suppression(nms_boxes, nms_scores, 5, t).numpy().tolist() for t in (0.0, 0.5, 1.0)}
patches = [{"args": args, "out": tf.image.extract_patches(image, *args).numpy().tolist()}
           for args in (([1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
                        ([1, 3, 2, 1], [1, 2, 3, 1], [1, 2, 1, 1], "SAME"))]
print(json.dumps({"tf": tf.__version__, "image": image.tolist(), "boxes": boxes.tolist(), "crops": crops,
                  "nms_boxes": nms_boxes.tolist(), "nms_scores": nms_scores.tolist(), "nms": nms,
                  "patches": patches, "sobel": tf.image.sobel_edges(tf.constant(image)).numpy().tolist()}))
