# A Python range converts as the sequence it lists (alone, nested, as an op's operand, a dataset's
# slices, a variable's initial value), as TensorFlow 2.21 converts it.
import tensorflow as tf
for expr in ["tf.constant(range(5))", "tf.constant(range(0))", "tf.constant(range(2, 11, 3), dtype=tf.float32)",
             "tf.convert_to_tensor(range(3), dtype=tf.int64)", "tf.reshape(range(6), [2, 3])",
             "tf.constant([range(2), range(2)])", "tf.constant((range(2), [5, 6]))",
             "tf.constant(range(2**40, 2**40 + 2))", "tf.add(range(3), 1)",
             "tf.data.Dataset.from_tensor_slices(range(3)).element_spec", "tf.constant(range(3)) + range(3)",
             "tf.Variable(range(3)).numpy()"]:
    try:
        print(expr, "->", eval(expr))
    except Exception as e:
        print(expr, "!>", type(e).__name__, str(e).splitlines()[0])
