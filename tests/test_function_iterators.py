"""``next(iterator)`` and ``for`` loops over datasets and distributed datasets inside a
``tf.function``: an iterator made outside the function gives its next element at every call (an
``IteratorGetNext`` node), a loop unrolled while tracing takes every element then. The expected
lines are TensorFlow 2.21's output of the same programs (``tensorflow-cpu==2.21.0``, one CPU,
``TF_CPP_MIN_LOG_LEVEL=3``)."""

import textwrap

from conftest import devtrace

NEXT_PER_CALL = textwrap.dedent("""\
    import numpy as np
    import tensorflow as tf
    strategy = tf.distribute.MirroredStrategy()
    ds = tf.data.Dataset.from_tensor_slices(np.arange(8, dtype=np.float32)).batch(2)
    it = iter(strategy.experimental_distribute_dataset(ds))

    @tf.function
    def f(iterator):
        x = next(iterator)
        print("tracing")
        return strategy.reduce("SUM", strategy.run(lambda v: tf.reduce_sum(v), args=(x,)), axis=None)
    for _ in range(4):
        print(float(f(it)))
    plain = iter(ds)

    @tf.function
    def g(iterator):
        return tf.reduce_sum(next(iterator))
    for _ in range(4):
        print(float(g(plain)))

    @tf.function
    def h(iterator):
        return tf.reduce_sum(next(iterator)) + tf.reduce_sum(next(iterator))
    again = iter(ds)
    print(float(h(again)), float(h(again)))
""")

LOOPS = textwrap.dedent("""\
    import numpy as np
    import tensorflow as tf
    strategy = tf.distribute.MirroredStrategy()
    ds = tf.data.Dataset.from_tensor_slices(np.arange(8, dtype=np.float32)).batch(2)
    dist = strategy.experimental_distribute_dataset(ds)

    @tf.function
    def f():
        s = tf.constant(0.)
        for x in ds:
            s += tf.reduce_sum(x)
        return s
    print(float(f()), float(f()))

    @tf.function
    def g(it):
        s = tf.constant(0.)
        for x in it:
            s += tf.reduce_sum(x)
        return s
    print(float(g(iter(ds))))

    @tf.function
    def d():
        s = tf.constant(0.)
        for x in dist:
            s += strategy.reduce("SUM", strategy.run(tf.reduce_sum, args=(x,)), axis=None)
        return s
    print(float(d()))
""")


def test_next_in_a_function_takes_the_next_element_at_every_call(tmp_path):
    program = tmp_path / "next.py"
    program.write_text(NEXT_PER_CALL)
    r = devtrace("run", str(program))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["tracing", "1.0", "5.0", "9.0", "13.0", "1.0", "5.0", "9.0", "13.0",
                                     "6.0 22.0"]


def test_a_loop_over_a_dataset_in_a_function_sums_every_element(tmp_path):
    program = tmp_path / "loops.py"
    program.write_text(LOOPS)
    r = devtrace("run", str(program))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["28.0 28.0", "28.0", "28.0"]


def test_next_past_the_end_in_a_function_is_tensorflows_out_of_range_error(tmp_path):
    program = tmp_path / "end.py"
    program.write_text(textwrap.dedent("""\
        import numpy as np
        import tensorflow as tf
        it = iter(tf.data.Dataset.from_tensor_slices(np.arange(2, dtype=np.float32)))

        @tf.function
        def f(iterator):
            return next(iterator) * 2.0
        print(float(f(it)), float(f(it)))
        try:
            f(it)
        except tf.errors.OutOfRangeError as e:
            print(type(e).__name__)
    """))
    r = devtrace("run", str(program))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["0.0 2.0", "OutOfRangeError"]
