"""More of ``keras.ops.nn`` (served as ``keras.ops.X`` too): the shrinking and clipping activations
(``celu``, ``glu``, ``hard_tanh``, ``soft_shrink``, ``sparsemax`` …), ``multi_hot``, the normalizations
(``batch_normalization``, ``layer_normalization``, ``rms_normalization``), ``dot_product_attention``,
``psnr``, ``polar``, ``depth_to_space``/``space_to_depth`` and ``unfold``/``fold`` — on devtrace's ops, as
Keras's TensorFlow backend composes them (an input keeps its dtype: NumPy's float64 stays float64)."""

from __future__ import annotations

import devtrace as tf


def _t(x, dtype=None):
    return tf.convert_to_tensor(x, dtype=dtype) if not tf.is_tensor(x) else (x if dtype is None else tf.cast(x, dtype))


def celu(x, alpha=1.0):
    x = _t(x)
    return tf.maximum(x, 0.0) + alpha * tf.math.expm1(tf.minimum(x, 0.0) / alpha)


def glu(x, axis=-1):
    x = _t(x)
    if x.shape[axis] % 2 != 0:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={x.shape} with axis={axis}")
    a, b = tf.split(x, 2, axis=axis)
    return a * tf.sigmoid(b)


def hard_tanh(x):
    return tf.clip_by_value(_t(x), -1.0, 1.0)


def hard_shrink(x, threshold=0.5):
    x = _t(x)
    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))


def soft_shrink(x, threshold=0.5):
    x = _t(x)
    return tf.where(x > threshold, x - threshold, tf.where(x < -threshold, x + threshold, tf.zeros_like(x)))


def tanh_shrink(x):
    x = _t(x)
    return x - tf.tanh(x)


def threshold(x, threshold, default_value):
    x = _t(x)
    return tf.where(x > threshold, x, tf.cast(default_value, x.dtype))


def sparse_plus(x):
    x = _t(x)
    return tf.where(x <= -1, tf.zeros_like(x), tf.where(x < 1, 0.25 * tf.square(x + 1), x))


def sparse_sigmoid(x):
    x = _t(x)
    return tf.where(x <= -1, tf.constant(0.0, x.dtype), tf.where(x >= 1, tf.constant(1.0, x.dtype), 0.5 * (x + 1)))


def squareplus(x, b=4):
    x = _t(x)
    return (x + tf.sqrt(tf.square(x) + tf.cast(b, x.dtype))) / 2


def sparsemax(x, axis=-1):
    """Martins & Astudillo's sparsemax: the Euclidean projection of ``x`` on the simplex along ``axis``."""
    x = _t(x)
    ordered = tf.sort(x, direction="DESCENDING", axis=axis)
    running = tf.cumsum(ordered, axis=axis)
    shape = [1] * x.shape.rank
    shape[axis] = -1
    k = tf.reshape(tf.range(1, tf.shape(x)[axis] + 1, dtype=x.dtype), shape)
    support = ordered - (running - 1) / k > 0
    count = tf.reduce_sum(tf.cast(support, x.dtype), axis=axis, keepdims=True)
    tau = (tf.reduce_sum(tf.where(support, running, tf.zeros_like(running)), axis=axis, keepdims=True) - 1) / count
    return tf.maximum(x - tau, tf.zeros_like(x))


def multi_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    if sparse:
        raise NotImplementedError("devtrace does not implement keras.ops.multi_hot(sparse=True) yet")
    x = _t(x)
    over = 1 if x.shape.rank > 1 else 0
    bool_out = dtype is not None and tf.as_dtype(dtype) == tf.bool
    hot = tf.one_hot(tf.cast(x, tf.int64), num_classes, axis=axis, dtype=tf.float32 if dtype is None else dtype,
                     **({"on_value": True, "off_value": False} if bool_out else {}))
    return tf.reduce_any(hot, axis=over) if bool_out else tf.reduce_max(hot, axis=over)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """``tf.nn.batch_normalization``, the statistics reshaped to broadcast on ``axis`` (given as
    they are: a Python list fails there, as under Keras's TensorFlow backend)."""
    x = _t(x)
    if axis != -1:
        shape = [1] * x.shape.rank
        shape[axis] = mean.shape[0]
        mean, variance = tf.reshape(mean, shape), tf.reshape(variance, shape)
        offset = None if offset is None else tf.reshape(offset, shape)
        scale = None if scale is None else tf.reshape(scale, shape)
    return tf.nn.batch_normalization(x, mean, variance, offset, scale, epsilon)


def _compute_dtype(x):
    return tf.float64 if x.dtype == tf.float64 else tf.float32


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    from .. import config

    x = _t(x)
    original = x.dtype
    x = tf.cast(x, _compute_dtype(x))
    eps = config.epsilon() if epsilon is None else epsilon
    if x.shape.rank == 0:
        x = x[None]
    axis = sorted(axis) if isinstance(axis, (list, tuple)) else axis
    out = x * tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=axis, keepdims=True) + eps)
    if scale is not None:
        out = out * _t(scale, x.dtype)
    return tf.cast(out, original)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, rms_scaling=False, **kwargs):
    from .. import config

    if kwargs:
        raise TypeError(f"Argument(s) {tuple(kwargs)} are not supported.")
    x = _t(x)
    original = x.dtype
    x = tf.cast(x, _compute_dtype(x))
    eps = config.epsilon() if epsilon is None else epsilon
    gamma = None if gamma is None else _t(gamma, x.dtype)
    beta = None if beta is None else _t(beta, x.dtype)
    rank = x.shape.rank
    axes = sorted([axis] if isinstance(axis, int) else list(axis))
    axes = [a % rank for a in axes]
    shape = [1] * rank
    for a in axes:
        shape[a] = x.shape[a]

    def broadcast(v):
        return tf.reshape(v, shape) if v is not None and v.shape.rank != rank and axes != [rank - 1] else v
    if rms_scaling:
        out = x * tf.math.rsqrt(tf.math.reduce_variance(x, axis=axes, keepdims=True) + eps)
        if gamma is not None:
            out = out * broadcast(gamma)
        return tf.cast(out, original)
    mean, variance = tf.nn.moments(x, axes, keepdims=True)
    inv = tf.math.rsqrt(variance + eps)
    if gamma is not None:
        inv = inv * broadcast(gamma)
    shift = -mean * inv
    if beta is not None:
        shift = shift + broadcast(beta)
    return tf.cast(x * inv + shift, original)


def psnr(x1, x2, max_val):
    x1, x2 = _t(x1), _t(x2)
    if x1.shape != x2.shape:
        raise ValueError(f"Input shapes {x1.shape} and {x2.shape} must match for PSNR calculation. ")
    max_val = _t(max_val, x2.dtype)
    mse = tf.reduce_mean(tf.square(x1 - x2))
    ln10 = tf.math.log(tf.constant(10.0, x2.dtype))
    return 20 * (tf.math.log(max_val) / ln10) - 10 * (tf.math.log(mse) / ln10)


def polar(abs_, angle):
    abs_, angle = _t(abs_), _t(angle)
    return tf.complex(abs_ * tf.cos(angle), abs_ * tf.sin(angle))


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    if flash_attention:
        raise ValueError("Flash attention is not supported in tensorflow backend.")
    query, key, value = _t(query), _t(key), _t(value)
    if query.shape.rank != 4:
        raise ValueError("`dot_product_attention` only supports 4D inputs. Received: "
                         f"query.shape={query.shape}, key.shape={key.shape}, value.shape={value.shape}.")
    heads, kv_heads = query.shape[2], key.shape[2]
    if heads is not None and kv_heads is not None and heads > kv_heads > 1:
        key = tf.repeat(key, heads // kv_heads, axis=2)
        value = tf.repeat(value, heads // kv_heads, axis=2)
    if scale is None:
        scale = 1.0 / tf.sqrt(tf.cast(tf.shape(key)[-1], tf.float32))
    logits = tf.einsum("BTNH,BSNH->BNTS", query, key)
    logits = logits * tf.cast(scale, logits.dtype)
    if bias is not None:
        logits = logits + tf.cast(bias, logits.dtype)
    if mask is not None or is_causal:
        keep = tf.ones_like(logits, dtype=tf.bool)
        if mask is not None:
            keep = tf.logical_and(keep, mask)
        if is_causal:
            t, s = tf.shape(logits)[2], tf.shape(logits)[3]
            keep = tf.logical_and(keep, tf.linalg.band_part(tf.ones((t, s), tf.bool), -1, 0)[None, None])
        large_negative = (65500.0 if logits.dtype == tf.float16 else 3.38953e38) * -0.7
        logits = tf.where(keep, logits, tf.constant(large_negative, logits.dtype))
    probs = tf.cast(tf.nn.softmax(tf.cast(logits, _compute_dtype(logits)), axis=-1), key.dtype)
    return tf.einsum("BNTS,BSNH->BTNH", probs, value)


def _channels(x, data_format, fn, block_size):
    x = _t(x)
    if data_format == "channels_last":
        return fn(x, block_size)
    return tf.transpose(fn(tf.transpose(x, [0, 2, 3, 1]), block_size), [0, 3, 1, 2])


def depth_to_space(x, block_size, data_format="channels_last"):
    return _channels(x, data_format, tf.nn.depth_to_space, block_size)


def space_to_depth(x, block_size, data_format="channels_last"):
    return _channels(x, data_format, tf.nn.space_to_depth, block_size)


def _two(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002 (Keras's name)
    """Torch's ``unfold`` of an NCHW batch: ``(N, C*kH*kW, L)``, the sliding blocks as columns."""
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = _two(kernel_size), _two(dilation), _two(padding), _two(stride)
    x = _t(input)
    n, c = x.shape[0], x.shape[1]
    if ph or pw:
        x = tf.pad(x, [[0, 0], [0, 0], [ph, ph], [pw, pw]])
    patches = tf.image.extract_patches(tf.transpose(x, [0, 2, 3, 1]), sizes=[1, kh, kw, 1], strides=[1, sh, sw, 1],
                                       rates=[1, dh, dw, 1], padding="VALID")
    nh, nw = patches.shape[1], patches.shape[2]
    patches = tf.transpose(tf.reshape(patches, [n, nh, nw, kh, kw, c]), [0, 5, 3, 4, 1, 2])
    return tf.reshape(patches, [n, c * kh * kw, nh * nw])


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Torch's ``fold`` (col2im), ``unfold``'s adjoint: the blocks summed back into ``(N, C, oH, oW)``."""
    (kh, kw), (oh, ow), (dh, dw), (ph, pw), (sh, sw) = (_two(kernel_size), _two(output_size), _two(dilation),
                                                        _two(padding), _two(stride))
    x = _t(x)
    n, c = x.shape[0], x.shape[1] // (kh * kw)
    nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    blocks = tf.reshape(x, [n, c, kh, kw, nh, nw])
    out = tf.zeros([n, c, oh + 2 * ph, ow + 2 * pw], x.dtype)
    rows, cols = tf.range(nh) * sh, tf.range(nw) * sw
    for i in range(kh):
        for j in range(kw):
            grid = tf.stack(tf.meshgrid(rows + i * dh, cols + j * dw, indexing="ij"), -1)  # (nH, nW, 2)
            moved = tf.transpose(blocks[:, :, i, j], [2, 3, 0, 1])  # (nH, nW, N, C)
            out = tf.transpose(tf.tensor_scatter_nd_add(tf.transpose(out, [2, 3, 0, 1]), grid, moved), [2, 3, 0, 1])
    return out[:, :, ph:ph + oh, pw:pw + ow]


__all__ = sorted(n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == __name__)
