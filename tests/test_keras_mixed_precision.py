"""Mixed precision in fit (issue 29; values are held to TensorFlow 2.21's by the tf221 probes
keras_mixed_precision*.py and keras_loss_scale_optimizer.py): a step whose scaled float16 gradients
overflow is skipped and halves the loss scale, silently as TensorFlow's kernels are."""

import warnings

import numpy as np

import devtrace as tf

keras = tf.keras


def test_an_overflowing_step_is_skipped_without_numpy_warnings():
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer=keras.optimizers.SGD(1e-6), loss="mse")
        x = np.full((4, 2), 200.0, "float32")  # loss ~1.6e5 times 2**15: float16 infinities
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model.fit(x, np.zeros((4, 1), "float32"), batch_size=4, epochs=1, verbose=0)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    optimizer = model.optimizer
    assert type(optimizer).__name__ == "LossScaleOptimizer"
    assert [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)] == []
    assert float(optimizer.dynamic_scale.numpy()) == 2.0 ** 14 and int(optimizer.iterations.numpy()) == 0
    np.testing.assert_array_equal(model.get_weights()[0], np.ones((2, 1), "float32"))  # the step skipped
