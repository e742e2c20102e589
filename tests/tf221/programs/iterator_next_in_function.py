"""``next(iterator)`` in a ``tf.function``, for an iterator made outside it (captured, or passed as
an argument) over a dataset with a ``map``: each call takes the next element (the map runs in the
iterator, not in the traced graph); past the end, ``OutOfRangeError``."""
import tensorflow as tf

ds = tf.data.Dataset.range(4).map(lambda x: tf.cast(x, tf.float32) + 1.0).batch(2)
it = iter(ds)


@tf.function
def passed(it):
    return next(it) * 2.0


print(passed(it))
print(passed(it))
try:
    passed(it)
except tf.errors.OutOfRangeError as e:
    print(type(e).__name__)

captured = iter(tf.data.Dataset.range(3).map(lambda x: x * 10))


@tf.function
def step():
    return next(captured) + 1


print([int(step()) for _ in range(3)])
