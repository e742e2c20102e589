import tensorflow as tf, numpy as np
image_size = tf.constant([40, 60, 3])
bbox = tf.constant([[[0.1, 0.2, 0.5, 0.9]]], tf.float32)
for kw in ({}, {"min_object_covered": 0.5}, {"aspect_ratio_range": (0.5, 2.0), "area_range": (0.1, 0.9)}):
    print(kw, [t.numpy().tolist() for t in tf.image.stateless_sample_distorted_bounding_box(image_size, bbox, seed=[1, 2], **kw)])
    print(kw, [t.numpy().tolist() for t in tf.image.stateless_sample_distorted_bounding_box(image_size, bbox, seed=[3, 4], **kw)])
tf.random.set_seed(5)
print([t.numpy().tolist() for t in tf.image.sample_distorted_bounding_box(image_size, bbox, seed=7)])
print([t.numpy().tolist() for t in tf.image.sample_distorted_bounding_box(image_size, tf.zeros([1,0,4]), use_image_if_no_bounding_boxes=True, seed=7)])
try: tf.image.sample_distorted_bounding_box(image_size, tf.zeros([1,0,4]))
except Exception as e: print(type(e).__name__, repr(str(e)))
