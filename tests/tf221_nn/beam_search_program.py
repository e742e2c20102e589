# tf.nn.ctc_beam_search_decoder on random logits: paths, layout, scores and an error, one JSON value a line
# (tests/test_ctc_beam_search.py runs it under devtrace and compares with beam_search_tf.txt)
import json
import numpy as np
import tensorflow as tf
rng = np.random.RandomState(1)
for T, B, C, width, top in [(5, 2, 4, 3, 2), (8, 3, 5, 4, 3), (6, 1, 3, 10, 4), (10, 2, 6, 100, 1), (4, 2, 3, 2, 2)]:
    x = rng.randn(T, B, C).astype(np.float32) * 2
    lengths = rng.randint(1, T + 1, size=B).astype(np.int32)
    dec, lp = tf.nn.ctc_beam_search_decoder(tf.constant(x), tf.constant(lengths), beam_width=width, top_paths=top)
    print(json.dumps([[d.indices.numpy().tolist(), d.values.numpy().tolist(), d.dense_shape.numpy().tolist()] for d in dec]
                     + [lp.numpy().tolist()]))
x = rng.randn(5, 2, 4)
dec, lp = tf.nn.ctc_beam_search_decoder(tf.constant(x), [5, 3], beam_width=4, top_paths=2)
print(json.dumps([[d.values.numpy().tolist()] for d in dec] + [lp.numpy().tolist()]))
try:
    tf.nn.ctc_beam_search_decoder(tf.constant(x), [5, 3], beam_width=2, top_paths=3)
except Exception as e: print(type(e).__name__, str(e))
