# tf.io.parse_single_sequence_example and parse_sequence_example (one ParseSequenceExampleV2 op): a context's dense
# (with a default) and sparse features, feature lists as sparse, dense (with their lengths) and ragged tensors.
import tensorflow as tf

F, FL = tf.train.Feature, tf.train.FeatureList
def se(n, toks, vals):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={"n": F(int64_list=tf.train.Int64List(value=[n])),
                                           "name": F(bytes_list=tf.train.BytesList(value=[b"s%d" % n]))}),
        feature_lists=tf.train.FeatureLists(feature_list={
            "tok": FL(feature=[F(bytes_list=tf.train.BytesList(value=t)) for t in toks]),
            "val": FL(feature=[F(float_list=tf.train.FloatList(value=v)) for v in vals])})).SerializeToString()
a, b = se(1, [[b"a"], [b"b", b"c"]], [[1., 2.], [3., 4.], [5., 6.]]), se(2, [[b"d"]], [[7., 8.]])
ctx = {"n": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.VarLenFeature(tf.string),
       "m": tf.io.FixedLenFeature([], tf.int64, default_value=-1)}
seq2 = {"tok": tf.io.RaggedFeature(tf.string), "val": tf.io.FixedLenSequenceFeature([2], tf.float32),
        "s": tf.io.VarLenFeature(tf.float32)}
c, f = tf.io.parse_single_sequence_example(a, ctx, seq2)
print(c); print(f)
c, f, l = tf.io.parse_sequence_example([a, b], ctx, seq2)
print(c); print(f); print(l)
c, f, l = tf.io.parse_sequence_example([a, b], None, {"tok": tf.io.VarLenFeature(tf.string)})
print(c, f, l)
