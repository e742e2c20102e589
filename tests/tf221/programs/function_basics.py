# tf.function: tracing once per signature (Python side effects only while tracing), retracing on Python values and shapes, variables and training steps inside, input_signature, TensorSpec (issue 11, item 2).
import tensorflow as tf

w = tf.Variable([[1.0], [2.0]])
traced = []


@tf.function
def f(x, scale):
    traced.append(scale)
    return tf.matmul(x, w) * scale


x = tf.constant([[1.0, 1.0]])
print(f(x, 2.0))
print(f(x, 2.0))
print(f(x, 3.0))
print(f(tf.constant([[1.0, 1.0], [2.0, 2.0]]), 2.0))
print(traced, f.experimental_get_tracing_count())


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.matmul(x, w) - y))
    g = tape.gradient(loss, w)
    w.assign(w - 0.1 * g)
    return loss


losses = [train_step(x, tf.constant([[1.0]])).numpy() for i in range(3)]
print(losses, w.numpy().ravel())
print(train_step.experimental_get_tracing_count())


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def double(v):
    return v + v


print(double(tf.constant([1.0, 2.0])), double(tf.constant([1.0, 2.0, 3.0])))
print(double.experimental_get_tracing_count())
print(tf.TensorSpec(shape=[None, 3], dtype=tf.int32, name="a"))
print(tf.TensorSpec([2]))


@tf.function
def structured(a, b):
    return {"sum": a + b, "list": [a * 2.0, 7], "none": None}


out = structured(tf.constant(1.0), tf.constant(2.0))
print(sorted(out), out["sum"], out["list"], out["none"])


class Counter(tf.Module):
    def __init__(self):
        super().__init__()
        self.count = tf.Variable(0)

    @tf.function
    def increment(self, by):
        self.count.assign_add(by)
        return self.count.read_value()


c = Counter()
print(c.increment(tf.constant(2)), c.increment(tf.constant(3)), c.count.numpy())
