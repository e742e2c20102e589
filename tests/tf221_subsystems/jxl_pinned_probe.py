import tensorflow as tf, numpy as np
try: print(tf.check_pinned(tf.constant([1.0])))
except Exception as e: print("PINNED", type(e).__name__, repr(str(e)))
img = tf.constant(np.arange(2*3*3, dtype=np.uint8).reshape(2,3,3))
for name, data in (("png", tf.io.encode_png(img)), ("jpeg", tf.io.encode_jpeg(img)), ("bmp", None), ("gif", None), ("junk", b"hello world")):
    if data is None: continue
    for kw in ({}, {"channels": 1}, {"dtype": tf.float32}, {"channels": 4}):
        try:
            r = tf.image.decode_jxl(data, **kw); print(name, kw, r.shape, r.dtype.name, r.numpy().reshape(-1)[:6].tolist())
        except Exception as e: print(name, kw, type(e).__name__, repr(str(e)))
