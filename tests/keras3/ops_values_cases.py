"""Expressions over Keras 3's ops, losses, metrics and layers that devtrace answers with its own
``keras.ops``/``keras.layers``/… (the ones TensorFlow 2.21's docstring examples check only by shape
or not at all), each evaluated to plain data: a tensor as ``{"dtype", "shape", "values"}``, an
exception as ``"Type: message"``. ``ops_values_capture.py`` evaluates them under Keras 3.15.1
(``ops_values.json``); ``tests/test_keras_ops_values.py`` under devtrace."""

import numpy as np

# names the expressions use: ``keras``, ``np``, and these arrays
SETUP = """
rng = np.random.RandomState(0)
img = rng.rand(2, 6, 7, 3).astype("float32")
vol = rng.rand(5, 5, 5, 2).astype("float32")
f = np.array([[1.0, np.nan, 3.0], [np.nan, 2.0, 1.0]])
yt = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32)
yp = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32)
"""

EXPRESSIONS = [
    # keras.ops.numpy
    "keras.ops.angle(keras.ops.convert_to_tensor([[1 + 3j, 2 - 5j]]))",
    "keras.ops.arcsinh(keras.ops.convert_to_tensor([1, -1, 0]))",
    "keras.ops.arccosh(np.array([10.0, 100.0]))",
    "keras.ops.arctanh(np.array([0.0, -0.5], 'float32'))",
    "keras.ops.sinc(keras.ops.convert_to_tensor([0.0, 0.5, 2.0]))",
    "keras.ops.fabs(keras.ops.convert_to_tensor([-1, 2]))",
    "keras.ops.append(keras.ops.convert_to_tensor([1, 2]), keras.ops.convert_to_tensor([[3.5]]))",
    "keras.ops.array_split(keras.ops.arange(10), 4)",
    "keras.ops.dstack([keras.ops.array([1, 2]), keras.ops.array([3.0, 4.0])])",
    "keras.ops.fmax(np.array([2.0, np.nan, np.nan]), np.array([1.0, 4.0, np.nan]))",
    "keras.ops.fmin(np.array([2.0, np.nan]), 1.5)",
    "keras.ops.heaviside(keras.ops.convert_to_tensor([-2, 0, 3]), 0.5)",
    "keras.ops.logaddexp2(keras.ops.array([1, 2, 3]), keras.ops.array([1.0, 0.0, -3.0]))",
    "keras.ops.lcm(keras.ops.convert_to_tensor([2, -3, 0]), keras.ops.convert_to_tensor([5, 6, 7]))",
    "keras.ops.lcm(keras.ops.convert_to_tensor([2.0]), keras.ops.convert_to_tensor([5]))",
    "keras.ops.ldexp(keras.ops.convert_to_tensor([0.75, 1.5]), keras.ops.convert_to_tensor([1, -2]))",
    "keras.ops.nextafter(keras.ops.convert_to_tensor([1.0, 1.0]), keras.ops.convert_to_tensor([2.0, 0.0]))",
    "keras.ops.isin(keras.ops.array([[0, 1], [2, 5]]), keras.ops.array([0, 2]), invert=True)",
    "keras.ops.isreal(keras.ops.array([1 + 1j, 3], dtype='complex64'))",
    "keras.ops.bartlett(7)", "keras.ops.hamming(4)", "keras.ops.hanning(6)", "keras.ops.kaiser(5, 3.0)",
    "keras.ops.nanargmax(f, axis=1, keepdims=True)", "keras.ops.nanargmin(f)",
    "keras.ops.nancumsum(f, axis=0)", "keras.ops.nancumprod(f)",
    "keras.ops.rot90(np.arange(6).reshape(2, 3), k=3)",
    "keras.ops.rot90(np.arange(8).reshape(2, 2, 2), k=2, axes=(0, 2))",
    "keras.ops.vander(np.array([1.5, 2.0, 3.0]), N=4, increasing=True)",
    "keras.ops.trapezoid(np.array([[1, 2, 4], [3, 5, 6]]), x=np.array([0.0, 1.0, 3.0]))",
    "keras.ops.unique(keras.ops.convert_to_tensor([3, 1, 2, 1, 3]), return_index=True, return_inverse=True, "
    "return_counts=True)",
    "keras.ops.unique(keras.ops.convert_to_tensor([[1, 0], [0, 1], [1, 0], [0, 0]]), axis=0, return_counts=True)",
    "keras.ops.unique(keras.ops.convert_to_tensor([4, 4, 2]), size=4, fill_value=-1)",
    "keras.ops.histogram(np.array([0.1, 0.4, 0.45, 0.9, 1.0]), bins=3)",
    "keras.ops.view(keras.ops.array([1.0, 2.0]), 'int32')",
    "keras.ops.view(keras.ops.array([1, 2, 3, 4], dtype='int16'), 'int32')",
    "keras.ops.unravel_index(keras.ops.array([5, 7]), (3, 3))",
    "keras.ops.percentile(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), [10, 90], axis=1)",
    "keras.ops.average(np.arange(6.0).reshape(3, 2), axis=0, weights=np.array([1.0, 2.0, 3.0]))",
    "keras.ops.average(keras.ops.arange(1, 5), weights=keras.ops.array([1.0, 3.0]))",
    # keras.ops.math / linalg / core
    "keras.ops.segment_prod(keras.ops.array([1, 2, 10, 20]), keras.ops.array([0, 0, 2, 2]))",
    "keras.ops.cdist(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[1.0, 0.0], [3.0, 4.0], [0.0, 0.0]]))",
    "keras.ops.ifft2((keras.ops.convert_to_tensor([[1.0, 2.0], [2.0, 1.0]]), "
    "keras.ops.convert_to_tensor([[0.0, 1.0], [1.0, 0.0]])))",
    "keras.ops.stft(keras.ops.convert_to_tensor(np.arange(8.0, dtype='float32')), 4, 2, 4)",
    "keras.ops.istft(keras.ops.stft(keras.ops.convert_to_tensor(np.arange(8.0, dtype='float32')), 4, 2, 4), 4, 2, 4)",
    "keras.ops.view_as_real(np.array([1 + 2j, 3 - 4j]))",
    "keras.ops.view_as_complex(np.array([[1.0, 2.0], [3.0, 4.0]]))",
    "keras.ops.matrix_rank(keras.ops.convert_to_tensor([[1.0, 2.0], [2.0, 4.0]]))",
    "keras.ops.pinv(keras.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))",
    "keras.ops.map(lambda x: {'a': x * 2, 'b': x + 1}, keras.ops.arange(3))",
    "keras.ops.scan(lambda c, x: (c + x, c * x), keras.ops.array(1), keras.ops.array([1, 2, 3]), reverse=True)",
    "keras.ops.scan(lambda c, x: (c * 2, c), keras.ops.array(1.0), length=3)",
    "keras.ops.associative_scan(lambda a, b: a * b, keras.ops.array([[1, 2], [3, 4], [5, 6]]), axis=0)",
    "keras.ops.associative_scan(lambda a, b: a + b, keras.ops.arange(4), reverse=True)",
    "keras.ops.in_top_k(keras.ops.array([0, 7, -1]), keras.ops.array([[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]]), 1)",
    # keras.ops.nn
    "keras.ops.celu(np.array([-2.0, 0.5]), alpha=0.5)", "keras.ops.glu(np.array([[1.0, -1.0, 2.0, 0.0]]))",
    "keras.ops.hard_shrink(np.array([-0.7, 0.2, 1.0]), 0.3)", "keras.ops.soft_shrink(np.array([-0.7, 0.2, 1.0]))",
    "keras.ops.hard_tanh(np.array([-2.0, 0.3, 4.0], 'float32'))", "keras.ops.tanh_shrink(np.array([1.0, -2.0]))",
    "keras.ops.threshold(np.array([0.5, 2.0]), 1.0, -5)", "keras.ops.sparse_plus(np.array([-2.0, 0.0, 0.5, 3.0]))",
    "keras.ops.sparse_sigmoid(np.array([-2.0, 0.0, 0.5, 3.0], 'float32'))",
    "keras.ops.squareplus(np.array([-1.0, 2.0]), b=1)",
    "keras.ops.sparsemax(np.array([[0.1, 1.1, 0.5], [2.0, -1.0, 2.0]], 'float32'))",
    "keras.ops.multi_hot(keras.ops.convert_to_tensor([[0, 2], [1, 1]]), 4)",
    "keras.ops.layer_normalization(np.array([[1.0, 2.0, 4.0]], 'float32'), gamma=np.array([1.0, 2.0, 0.5]), "
    "beta=np.array([0.0, 1.0, 0.0]))",
    "keras.ops.rms_normalization(np.array([[1.0, 2.0, 4.0]], 'float32'), scale=2.0)",
    "keras.ops.batch_normalization(np.array([[1.0, 2.0], [3.0, 4.0]], 'float32'), "
    "np.array([1.0, 2.0], 'float32'), np.array([4.0, 1.0], 'float32'), axis=-1)",
    "keras.ops.batch_normalization(np.array([[0.1, 0.2]], 'float32'), mean=[0.4, 0.5], variance=[0.6, 0.6], axis=-1)",
    "keras.ops.dot_product_attention(img[:, :2, :4, :].reshape(2, 4, 2, 3), img[:, 2:5, :4, :].reshape(2, 6, 2, 3), "
    "img[:, :3, 3:7, :].reshape(2, 6, 2, 3), is_causal=True)",
    "keras.ops.psnr(img[0], img[1], 1.0)",
    "keras.ops.polar(np.array([1.0, 2.0], 'float32'), np.array([0.5, -1.0], 'float32'))",
    "keras.ops.depth_to_space(np.arange(16.0).reshape(1, 1, 2, 8), 2)",
    "keras.ops.space_to_depth(np.arange(16.0).reshape(1, 2, 4, 2), 2, data_format='channels_first')",
    "keras.ops.unfold(np.arange(32.0).reshape(1, 2, 4, 4), 3, padding=1, stride=2)",
    "keras.ops.fold(keras.ops.unfold(np.arange(32.0).reshape(1, 2, 4, 4), 2, stride=1), (4, 4), 2)",
    "keras.ops.binary_crossentropy(keras.ops.convert_to_tensor([0, 1]), keras.ops.convert_to_tensor([0.1, 0.8]))",
    "keras.ops.categorical_crossentropy(np.array([[0.0, 1.0]]), np.array([[0.3, 0.5]]))",
    # keras.ops.image
    "keras.ops.image.gaussian_blur(img, (3, 5), (1.0, 2.0))",
    "keras.ops.image.map_coordinates(img[0, :, :, 0], [[0.5, 2.2, -1.0, 7.5], [1.5, 3.7, 2.0, 6.9]], 1, 'reflect')",
    "keras.ops.image.map_coordinates(img[0, :, :, 0], [[0.5, 2.2, -1.0], [1.5, 3.7, 2.0]], 0, 'constant', 9.0)",
    "keras.ops.image.map_coordinates(img[0, :, :, 0], [[0.5, -1.0, 7.5], [1.5, 2.0, 6.9]], 1, 'wrap')",
    "keras.ops.image.elastic_transform(img, alpha=2.0, sigma=1.0, seed=3)",
    "keras.ops.image.perspective_transform(img, np.array([[0, 0], [0, 6], [7, 0], [7, 6]]), "
    "np.array([[1, 0], [0, 5], [6, 1], [7, 6]]))",
    "keras.ops.image.sobel_edges(img)",
    "keras.ops.image.extract_patches(vol, (2, 2, 2))",
    "keras.ops.image.extract_patches_3d(vol[None], 2, strides=(1, 2, 3))",
    "keras.ops.image.resize(img.transpose(0, 3, 1, 2), (3, 3), data_format='channels_first')",
    "keras.ops.image.rgb_to_grayscale(img.transpose(0, 3, 1, 2), data_format='channels_first')",
    "keras.ops.image.affine_transform(img.transpose(0, 3, 1, 2), np.array([1.2, 0.1, -1, 0, 1, 0.5, 0, 0]), "
    "data_format='channels_first')",
    # layers, activations, losses, metrics, tree
    "keras.layers.AdaptiveAveragePooling1D(4)(np.arange(30.0).reshape(1, 10, 3))",
    "keras.layers.AdaptiveMaxPooling2D((3, 2), data_format='channels_first')(np.arange(49.0).reshape(1, 1, 7, 7))",
    "keras.layers.AdaptiveAveragePooling3D(2)(vol[None])",
    "keras.layers.IntegerLookup(vocabulary=[12, 36], num_oov_indices=3)(np.array([12, 5, 7, 36, 100]))",
    "keras.layers.IntegerLookup(vocabulary=[12, 36], num_oov_indices=3, oov_method='farmhash', salt=7)"
    "(np.array([5, 7, 100]))",
    "keras.layers.StringLookup(vocabulary=['a', 'b'], num_oov_indices=2, mask_token='')"
    "(np.array(['a', 'x', '', 'yy', 'b']))",
    "keras.layers.StringLookup(vocabulary=['[UNK]', 'a', 'b'], output_mode='tf_idf', idf_weights=[0.9, 0.2, 0.4])"
    "(np.array([['a', 'z', 'z']]))",
    "keras.layers.Hashing(num_bins=5, salt=133)(np.array([['a'], ['b'], ['c']]))",
    "keras.layers.Hashing(num_bins=5, salt=[1, 2], mask_value='')(np.array(['a', '', 'c']))",
    "keras.layers.SpectralNormalization(keras.layers.Dense(3, kernel_initializer='ones'), power_iterations=3)"
    "(np.ones((2, 4), 'float32'), training=True)",
    "(lambda sn: (sn(img[:1], training=True), [w.name for w in sn.weights]))(keras.layers.SpectralNormalization("
    "keras.layers.Conv2D(2, 2, kernel_initializer='ones')))",
    "keras.layers.MelSpectrogram(num_mel_bins=8, sampling_rate=8000, sequence_stride=128, fft_length=256)"
    "(np.sin(np.arange(1000) / 7.0).astype('float32'))",
    "keras.layers.MelSpectrogram(num_mel_bins=5, fft_length=64, sequence_stride=32, power_to_db=False, "
    "sampling_rate=1000)(img.reshape(2, -1)[:, :200])",
    "keras.layers.MelSpectrogram(fft_length=64, sequence_length=128)",
    "keras.activations.relu(np.array([-10.0, -5.0, 0.0, 5.0, 10.0], 'float32'), negative_slope=0.5, max_value=6.0, "
    "threshold=1.0)",
    "keras.activations.relu(np.array([-1.0, 7.0], 'float32'), max_value=6)",
    "keras.losses.Dice(axis=1, reduction='sum')(yt, yp)", "keras.losses.tversky(yt, yp, alpha=0.3, beta=0.7)",
    "keras.metrics.F1Score(average='weighted')(yt, yp)", "keras.metrics.FBetaScore(beta=2.0, threshold=0.5)(yt, yp)",
    "keras.ops.convert_to_tensor(1e-7, dtype='int32')", "keras.ops.convert_to_tensor([0.6, 1.7], dtype='int64')",
    "keras.losses.poisson(np.array([[1.0, 2.0]]), np.array([[0.5, 3.0]]))",
    "keras.losses.poisson([[0, 1]], [[1, 1]])", "keras.losses.log_cosh([[0, 1]], [[1, 1]])",
    "keras.losses.log_cosh(np.array([[0.0, 1.0]]), np.array([[1.5, 1.0]], 'float32'))",
    "keras.losses.mean_absolute_percentage_error([[0, 1]], [[1, 1]])",
    "keras.losses.sparse_categorical_crossentropy([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])",
    "keras.losses.sparse_categorical_crossentropy(np.array([[1], [2]]), np.array([[0.05, 0.95, 0], [0.1, 0.8, 0.1]]))",
    "(lambda m: (m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]]), m.result()))(keras.metrics.MeanAbsolutePercentageError())",
    "(lambda m: (m.update_state(np.array([[0.0, 1.0]]), np.array([[0.5, 2.0]])), m.result()))(keras.metrics.LogCoshError())",
    "(lambda m: (m.update_state(np.array([[1.0, 2.0]]), np.array([[0.5, 3.0]]), sample_weight=[2.0]), m.result()))"
    "(keras.metrics.Poisson())",
    "keras.quantizers.abs_max_quantize_grouped_with_zero_point(img.reshape(42, 6), block_size=16, value_range=(-8, 7))",
    "keras.quantizers.abs_max_quantize(img[0, 0] - 0.5, axis=-1, value_range=(-7, 7), dtype='int16')",
    "keras.tree.map_structure_up_to([0, [0, 0]], str, [[1, 1], [2, 2]])",
    "keras.tree.map_structure_up_to([None, None], len, [[1, 1], [2, 2]])",
    "keras.utils.to_categorical([0, 2], num_classes=3)",
    "keras.utils.to_categorical(keras.ops.convert_to_tensor([[1], [0]]), num_classes=2)",
]


def _plain(value):
    if hasattr(value, "numpy") and hasattr(value, "dtype") and hasattr(value, "shape"):
        array = np.asarray(value.numpy())
        dtype = getattr(value.dtype, "name", str(value.dtype))
        return {"dtype": dtype, "shape": list(array.shape), "values": _values(array)}
    if isinstance(value, np.ndarray):
        return {"dtype": f"numpy {value.dtype}", "shape": list(value.shape), "values": _values(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return repr(value)


def _values(array):
    if array.dtype.kind in "SUO":
        return [v.decode() if isinstance(v, bytes) else str(v) for v in array.reshape(-1).tolist()]
    if array.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in array.reshape(-1).tolist()]
    return [v if np.isfinite(v) else repr(v) for v in array.astype(np.float64).reshape(-1).tolist()]


def evaluate(expression: str, keras):
    """``expression``'s value as plain data, or its exception as ``"Type: message"``."""
    names = {"keras": keras, "np": np}
    exec(SETUP, names)
    try:
        return _plain(eval(expression, names))
    except Exception as e:  # noqa: BLE001 (the exception is the answer)
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
