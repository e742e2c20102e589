"""``keras.ops`` (Keras 3's backend-agnostic ops, its TensorFlow backend) on devtrace's ops, so each
is placed, logged and accounted like any TensorFlow op: the NumPy-like functions (``numpy``), the
neural-network ones (``nn``), ``linalg``, ``image`` and the core ones (``cast``, ``shape``,
``switch`` …). A Keras op devtrace does not map yet says so in one line."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

from . import image, linalg, math, nn, numpy
from .core import (associative_scan, cast, cond, convert_to_numpy, convert_to_tensor, custom_gradient, dtype, erf,
                   fori_loop, is_tensor, jvp, logsumexp, map, rearrange, rsqrt, scan, scatter, scatter_update, shape,
                   slice, slice_update, stop_gradient, switch, top_k, unstack, while_loop)
from .linalg import cholesky, det, inv, matrix_rank, norm, pinv, qr, solve
from .math import (cdist, erfc, erfinv, extract_sequences, fft, fft2, ifft2, in_top_k, irfft, istft, logdet, rfft,
                   segment_max, segment_min, segment_prod, segment_sum, stft, view_as_complex, view_as_real)
from .nn import (average_pool, binary_crossentropy, conv, depthwise_conv, max_pool, categorical_crossentropy, elu, gelu, hard_sigmoid, hard_silu, hard_swish,
                 leaky_relu, log_sigmoid, log_softmax, moments, normalize, one_hot, relu, relu6, selu, sigmoid, silu,
                 softmax, softplus, softsign, sparse_categorical_crossentropy)
from .nn_more import *  # noqa: F401,F403 (keras.ops re-exports these of keras.ops.nn)
from .nn_more import __all__ as _nn_more_all
from .numpy import *  # noqa: F401,F403 (keras.ops re-exports keras.ops.numpy)
from .numpy import __all__ as _numpy_all

__all__ = sorted({"cholesky", "det", "inv", "qr", "solve", *_nn_more_all, "associative_scan", "map", "scan", "matrix_rank", "pinv", "cdist", "erfc", "ifft2", "istft",
                  "logdet", "segment_prod", "stft", "view_as_complex", "view_as_real", "erfinv", "extract_sequences", "fft", "fft2", "in_top_k", "irfft", "rfft", "segment_max",
                  "segment_min", "segment_sum", "math", "average_pool", "conv", "depthwise_conv", "max_pool",
                  "binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy", "cast", "cond", "erf", "logsumexp", "rsqrt", "top_k", "convert_to_numpy", "convert_to_tensor", "dtype", "gelu", "image", "is_tensor", "jvp",
                  "linalg", "log_softmax", "nn", "norm", "numpy", "one_hot", "rearrange", "relu", "relu6", "shape",
                  "sigmoid", "silu", "softmax", "softplus", "softsign", "stop_gradient", "switch", "custom_gradient", "elu",
                  "fori_loop", "hard_sigmoid", "hard_silu", "hard_swish", "leaky_relu", "log_sigmoid", "moments",
                  "normalize", "scatter", "scatter_update", "selu", "slice", "slice_update", "unstack", "while_loop",
                  *_numpy_all})
from . import symbolic as _symbolic  # noqa: E402
import sys as _sys  # noqa: E402

for _module in (numpy, nn, linalg, image, math):
    _symbolic.install(_module, getattr(_module, "__all__", ()))
_symbolic.install(_sys.modules[__name__], __all__)
__getattr__ = _missing("keras.ops")
