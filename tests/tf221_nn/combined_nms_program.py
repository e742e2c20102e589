# tf.image.combined_non_max_suppression on random boxes and scores (per-class boxes or shared, padding per
# class, unclipped, thresholds), one JSON list a line (tests/test_combined_nms.py compares with combined_nms_tf.txt)
import json
import numpy as np
import tensorflow as tf
rng = np.random.RandomState(3)
for q, kw in ((1, {}), (3, {}), (1, dict(pad_per_class=True)), (3, dict(clip_boxes=False, score_threshold=0.3)), (1, dict(iou_threshold=0.2))):
    b = rng.rand(2, 6, q, 4).astype(np.float32) * 1.2 - 0.1
    s = rng.rand(2, 6, 3).astype(np.float32)
    out = tf.image.combined_non_max_suppression(b, s, 2, 5, **kw)
    print(json.dumps([o.numpy().tolist() for o in out]))
