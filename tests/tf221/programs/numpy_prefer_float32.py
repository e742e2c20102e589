"""experimental_enable_numpy_behavior(prefer_float32=True): Python floats become float32."""
import tensorflow as tf

tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior(prefer_float32=True)


def show(name, thunk):
    try:
        value = thunk()
    except Exception as e:  # what TensorFlow raises, first line
        print(name, type(e).__name__, str(e).splitlines()[0])
        return
    show_value(name, value)


def show_value(name, value):
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            show_value(f"{name}[{i}]", v)
        return
    print(name, value.dtype.name, value.shape, value.numpy().tolist())

show("array", lambda: tnp.array([1.5, 2.0]))
show("zeros", lambda: tnp.zeros((2,)))
show("arange_f", lambda: tnp.arange(0.0, 1.0, 0.5))
show("linspace", lambda: tnp.linspace(0, 1, 3))
show("divide_int", lambda: tnp.divide(tnp.arange(3), 2))
show("sqrt_int", lambda: tnp.sqrt(tnp.arange(3)))
show("mean_int", lambda: tnp.mean(tnp.arange(3)))
show("add_f64", lambda: tnp.add(tnp.ones(2, dtype=tnp.float64), 1.5))
print("random", tnp.random.rand(2).dtype.name, tnp.random.randn(2).dtype.name, tnp.random.uniform(size=(2,)).dtype.name)
print("result_type", tnp.result_type(float), tnp.result_type(tnp.int32, 1.5))
# NumPy's advanced indexing once the NumPy behaviour is on (guide tf_numpy.ipynb)
x = tnp.arange(24).reshape(2, 3, 4)
show("bool_tuple_index", lambda: x[:, (True, False, True)])
show("advanced_index", lambda: x[1, (0, 0, 1), tnp.asarray([0, 1, 1])])
show("bool_list_index", lambda: x[[True, False]])
show("mask_index", lambda: x[x > 20])
show("index_array_last", lambda: x[..., tnp.asarray([3, 0])])
show("basic_index", lambda: x[1, tnp.newaxis, 1:3, ...])
