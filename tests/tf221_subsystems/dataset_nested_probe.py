import tensorflow as tf


def fm(x):
    print("flat_map fn:", x, tf.executing_eagerly())
    return tf.data.Dataset.from_tensor_slices(tf.fill([x + 1], x))


print(list(tf.data.Dataset.range(3).flat_map(fm).as_numpy_iterator()))


def il(x):
    print("interleave fn:", x, tf.executing_eagerly())
    return tf.data.Dataset.range(x).map(lambda y: y * 10 + x)


print(list(tf.data.Dataset.range(1, 4).interleave(il, cycle_length=2, block_length=1).as_numpy_iterator()))


def red(k, window):
    print("reduce fn:", k, window, tf.executing_eagerly())
    return window.batch(10).map(lambda b: b + k)


print([a.tolist() for a in tf.data.Dataset.range(7).group_by_window(lambda x: x % 2, red, window_size=3)
       .as_numpy_iterator()])


def fm2(x):
    try:
        x.numpy()
    except AttributeError as e:
        print("numpy raised AttributeError:", e)
    tf.print("tfprint", x)
    return tf.data.Dataset.from_tensors(x).repeat(2)


print(list(tf.data.Dataset.range(2).flat_map(fm2).as_numpy_iterator()))


def fm3(a, b):
    print("tuple fm:", a, b)
    return tf.data.Dataset.from_tensor_slices({"a": a, "b": b})


print(list(tf.data.Dataset.from_tensor_slices(([[1, 2], [3, 4]], [[5, 6], [7, 8]])).flat_map(fm3)
           .as_numpy_iterator()))
print(tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.range(x)).element_spec)
files = tf.data.Dataset.from_tensor_slices(["a", "b"])
ds = files.interleave(lambda f: tf.data.Dataset.from_tensors(f + "!").repeat(2), cycle_length=2)
print(ds.element_spec, list(ds.as_numpy_iterator()))
nested = tf.data.Dataset.range(1, 3).flat_map(
    lambda x: tf.data.Dataset.range(x).flat_map(lambda y: tf.data.Dataset.from_tensors(x * 100 + y)))
print(list(nested.as_numpy_iterator()))


def windowed(w):
    print("window fn:", w, tf.executing_eagerly())
    return w.batch(3)


print([a.tolist() for a in tf.data.Dataset.range(7).window(3, shift=2, drop_remainder=True).flat_map(windowed)
       .as_numpy_iterator()])
print([a.tolist() for a in tf.data.Dataset.range(6).window(2).interleave(windowed, cycle_length=2).as_numpy_iterator()])
pairs = tf.data.Dataset.from_tensor_slices(([1, 2, 3, 4], [5, 6, 7, 8])).window(2)
print([(x.tolist(), y.tolist()) for x, y in pairs.flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))
       .as_numpy_iterator()])
