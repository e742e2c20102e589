"""``keras.quantizers``: Keras 3's weight quantization helpers ``abs_max_quantize`` (symmetric, per
axis) and ``abs_max_quantize_grouped_with_zero_point`` (asymmetric, per group of rows, with a zero
point, computed as Keras's ``compute_quantization_parameters`` computes it), on ``keras.ops`` as Keras
composes them (its device path; ``to_numpy=True`` is not implemented). The quantizer classes and
configs are not implemented yet."""

from __future__ import annotations

import math

from devtrace.util.namespace import missing as _missing

from . import keywords, ops

_EPSILON = 1e-7  # Keras's default: backend.epsilon() when keras.quantizers is imported


def abs_max_quantize(inputs, axis, value_range=(-127, 127), dtype="int8", epsilon=_EPSILON, to_numpy=False):
    """``(round(inputs * scale) clipped to value_range, scale)``, ``scale = max / (max |inputs| + eps)``."""
    keywords.unimplemented("keras.quantizers.abs_max_quantize", to_numpy=(to_numpy, False))
    inputs = ops.convert_to_tensor(inputs)
    scale = ops.divide(value_range[1], ops.add(ops.max(ops.abs(inputs), axis=axis, keepdims=True), epsilon))
    scale = ops.cast(scale, inputs.dtype)
    outputs = ops.clip(ops.round(ops.multiply(inputs, scale)), value_range[0], value_range[1])
    return ops.cast(outputs, dtype), scale


def _quantization_parameters(x, *, bits, symmetric=False, per_channel=False, group_size=-1,
                             compute_dtype="float32", epsilon=0.0, signed=False):
    """``(scale, zero, maxq)`` for ``x`` of shape ``[out_features, in_features]``: per tensor, per
    channel, or per group of ``group_size`` inputs; the zero point int8 (``signed``) or uint8."""
    if x is None:
        raise ValueError(f"Input tensor {x} cannot be None.")
    if len(x.shape) < 2:
        raise ValueError(f"Input weight tensor {x} must have a rank of at least 2, but got rank {len(x.shape)}.")
    if ops.size(x) == 0:
        raise ValueError("Input tensor 'x' cannot be empty.")
    out_features, in_features = x.shape[0], x.shape[1]
    n_groups = (in_features + group_size - 1) // group_size if per_channel and group_size > 0 else 1
    if n_groups > 1:
        if in_features % group_size:
            x = ops.pad(x, [[0, 0], [0, group_size - in_features % group_size]], constant_values=0.0)
        grouped = ops.reshape(x, [out_features, n_groups, group_size])
        low, high = ops.min(grouped, axis=2), ops.max(grouped, axis=2)
    else:
        flat = ops.reshape(x, [out_features, -1] if per_channel else [1, -1])
        low, high = ops.min(flat, axis=1), ops.max(flat, axis=1)
    if symmetric:
        max_abs = ops.maximum(ops.abs(low), high)
        low, high = ops.where(ops.less(low, 0), ops.negative(max_abs), low), max_abs
    flat_range = ops.equal(low, high)
    low = ops.where(flat_range, ops.subtract(low, 1), low)
    high = ops.where(flat_range, ops.add(high, 1), high)
    maxq = ops.cast(ops.subtract(ops.power(2, bits), 1), compute_dtype)
    spread = ops.subtract(high, low)
    if epsilon > 0:
        spread = ops.add(spread, epsilon)
    scale = ops.divide(spread, maxq)
    scale = ops.where(ops.less_equal(scale, 0), 1e-8, scale)
    if signed:
        qmin, qmax = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        zero = (ops.full_like(scale, ops.divide(ops.add(maxq, 1), 2) + qmin) if symmetric
                else ops.add(ops.round(ops.divide(ops.negative(low), scale)), qmin))
        zero = ops.clip(zero, qmin, qmax)
    else:
        zero = (ops.full_like(scale, ops.divide(ops.add(maxq, 1), 2)) if symmetric
                else ops.round(ops.divide(ops.negative(low), scale)))
    if n_groups == 1:
        if per_channel:
            scale, zero = ops.reshape(scale, [-1, 1]), ops.reshape(zero, [-1, 1])
        else:
            scale = ops.tile(ops.reshape(scale, (1, 1)), (out_features, 1))
            zero = ops.tile(ops.reshape(zero, (1, 1)), (out_features, 1))
    return scale, ops.cast(zero, "int8" if signed else "uint8"), maxq


def abs_max_quantize_grouped_with_zero_point(inputs, block_size, value_range=(-8, 7), dtype="int8",
                                             epsilon=_EPSILON, to_numpy=False):
    """``(quantized, scale, zero_point)`` of a 2-D ``inputs``: each group of ``block_size`` rows gets a
    scale and a zero point per column (shapes ``(n_groups, output_dim)``)."""
    keywords.unimplemented("keras.quantizers.abs_max_quantize_grouped_with_zero_point", to_numpy=(to_numpy, False))
    inputs = ops.convert_to_tensor(inputs)
    input_dim, output_dim = inputs.shape[0], inputs.shape[1]
    qmin, qmax = value_range
    bits = int(math.log2(qmax - qmin + 1))
    n_groups = int(math.ceil(int(input_dim) / block_size))
    padded = n_groups * block_size
    scale_t, zero_t, _ = _quantization_parameters(ops.transpose(inputs), bits=bits, symmetric=False,
                                                         per_channel=True, group_size=block_size,
                                                         compute_dtype=inputs.dtype.name, epsilon=epsilon,
                                                         signed=True)
    scale, zero_point = ops.transpose(scale_t), ops.transpose(zero_t)
    if padded > input_dim:
        inputs = ops.concatenate([inputs, ops.zeros((padded - input_dim, output_dim), dtype=inputs.dtype)], axis=0)
    blocks = ops.reshape(inputs, (n_groups, block_size, output_dim))
    outputs = ops.add(ops.round(ops.divide(blocks, ops.expand_dims(scale, 1))), ops.expand_dims(zero_point, 1))
    outputs = ops.cast(ops.clip(outputs, qmin, qmax), dtype)
    return ops.reshape(outputs, (padded, output_dim))[:input_dim, :], scale, zero_point


__all__ = ["abs_max_quantize", "abs_max_quantize_grouped_with_zero_point"]
__getattr__ = _missing("keras.quantizers")
