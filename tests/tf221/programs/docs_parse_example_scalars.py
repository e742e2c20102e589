# tf.io.parse_single_example of scalar FixedLenFeatures (a string one with a default too), eagerly and in
# a dataset map, and tf.io.parse_example of a batch: 0-d string outputs are tensors as TensorFlow gives.
import tensorflow as tf
def ex(i, s, f):
    return tf.train.Example(features=tf.train.Features(feature={
        "feature0": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
        "feature2": tf.train.Feature(bytes_list=tf.train.BytesList(value=[s])),
        "feature3": tf.train.Feature(float_list=tf.train.FloatList(value=[f]))})).SerializeToString()
desc = {"feature0": tf.io.FixedLenFeature([], tf.int64, default_value=0),
        "feature1": tf.io.FixedLenFeature([], tf.int64, default_value=7),
        "feature2": tf.io.FixedLenFeature([], tf.string, default_value=""),
        "feature3": tf.io.FixedLenFeature([], tf.float32, default_value=0.0),
        "feature4": tf.io.FixedLenFeature([], tf.string, default_value="none")}
print(tf.io.parse_single_example(ex(3, b"cat", 0.5), desc))
ds = tf.data.Dataset.from_tensor_slices([ex(1, b"a", 1.5), ex(2, b"bb", -2.0)]).map(lambda p: tf.io.parse_single_example(p, desc))
for r in ds:
    print(r)
print(tf.io.parse_example([ex(1, b"a", 1.5), ex(2, b"bb", -2.0)], desc))
