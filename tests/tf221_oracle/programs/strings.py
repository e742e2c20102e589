# Issue 10 area 1 (tf.strings) and string tensors.
import tensorflow as tf
import sys


def cell(label, f):
    """One cell: a '--- label' marker on stdout and stderr, then the result or the error."""
    print(f"--- {label}", flush=True)
    print(f"--- {label}", file=sys.stderr, flush=True)
    try:
        r = f()
        if r is not None:
            print(r, flush=True)
    except Exception as e:
        print(type(e).__name__, e, flush=True)


s = tf.constant(["Hello", "tf World", "ünï"])
cell("repr string tensor", lambda: repr(s))
cell("length", lambda: tf.strings.length(s))
cell("length UTF8_CHAR", lambda: tf.strings.length(s, unit="UTF8_CHAR"))
cell("upper lower", lambda: (tf.strings.upper(s), tf.strings.lower(s)))
cell("split", lambda: tf.strings.split(tf.constant(["a b c", "d"])))
cell("split sep", lambda: tf.strings.split(tf.constant("a,b,,c"), sep=","))
cell("split scalar repr", lambda: repr(tf.strings.split(tf.constant("x y"))))
cell("join", lambda: tf.strings.join([tf.constant(["a", "b"]), tf.constant(["1", "2"])], separator="-"))
cell("reduce_join", lambda: tf.strings.reduce_join(tf.constant(["a", "b", "c"]), separator="+"))
cell("format", lambda: tf.strings.format("x={} y={}", (tf.constant(1), tf.constant([1.5, 2.0]))))
cell("format string tensor", lambda: tf.strings.format("{}", tf.constant(["a", "b"])))
cell("to_number", lambda: tf.strings.to_number(tf.constant(["1.5", "-2", "1e3"])))
cell("to_number int", lambda: tf.strings.to_number(tf.constant(["7", "-3"]), out_type=tf.int32))
cell("to_number bad (error)", lambda: tf.strings.to_number(tf.constant(["abc"])))
cell("as_string", lambda: tf.strings.as_string(tf.constant([1.5, 2.0])))
cell("as_string int precision", lambda: tf.strings.as_string(tf.constant([3.14159]), precision=2))
cell("substr", lambda: tf.strings.substr(s, 1, 3))
cell("strip", lambda: tf.strings.strip(tf.constant(["  a  ", "b "])))
cell("regex_replace", lambda: tf.strings.regex_replace(s, "o", "0"))
cell("regex_full_match", lambda: tf.strings.regex_full_match(s, "H.*"))
cell("string == string", lambda: s == "Hello")
cell("unicode_decode", lambda: tf.strings.unicode_decode(tf.constant("ab"), "UTF-8"))
cell("bytes_split", lambda: tf.strings.bytes_split(tf.constant("abc")))
cell("to_hash_bucket_fast", lambda: tf.strings.to_hash_bucket_fast(tf.constant(["a", "b"]), 100))
cell("string numpy", lambda: repr(s.numpy()))
cell("string math (error)", lambda: tf.add(tf.constant("a"), tf.constant(1)))
cell("reduce_sum string (error)", lambda: tf.reduce_sum(s))
cell("string dtype", lambda: s.dtype)
