import numpy as np
import tensorflow as tf

calls = []


def double(x):
    print("traced", x)
    tf.print("tfprint", x)
    calls.append(1)
    return x * 2


ds = tf.data.Dataset.range(3).map(double)
print(ds.element_spec, len(calls))
print(list(ds.as_numpy_iterator()), len(calls))
print(list(ds.as_numpy_iterator()), len(calls))


def pair(a, b):
    print("pair", a, b)
    return a + 1, b * 2.0


print(tf.data.Dataset.from_tensor_slices(([1, 2], [3.0, 4.0])).map(pair).element_spec)


def keyed(d):
    print("keyed", d)
    return {"sum": tf.cast(d["a"], tf.float32) + d["b"], "text": "s"}


ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [3.0, 4.0]}).map(keyed)
print(ds.element_spec)
print(list(ds.as_numpy_iterator()))


def nested(x, yz):
    print("nested", x, yz)
    return yz[1]


print(tf.data.Dataset.from_tensor_slices(([1], ([2.0], ["t"]))).map(nested).element_spec)


def to_numpy(x):
    return x.numpy()


try:
    tf.data.Dataset.range(3).map(to_numpy)
except AttributeError as e:
    print(type(e).__name__, e)


def branch(x):
    if x > 1:
        return x * 10
    return x


print(list(tf.data.Dataset.range(4).map(branch).as_numpy_iterator()))


def loop(x):
    total = tf.constant(0, tf.int64)
    for i in tf.range(x):
        total += i
    return total


print(list(tf.data.Dataset.range(5).map(loop).as_numpy_iterator()))
print(list(tf.data.Dataset.range(4).map(lambda x: x + np.random.randint(1000, 1001)).as_numpy_iterator()))
v = tf.Variable(10, dtype=tf.int64)
ds = tf.data.Dataset.range(2).map(lambda x: x + v)
print(list(ds.as_numpy_iterator()))
v.assign(20)
print(list(ds.as_numpy_iterator()))


def eager_body(y):
    print("py_function body", y.numpy())
    return y * 2


ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(eager_body, [x], tf.int64))
print(ds.element_spec)
print(list(ds.as_numpy_iterator()))
ds = tf.data.Dataset.range(3).map(lambda x: tf.numpy_function(lambda y: y * 3, [x], tf.int64))
print(ds.element_spec, list(ds.as_numpy_iterator()))
print(tf.data.Dataset.range(3).map(lambda x: tf.range(x)).element_spec)
print(tf.data.Dataset.range(3).map(lambda x: [x, x]).element_spec)
ds = tf.data.Dataset.range(3).map(lambda x: 1.5)
print(ds.element_spec, list(ds.as_numpy_iterator()))
ds = tf.data.Dataset.range(3).map(lambda x: x * 2, num_parallel_calls=tf.data.AUTOTUNE, deterministic=False)
print(ds, sorted(ds.as_numpy_iterator()))  # deterministic=False: any order
print(tf.data.Dataset.range(3).map(lambda x: x * 2, num_parallel_calls=2, deterministic=True))
print(tf.data.Dataset.range(3).map(lambda x: x))


def positive(x):
    print("filter traced", x)
    return x > 1


print(list(tf.data.Dataset.range(4).filter(positive).as_numpy_iterator()))


def grow(s, x):
    print("reduce traced", s)
    return tf.concat([s, tf.reshape(x, [1])], 0)


print(tf.data.Dataset.range(3).reduce(tf.constant([], tf.int64), grow))


def add(s, x):
    print("reduce add", s, x)
    return s + x


print(tf.data.Dataset.range(3).reduce(tf.constant(0, tf.int64), add))


def mixed(s, x):
    return s + x


try:
    tf.data.Dataset.range(3).reduce(0, mixed)
except TypeError as e:
    print(type(e).__name__, e)


def step(s, x):
    print("scan traced", s, x)
    return s + x, s * x


print(list(tf.data.Dataset.range(4).scan(tf.constant(1, tf.int64), step).as_numpy_iterator()))


def small(x):
    print("take_while traced", x)
    return x < 3


print(list(tf.data.Dataset.range(5).take_while(small).as_numpy_iterator()))


def parity(x):
    print("key traced", x)
    return x % 2


ds = tf.data.Dataset.range(6).group_by_window(parity, lambda key, window: window.batch(3), window_size=3)
print(list(ds.as_numpy_iterator()))
rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
ds = tf.data.Dataset.from_tensor_slices(rt).map(lambda x: x * 2)
print(ds.element_spec, [e.numpy().tolist() for e in ds])
ds = tf.data.Dataset.from_tensor_slices(tf.ones([4, 8, 8, 3])).map(lambda x: tf.image.resize(x, [4, 4]))
print(ds.element_spec)
ds = tf.data.Dataset.from_tensor_slices(tf.ones([4, 8, 8, 3])).map(lambda x: tf.image.flip_left_right(x))
print(ds.element_spec, next(iter(ds)).shape)


def convert(image, label):
    print("convert traced", image, label)
    return tf.image.convert_image_dtype(image, tf.float32), label


ds = tf.data.Dataset.from_tensor_slices((tf.zeros([4, 8, 8, 3], tf.uint8), tf.constant([0, 1, 0, 1])))
ds = ds.map(convert, num_parallel_calls=tf.data.AUTOTUNE).batch(2)
print(ds)
print(tf.data.Dataset.range(6).batch(3).map(lambda x: tf.reduce_sum(x)).element_spec)
print(tf.data.Dataset.from_tensor_slices(["ab", "c"]).map(lambda s: tf.strings.length(s)).element_spec)
print(list(tf.data.Dataset.range(2).map(lambda x: tf.constant(tf.executing_eagerly())).as_numpy_iterator()))
try:
    tf.data.Dataset.range(3).map(
        lambda x: x.numpy())
except AttributeError as e:
    print(type(e).__name__, e)
try:
    tf.data.Dataset.range(3).filter(lambda x: x)
except ValueError as e:
    print(type(e).__name__, e)
try:
    tf.data.Dataset.range(3).take_while(lambda x: tf.stack([x > 0, x > 1]))
except ValueError as e:
    print(type(e).__name__, e)


def parity_branch(x):
    if tf.equal(x % 2, 0):
        y = x * 10
    else:
        y = -x
    return y


def count_up(x):
    n = tf.constant(0, tf.int64)
    while n < x:
        n += 2
    return n


print(list(tf.data.Dataset.range(4).map(parity_branch).as_numpy_iterator()))
print(list(tf.data.Dataset.range(4).map(count_up).as_numpy_iterator()))
rescale = tf.keras.layers.Rescaling(0.5)
ds = tf.data.Dataset.from_tensor_slices(tf.ones([2, 3])).map(lambda x: rescale(x))
print(ds.element_spec, list(ds.as_numpy_iterator()))
print(tf.data.Dataset.range(3).map(lambda x: tf.zeros([x, 2])).element_spec)
print(tf.data.Dataset.range(3).map(lambda x: tf.reshape(tf.range(x * 2), [-1, 2])).element_spec)
print(tf.data.Dataset.from_tensor_slices(tf.zeros([3, 4, 5])).map(lambda x: tf.transpose(x)).element_spec)
print(tf.data.Dataset.from_tensor_slices(tf.zeros([3, 4, 5])).map(lambda x: tf.expand_dims(x, -1)).element_spec)
print(tf.data.Dataset.from_tensor_slices(tf.zeros([3, 4, 5])).map(
    lambda x: tf.one_hot(tf.cast(x[0], tf.int32), 3)).element_spec)
lookup = tf.keras.layers.StringLookup(vocabulary=["a", "b"])
train = tf.data.Dataset.from_tensor_slices(["a", "c"]).map(lambda x: lookup(x))
valid = tf.data.Dataset.from_tensor_slices([["b", "a"]]).map(lambda x: lookup(x))
print(train.element_spec, list(train.as_numpy_iterator()), valid.element_spec, list(valid.as_numpy_iterator()))
png = tf.data.Dataset.from_tensors(tf.io.encode_png(tf.zeros([2, 2, 3], tf.uint8)))
print(png.map(lambda x: tf.io.decode_png(x, channels=3)).element_spec, png.map(tf.io.decode_png).element_spec)
print(png.map(lambda x: tf.io.decode_image(x, channels=3, expand_animations=False)).element_spec)
print(tf.data.Dataset.range(2).map(lambda x: tf.strings.format("{}", x)).element_spec)
