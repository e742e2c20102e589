"""tf.debugging.enable_check_numerics: the errors of an eager op making -Inf, +Inf (run in /work/tfvenv)."""
import json

import tensorflow as tf

tf.debugging.enable_check_numerics()
x = tf.constant([1.0, 0.0])
out = {}
for key, f in (("log", lambda: tf.math.log(x)), ("div", lambda: 1.0 / x),
               ("nan", lambda: tf.sqrt(tf.constant([-1.0, float("inf")])))):
    try:
        f()
    except Exception as e:  # noqa: BLE001
        out[key] = [type(e).__name__, str(e)]
out["int_ok"] = str(tf.constant([1, 0]) // tf.constant([1, 1]))
tf.debugging.disable_check_numerics()
out["after_disable"] = str(tf.math.log(x))
print(json.dumps(out, indent=1))
