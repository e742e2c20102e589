"""The tf.lookup cases both sides run (``tf``: TensorFlow or devtrace; ``error``: the exception
a call raises, as ``[class name, message]``)."""

import os
import tempfile


def cases(tf, error):
    keys = tf.constant(["a", "b", "c"])
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, tf.constant([7, 8, 9])), -1)
    vocab = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant(["x", "y"]), tf.constant([0, 1], tf.int64)), 3)
    ints = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 4)
    mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, default_value=[0.0, -1.0])
    mutable.insert(tf.constant(["p", "q"]), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    dense = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1)
    dense.insert(tf.constant([5, 6], tf.int64), tf.constant([50, 60], tf.int64))
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("emerson 10\nlake 20\npalmer 30\n")
    text = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, 0, tf.int64, 1, delimiter=" "), -1)
    lines = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER,
        vocab_size=2), -1)

    @tf.function
    def in_function(x):
        return table.lookup(x) + 1

    @tf.function
    def local_table(x):  # a table the function makes: made again each time it runs
        keys = tf.constant(["a", "b"])
        made = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, tf.constant([1, 2])), -1)
        return made.lookup(x)

    return {
        "static": table.lookup(tf.constant([["a", "z"], ["c", "b"]])).numpy().tolist(),
        "static_size": int(table.size()),
        "static_export": sorted([k.decode(), v] for k, v in zip(*[t.numpy().tolist() for t in table.export()])),
        "in_function": in_function(tf.constant(["b", "q"])).numpy().tolist(),
        "local_table": [local_table(tf.constant(k)).numpy().tolist() for k in (["a", "z"], ["b", "z"])],
        "vocab": vocab.lookup(tf.constant(["x", "y", "zz", "king", "crimson"])).numpy().tolist(),
        "vocab_size": int(vocab.size()),
        "vocab_ints": ints.lookup(tf.constant([10, 20, 30, 12345], tf.int64)).numpy().tolist(),
        "mutable": mutable.lookup(tf.constant(["q", "r"])).numpy().tolist(),
        "mutable_size": int(mutable.size()),
        "dense": dense.lookup(tf.constant([5, 7], tf.int64)).numpy().tolist(),
        "dense_empty_key": error(lambda: dense.lookup(tf.constant([0], tf.int64))),
        "text": text.lookup(tf.constant(["lake", "palmer", "tarkus"])).numpy().tolist(),
        "lines": lines.lookup(tf.constant(["emerson 10", "lake 20", "palmer 30"])).numpy().tolist(),
        "wrong_key_dtype": error(lambda: table.lookup(tf.constant([1]))),
        "vocab_not_int64": error(lambda: tf.lookup.StaticVocabularyTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant(["x"]), tf.constant([0])), 1)),
        "text_bad_key_index": error(lambda: tf.lookup.TextFileInitializer(path, tf.string, -3, tf.int64, 1)),
    }


