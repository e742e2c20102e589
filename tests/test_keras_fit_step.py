"""What a ``fit`` step does around its traced train function, kept as Keras does it while the step
does less: batch hooks reach every callback that overrides them (by either hook name, or as a
function set on the instance), with each step's logs; the logs are the same traced or eager,
shuffled or not; a scalar weighted by one number (the loss tracker) sums as NumPy does."""

import numpy as np

import devtrace as tf

keras = tf.keras


def _data(n=40):
    rng = np.random.default_rng(0)
    return rng.random((n, 5), dtype=np.float32), rng.integers(0, 3, n).astype("int64")


def _model(run_eagerly=False, metrics=None):
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(3)])
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=metrics, run_eagerly=run_eagerly)
    return model


class Batches(keras.callbacks.Callback):
    """The older hook names: Keras's default on_train_batch_* calls them."""

    def __init__(self):
        super().__init__()
        self.begun, self.ended = [], []

    def on_batch_begin(self, batch, logs=None):
        self.begun.append(batch)

    def on_batch_end(self, batch, logs=None):
        self.ended.append((batch, dict(logs)))


def test_every_overriding_callback_gets_each_batch_and_its_logs():
    x, y = _data()
    older, seen, tested = Batches(), [], []
    lam = keras.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: seen.append((batch, dict(logs))))

    class Test(keras.callbacks.Callback):
        def on_test_batch_end(self, batch, logs=None):
            tested.append(batch)

    model = _model(metrics=["accuracy"])
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0, callbacks=[older, lam, Test()],
                        validation_data=(x[:20], y[:20]))
    assert older.begun == [0, 1, 2, 0, 1, 2]
    assert [b for b, _ in older.ended] == [b for b, _ in seen] == [0, 1, 2, 0, 1, 2]
    assert [logs for _, logs in older.ended] == [logs for _, logs in seen]
    assert sorted(seen[0][1]) == ["accuracy", "loss"]
    assert all(type(v) is float for _, logs in seen for v in logs.values())
    # the last batch's running means are the epoch's
    assert [seen[2][1]["loss"], seen[5][1]["loss"]] == history.history["loss"]
    assert [seen[2][1]["accuracy"], seen[5][1]["accuracy"]] == history.history["accuracy"]
    assert tested == [0, 1, 0, 1]  # validation's batches


def test_a_lambda_callback_given_an_older_hook_by_keyword_is_called():
    x, y = _data(32)
    ended = []
    lam = keras.callbacks.LambdaCallback(on_batch_end=lambda batch, logs: ended.append(batch))
    _model().fit(x, y, batch_size=8, epochs=1, verbose=0, callbacks=[lam])
    assert ended == [0, 1, 2, 3]


def _batch_logs(run_eagerly, shuffle):
    x, y = _data()
    seen = []
    lam = keras.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: seen.append(logs["loss"]))
    model = _model(run_eagerly=run_eagerly)
    if shuffle:
        np.random.seed(3)
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0, callbacks=[lam], shuffle=shuffle)
    return seen, history.history["loss"]


def test_a_steps_logs_are_the_same_traced_or_eager():
    for shuffle in (False, True):
        traced, eager = _batch_logs(False, shuffle), _batch_logs(True, shuffle)
        assert np.allclose(traced[0], eager[0], rtol=1e-6) and np.allclose(traced[1], eager[1], rtol=1e-6)
        assert traced[1] == [traced[0][2], traced[0][5]]


def test_the_loss_trackers_weighted_scalar_sums_as_numpy_does():
    fast, general = keras.metrics.Mean(), keras.metrics.Mean()
    for value, weight in ((0.1, 32), (2.3, 30), (1e-3, 7), (5.5, 1)):
        fast.update_state(tf.constant(np.float32(value)), sample_weight=weight)
        general.update_state(tf.constant([np.float32(value)]), sample_weight=[weight])
    assert float(fast.result()) == float(general.result())
    assert (fast._total, fast._count) == (general._total, general._count)


class FirstTraceFails(keras.layers.Layer):
    """Fails to trace for a batch of unknown size (a Python ``len`` of it), so the step is traced
    again for the batch's own shape, as for a layer devtrace cannot trace by spec."""

    def call(self, x):
        if x.shape[0] is None:
            raise ValueError("unknown batch")
        return x * 2.0


def test_a_failed_first_trace_leaves_no_tensor_for_the_garbage_collector():
    """The failed trace's frames (its tape, its tensors) are released when the step returns, not
    when the collector runs: else the memory in use would depend on when it runs."""
    import gc

    from devtrace.runtime.tensor import EagerTensor

    x, y = _data(16)
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((5,)), FirstTraceFails(), keras.layers.Dense(3)])
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    gc.collect()
    gc.disable()
    try:
        model.fit(x, y, batch_size=8, epochs=1, verbose=0)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        held = [o for o in gc.garbage if type(o) is EagerTensor]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert held == []


def _step_graphs(model):
    functions = {id(fn): fn for fn in model._functions._functions.values()}  # a function kept under two keys once
    return [c.graph for fn in functions.values() for c in fn._concrete.values()]


def test_the_step_is_traced_for_a_static_batch_when_the_batch_size_divides_the_samples():
    """TensorFlow 2.21 / Keras 3.15 (tensorflow-cpu, /work/tfvenv, MLP 784-128-10 at batch 32): with 128
    samples the train function's ``IteratorGetNext`` has shape (32, 784) and its step has no ``Shape``
    node (the loss gradient's shapes are constants); with 130 the shape is (None, 784), 4 ``Shape``
    nodes. The same rule here: a static batch when every batch has the batch size."""
    for n, batch, static in ((40, 8, 8), (40, 16, None)):
        x, y = _data(n)
        model = _model()
        model.fit(x, y, batch_size=batch, epochs=1, verbose=0)
        model.evaluate(x, y, batch_size=batch, verbose=0)
        (train, test) = _step_graphs(model)
        for graph in (train, test):
            assert [tuple(t.shape) for t in graph.inputs[:2]] == [(static, 5), (static,)]
        assert ("Shape" in {op.type for op in train.get_operations()}) is (static is None)


def test_a_second_batch_size_retraces_the_step_for_any_batch_once():
    x, y = _data(48)
    model = _model()
    for batch in (8, 16, 24):  # each divides 48: the first is traced as it is, then one trace serves any size
        model.fit(x, y, batch_size=batch, epochs=1, verbose=0)
    assert [tuple(g.inputs[0].shape) for g in _step_graphs(model)] == [(8, 5), (None, 5)]


def test_a_vector_of_labels_reaches_the_cross_entropy_without_a_reshape():
    """TensorFlow 2.21's step (the MLP above): Cast, Cast_1, SparseSoftmaxCrossEntropyWithLogits — labels of
    rank 1 are not reshaped (labels of shape (n, 1) are flattened)."""
    for y_shape, reshaped in (((40,), False), ((40, 1), True)):
        x, y = _data()
        model = _model()
        model.fit(x, y.reshape(y_shape), batch_size=8, epochs=1, verbose=0)
        (train,) = _step_graphs(model)
        forward = [op.type for op in train.get_operations() if not op.name.startswith("gradient_tape")]
        assert ("Reshape" in forward) is reshaped
