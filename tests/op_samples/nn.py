"""Samples: activations, losses, convolutions and pooling (and their gradients), linear algebra, FFTs."""

import numpy as np

import devtrace as tf

from . import Sample
from .math import C, X, _grad, _sigmoid, t

A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], np.float32)  # symmetric positive definite
R = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], np.float32)
IMG = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1) % 5  # NHWC
K = np.array([[1.0, 0.0], [-1.0, 2.0]], np.float32).reshape(2, 2, 1, 1)  # HWIO


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _conv(img, k):  # VALID, stride 1, one channel
    h, w = img.shape[1] - k.shape[0] + 1, img.shape[2] - k.shape[1] + 1
    out = np.zeros((1, h, w, 1), np.float32)
    for i in range(h):
        for j in range(w):
            out[0, i, j, 0] = (img[0, i:i + k.shape[0], j:j + k.shape[1], 0] * k[:, :, 0, 0]).sum()
    return out


def _pool(img, fn):  # 2x2, stride 2
    return fn(img.reshape(1, 2, 2, 2, 2, 1), axis=(2, 4))


def _max_pool_grad(img):  # the gradient of sum(max_pool): 1 at each window's (first) maximum
    out = np.zeros_like(img)
    for i in range(2):
        for j in range(2):
            w = img[0, 2 * i:2 * i + 2, 2 * j:2 * j + 2, 0]
            a, b = np.unravel_index(w.argmax(), w.shape)
            out[0, 2 * i + a, 2 * j + b, 0] = 1
    return out


def _max_pool_grad_grad(x):
    """The gradient, with respect to the upstream gradient, of the sum of max_pool's gradient: each
    window's maximum takes its upstream value once, so ones (MaxPoolGrad's gradient op)."""
    up = tf.ones([1, 2, 2, 1])
    with tf.GradientTape() as outer:
        outer.watch(up)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.nn.max_pool2d(x, 2, 2, "VALID")
        g = inner.gradient(y, x, output_gradients=up)
    return outer.gradient(g, up)


def _sum_grad(fn, x):
    """The gradient of ``sum(fn(x))`` with respect to ``x``."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(fn(x))
    return tape.gradient(y, x)


def _bias_add_grad(x, b):
    """The gradient of ``sum(bias_add(x, b) * x)`` with respect to the bias (BiasAddGrad)."""
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.reduce_sum(tf.nn.bias_add(x, b) * x)
    return tape.gradient(y, b)


def _concat_grad(x):
    """A concatenation's gradient in a function graph (traced for this context): ConcatOffset,
    then one Slice per input."""
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.concat([x, x * 2.0], axis=1))
        return tape.gradient(y, x)
    return grad(x)


def _filter_grad(img):
    k = tf.constant(K)
    with tf.GradientTape() as tape:
        tape.watch(k)
        y = tf.reduce_sum(tf.nn.conv2d(img, k, 1, "VALID"))
    return tape.gradient(y, k)


def _lu_of_a(lu, p):
    """``tf.linalg.lu``'s packed factors rebuild the rows of A it permuted to."""
    lower, upper = np.tril(lu, -1) + np.eye(3), np.triu(lu)
    return p.dtype == np.int32 and np.allclose(lower @ upper, A[p], atol=1e-5)


def _expm_sym(s):
    w, v = np.linalg.eigh(s.astype(np.float64))
    return ((v * np.exp(w)) @ v.T).astype(np.float32)


_ONES3 = np.ones((1, 3, 3, 1), np.float32)

NN = [
    Sample("Relu", lambda: tf.nn.relu(t(X)), np.maximum(X, 0)),
    Sample("Relu6", lambda: tf.nn.relu6(t(X * 2)), np.clip(X * 2, 0, 6)),
    Sample("Elu", lambda: tf.nn.elu(t(X)), np.where(X > 0, X, np.expm1(X))),
    Sample("Selu", lambda: tf.nn.selu(t(X)), 1.0507009873554805 * np.where(X > 0, X, 1.6732632423543772 * np.expm1(X))),
    Sample("LeakyRelu", lambda: tf.nn.leaky_relu(t(X), 0.1), np.where(X > 0, X, 0.1 * X)),
    Sample("Softplus", lambda: tf.nn.softplus(t(X)), np.log1p(np.exp(X))),
    Sample("Softsign", lambda: tf.nn.softsign(t(X)), X / (1 + np.abs(X))),
    Sample("Softmax", lambda: tf.nn.softmax(t(X)), _softmax(X)),
    Sample("LogSoftmax", lambda: tf.nn.log_softmax(t(X)), np.log(_softmax(X))),
    Sample("L2Loss", lambda: tf.nn.l2_loss(t(X)), (X * X).sum() / 2),
    Sample("BiasAdd", lambda: tf.nn.bias_add(t(X), t(X[0])), X + X[0]),
    Sample("SoftmaxCrossEntropyWithLogits", lambda: tf.nn.softmax_cross_entropy_with_logits(t(_softmax(X[::-1])), t(X)),
           -(_softmax(X[::-1]) * np.log(_softmax(X))).sum(1)),
    Sample("SparseSoftmaxCrossEntropyWithLogits",
           lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(t([2, 0]), t(X)), -np.log(_softmax(X)[[0, 1], [2, 0]])),
    Sample("DepthToSpace", lambda: tf.nn.depth_to_space(t(IMG.reshape(1, 2, 2, 4)), 2),
           IMG.reshape(1, 2, 2, 2, 2, 1).transpose(0, 1, 3, 2, 4, 5).reshape(1, 4, 4, 1)),
    Sample("SpaceToDepth", lambda: tf.nn.space_to_depth(t(IMG), 2),
           IMG.reshape(1, 2, 2, 2, 2, 1).transpose(0, 1, 3, 2, 4, 5).reshape(1, 2, 2, 4)),
    Sample("Conv2D", lambda: tf.nn.conv2d(t(IMG), t(K), 1, "VALID"), _conv(IMG, K)),
    Sample("MaxPool", lambda: tf.nn.max_pool2d(t(IMG), 2, 2, "VALID"), _pool(IMG, np.max)),
    Sample("AvgPool", lambda: tf.nn.avg_pool2d(t(IMG), 2, 2, "VALID"), _pool(IMG, np.mean)),
    Sample("Conv2DBackpropInput", lambda: _sum_grad(lambda x: tf.nn.conv2d(x, t(K), 1, "VALID"), t(IMG)),
           _conv(np.pad(_ONES3, [(0, 0), (1, 1), (1, 1), (0, 0)]), K[::-1, ::-1])),
    Sample("Conv2DBackpropFilter", lambda: _filter_grad(t(IMG)),
           np.array([[IMG[0, i:i + 3, j:j + 3, 0].sum() for j in range(2)] for i in range(2)],
                    np.float32).reshape(2, 2, 1, 1)),
    Sample("MaxPoolGradGrad", lambda: _max_pool_grad_grad(t(IMG)), np.ones((1, 2, 2, 1), np.float32)),
    Sample("ReluGrad", lambda: _sum_grad(tf.nn.relu, t(X)), (X > 0).astype(np.float32)),
    Sample("BiasAddGrad", lambda: _bias_add_grad(t(X), t(X[0])), X.sum(0)),
    Sample("ConcatOffset", lambda: _concat_grad(t(X)), np.full(X.shape, 3.0, np.float32)),
    Sample("MaxPoolGrad", lambda: _sum_grad(lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"), t(IMG)), _max_pool_grad(IMG)),
    Sample("AvgPoolGrad", lambda: _sum_grad(lambda x: tf.nn.avg_pool2d(x, 2, 2, "VALID"), t(IMG)),
           np.full(IMG.shape, 0.25, np.float32)),
    Sample("MirrorPadGrad", lambda: _sum_grad(lambda x: tf.pad(x, [[1, 1], [0, 0]], mode="REFLECT"), t(X)),
           np.array([[1, 1, 1], [1, 1, 1]], np.float32) * 2),
    Sample("Sigmoid", lambda: tf.math.sigmoid(t(X)), _sigmoid(X), id="math"),
]

LINALG = [
    Sample("MatrixInverse", lambda: tf.linalg.inv(t(A)), np.linalg.inv(A)),
    Sample("MatrixDeterminant", lambda: tf.linalg.det(t(A)), np.linalg.det(A)),
    Sample("LogMatrixDeterminant", lambda: tf.linalg.slogdet(t(A)), list(np.linalg.slogdet(A))),
    Sample("MatrixSolve", lambda: tf.linalg.solve(t(A), t(R)), np.linalg.solve(A, R)),
    Sample("MatrixTriangularSolve", lambda: tf.linalg.triangular_solve(t(np.tril(A)), t(R)),
           np.linalg.solve(np.tril(A), R)),
    Sample("MatrixTriangularSolve", lambda: tf.linalg.triangular_solve(t(np.tril(A)), t(R), adjoint=True),
           np.linalg.solve(np.tril(A).T, R), id="adjoint"),
    # lstsq(fast=True) is TensorFlow's Cholesky composition (GPU kernels); only fast=False runs MatrixSolveLs (CPU only)
    Sample("MatrixTriangularSolve", lambda: tf.linalg.lstsq(t(R), t(A[:, :1])),
           np.linalg.lstsq(R, A[:, :1], rcond=None)[0], id="lstsq"),
    Sample("MatrixSolveLs", lambda: tf.linalg.lstsq(t(R), t(A[:, :1]), fast=False),
           np.linalg.lstsq(R, A[:, :1], rcond=None)[0], "CPU"),
    Sample("Conj", lambda: tf.matmul(t(C), t(C), adjoint_b=True), C @ C.conj().T, id="matmul-adjoint"),
    Sample("Cholesky", lambda: tf.linalg.cholesky(t(A)), np.linalg.cholesky(A)),
    Sample("Svd", lambda: tf.linalg.svd(t(R), compute_uv=False), np.linalg.svd(R, compute_uv=False)),
    Sample("Qr", lambda: tf.linalg.qr(t(A))[1] ** 2, np.linalg.qr(A)[1] ** 2),
    Sample("SelfAdjointEigV2", lambda: tf.linalg.eigvalsh(t(A)), np.linalg.eigvalsh(A)),
    Sample("Eig", lambda: tf.linalg.eigvals(t(A)),
           lambda w: w.dtype == np.complex64 and np.allclose(np.sort(w.real), np.linalg.eigvalsh(A), atol=1e-5), "CPU"),
    Sample("Lu", lambda: tf.linalg.lu(t(A)), _lu_of_a),
    Sample("MatrixExponential", lambda: tf.linalg.expm(t(A * 0.1)), _expm_sym(A * 0.1)),
    Sample("MatrixBandPart", lambda: tf.linalg.band_part(t(A), 0, 1), np.triu(np.tril(A, 1))),
    Sample("MatrixDiagV3", lambda: tf.linalg.diag(t(X[0])), np.diag(X[0])),
    Sample("MatrixDiagPartV3", lambda: tf.linalg.diag_part(t(A)), np.diag(A)),
    Sample("MatrixSetDiagV3", lambda: tf.linalg.set_diag(t(A), t(X[0])), A - np.diag(np.diag(A)) + np.diag(X[0])),
    Sample("Cross", lambda: tf.linalg.cross(t(X), t(A[:2])), np.cross(X, A[:2])),
    Sample("FFT", lambda: tf.signal.fft(t(C)), np.fft.fft(C)),
    Sample("IFFT", lambda: tf.signal.ifft(t(C)), np.fft.ifft(C)),
    Sample("FFT2D", lambda: tf.signal.fft2d(t(C)), np.fft.fft2(C)),
    Sample("IFFT2D", lambda: tf.signal.ifft2d(t(C)), np.fft.ifft2(C)),
    Sample("FFT3D", lambda: tf.signal.fft3d(t(C[None])), np.fft.fftn(C[None])),
    Sample("IFFT3D", lambda: tf.signal.ifft3d(t(C[None])), np.fft.ifftn(C[None])),
]


_IMG = np.arange(18, dtype=np.float32).reshape(1, 3, 3, 2)
_R = np.array([1, 2, 3, 4], np.float32)
_R2 = np.arange(8, dtype=np.float32).reshape(2, 4)
# ops added with tf.linalg/tf.signal/tf.nn's breadth; values from NumPy, or from TensorFlow 2.21 where
# NumPy has none (banded solve, depthwise convolution, isotonic regression: printed by TF 2.21's CPU)
BREADTH = [
    Sample("Diag", lambda: tf.linalg.tensor_diag(t(X[0])), np.diag(X[0])),
    Sample("DiagPart", lambda: tf.linalg.tensor_diag_part(t(A)), np.diag(A)),
    Sample("BandedTriangularSolve", lambda: tf.linalg.banded_triangular_solve(
        t(np.array([[1, 2, 3], [4, 5, 6]], np.float32)), t(np.ones((3, 1), np.float32))),
        np.array([[1.0], [-2.0], [4.333333492279053]], np.float32), "CPU"),
    Sample("RFFT", lambda: tf.signal.rfft(t(_R)), np.fft.rfft(_R).astype(np.complex64)),
    Sample("IRFFT", lambda: tf.signal.irfft(t(np.fft.rfft(_R).astype(np.complex64))), _R),
    Sample("RFFT2D", lambda: tf.signal.rfft2d(t(_R2)), np.fft.rfft2(_R2).astype(np.complex64)),
    Sample("IRFFT2D", lambda: tf.signal.irfft2d(t(np.fft.rfft2(_R2).astype(np.complex64))), _R2),
    Sample("RFFT3D", lambda: tf.signal.rfft3d(t(_R2[None])), np.fft.rfftn(_R2[None]).astype(np.complex64)),
    Sample("IRFFT3D", lambda: tf.signal.irfft3d(t(np.fft.rfftn(_R2[None]).astype(np.complex64))), _R2[None]),
    Sample("DepthwiseConv2dNative", lambda: tf.nn.depthwise_conv2d(t(_IMG), t(np.ones((2, 2, 2, 1), np.float32)),
                                                                   [1, 1, 1, 1], "VALID"),
           np.array([[[[16, 20], [24, 28]], [[40, 44], [48, 52]]]], np.float32)),
    Sample("IsotonicRegression", lambda: tf.nn.isotonic_regression(t(np.array([[3, 1, 2]], np.float32))),
           [np.array([[3, 1.5, 1.5]], np.float32), np.array([[0, 1, 1]], np.int32)], "CPU"),
]

def _sigm(z):
    return 1.0 / (1.0 + np.exp(-z))


def _lstm_ref(x, h0, c0, p):
    """One-unit, one-feature LSTM in cuDNN's params layout (i f c o weights, recurrent weights, input
    then recurrent biases), batch-major: outputs ``(1, T, 1)``, states ``(1, 1, 1)``."""
    w, r, bw, br = p[:4], p[4:8], p[8:12], p[12:]
    h, c, out = h0.reshape(()), c0.reshape(()), []
    for xt in x.reshape(-1):
        z = w * xt + bw + r * h + br
        i, f, g, o = _sigm(z[0]), _sigm(z[1]), np.tanh(z[2]), _sigm(z[3])
        c = f * c + i * g
        h = o * np.tanh(c)
        out.append(h)
    return np.array(out).reshape(1, -1, 1), h.reshape(1, 1, 1), c.reshape(1, 1, 1)


_RX, _RH, _RC = np.array([[[0.5], [-1.0]]]), np.array([[[0.2]]]), np.array([[[-0.3]]])
_RP = np.linspace(-0.5, 0.5, 16)
_ROUT = _lstm_ref(_RX, _RH, _RC, _RP)


def _numeric_grads():
    """d sum(outputs) / d (input, input_h, input_c, params), by central differences in float64."""
    args, grads = [_RX, _RH, _RC, _RP], []
    for k, a in enumerate(args):
        g = np.zeros_like(a)
        for j in range(a.size):
            step = np.zeros_like(a).reshape(-1)
            step[j] = 1e-6
            up = [b + step.reshape(a.shape) if m == k else b for m, b in enumerate(args)]
            down = [b - step.reshape(a.shape) if m == k else b for m, b in enumerate(args)]
            g.reshape(-1)[j] = (_lstm_ref(*up)[0].sum() - _lstm_ref(*down)[0].sum()) / 2e-6
        grads.append(g.astype(np.float32))
    return grads


def _cudnn(*inputs):
    from devtrace.runtime.eager.executor import execute

    return execute("CudnnRNNV3", tuple(t(np.asarray(a, np.float32)) for a in inputs[:4]) + (t(np.array([2], np.int32)),),
                   {"rnn_mode": "lstm", "is_training": True, "time_major": False})


def _cudnn_backprop():
    from devtrace.runtime.eager.executor import execute

    f32 = [t(np.asarray(a, np.float32)) for a in (_RX, _RH, _RC, _RP)]
    outs = [t(np.asarray(a, np.float32)) for a in _ROUT]
    grads = [t(np.ones((1, 2, 1), np.float32)), t(np.zeros((1, 1, 1), np.float32)), t(np.zeros((1, 1, 1), np.float32))]
    return execute("CudnnRNNBackpropV3", tuple(f32) + (t(np.array([2], np.int32)),) + tuple(outs) + tuple(grads)
                   + (t(np.zeros((0,), np.float32)), t(np.zeros((0,), np.int8))),
                   {"rnn_mode": "lstm", "is_training": True, "time_major": False})


CUDNN = [
    Sample("CudnnRNNV3", lambda: list(_cudnn(_RX, _RH, _RC, _RP)[:3]), [a.astype(np.float32) for a in _ROUT],
           "GPU only"),
    Sample("CudnnRNNBackpropV3", lambda: list(_cudnn_backprop()), _numeric_grads(), "GPU only"),
]

SAMPLES = NN + LINALG + BREADTH + CUDNN
