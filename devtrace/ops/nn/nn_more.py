"""More of ``tf.nn``: depthwise_conv2d (``DepthwiseConv2dNative``, CPU and GPU kernels as
TensorFlow's), isotonic_regression (``IsotonicRegression``, CPU only as TensorFlow: pool adjacent
violators) and embedding_lookup_sparse (gathers and segment reductions, as TensorFlow composes it)."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU, GPU
from ...runtime.values import constant
from ..array import array_ops
from ..declare import API, as_tensor, on_host, op, public
from .. import shapes
from .nn_impl import _pair, _windows

_F = frozenset(("float16", "bfloat16", "float32", "float64"))


def _depthwise(xp, x, filters, strides=(1, 1), padding="VALID", explicit_paddings=()):
    if padding == "EXPLICIT":
        pads = np.asarray(explicit_paddings, np.int64).reshape(4, 2)
        x, padding = xp.pad(x, [tuple(p) for p in pads]), "VALID"
    win = _windows(xp, x, filters.shape[:2], strides, padding)  # (n, h, w, kh, kw, c)
    out = xp.einsum("nhwijc,ijcm->nhwcm", win, filters)
    return out.reshape(out.shape[:3] + (-1,)).astype(x.dtype)


op("DepthwiseConv2dNative", _depthwise, _F, devices=(CPU, GPU), shape=shapes.depthwise_conv2d)


@public("nn.depthwise_conv2d")
def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):  # noqa: A002
    if data_format not in (None, "NHWC") or (dilations is not None and tuple(_pair(dilations)) != (1, 1)):
        raise NotImplementedError("devtrace does not implement tf.nn.depthwise_conv2d with data_format "
                                  f"{data_format!r} or dilations {dilations!r} yet")
    attrs = {"strides": _pair(strides)}
    if isinstance(padding, str):
        attrs["padding"] = padding.upper()
    else:
        attrs.update(padding="EXPLICIT", explicit_paddings=[int(v) for pair in padding for v in pair])
    return execute("DepthwiseConv2dNative", (as_tensor(input), as_tensor(filter)), attrs, name=name)


def _pav_decreasing(y):
    """Pool adjacent violators: the non-increasing fit of ``y``, and each element's block."""
    blocks = []  # [sum, count]
    for v in y:
        blocks.append([float(v), 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] <= blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    fit = np.concatenate([[s / c] * c for s, c in blocks])
    segments = np.concatenate([[k] * c for k, (_, c) in enumerate(blocks)])
    return fit, segments


def _isotonic(xp, x, output_dtype="float32"):
    rows = on_host(xp, x).reshape(-1, x.shape[-1])
    fits, segments = zip(*[_pav_decreasing(r) for r in rows]) if len(rows) else ((), ())
    out = dtypes.as_dtype(output_dtype).np
    return (xp.asarray(np.array(fits, out).reshape(x.shape)), xp.asarray(np.array(segments, np.int32).reshape(x.shape)))


def _isotonic_shapes(name, shapes, attrs, dtype):
    return [(dtypes.as_dtype(attrs.get("output_dtype", "float32")), shapes[0]), (dtypes.int32, shapes[0])], None


op("IsotonicRegression", _isotonic, None, devices=(CPU,), shape=_isotonic_shapes, multi=True)


@public("nn.isotonic_regression")
def isotonic_regression(inputs, decreasing=True, axis=-1):
    x = as_tensor(inputs)
    rank = x.shape.rank
    axis %= rank
    perm = [d for d in range(rank) if d != axis] + [axis]
    moved = array_ops.transpose(x, perm) if axis != rank - 1 else x
    if not decreasing:
        moved = API["negative"](moved)
    out_dtype = x.dtype if x.dtype.is_floating else dtypes.float32
    fit, segments = execute("IsotonicRegression", (moved,), {"output_dtype": out_dtype.name})
    if not decreasing:
        fit = API["negative"](fit)
    if axis != rank - 1:
        back = list(np.argsort(perm))
        fit, segments = array_ops.transpose(fit, back), array_ops.transpose(segments, back)
    return fit, segments


@public("nn.embedding_lookup_sparse")
def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner="mean", max_norm=None, name=None,
                            allow_fast_lookup=False):
    """Each row of ``sp_ids``: its ids' embeddings combined (``sum``, ``mean``, ``sqrtn``), weighted."""
    if combiner not in ("sum", "mean", "sqrtn"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    rows = constant(sp_ids.indices.numpy()[:, 0], dtypes.int64)
    count = int(sp_ids.dense_shape.numpy()[0])
    embedded = API["gather"](params, sp_ids.values)
    if sp_weights is None:
        weights = constant(np.ones(len(sp_ids.values.numpy()), embedded.dtype.np), embedded.dtype)
    else:
        weights = API["cast"](sp_weights.values, embedded.dtype)
    weighted = API["multiply"](embedded, API["expand_dims"](weights, -1))
    total = API["math.unsorted_segment_sum"](weighted, rows, count)
    if combiner == "sum":
        return total
    scale = weights if combiner == "mean" else API["multiply"](weights, weights)
    norm = API["math.unsorted_segment_sum"](scale, rows, count)
    if combiner == "sqrtn":
        norm = API["sqrt"](norm)
    return API["math.divide_no_nan"](total, API["expand_dims"](norm, -1))


@public("nn.safe_embedding_lookup_sparse")
def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean", default_id=None,
                                 max_norm=None, name=None, allow_fast_lookup=False):
    """``embedding_lookup_sparse`` that tolerates what it would not (TensorFlow's composition): ids below 0
    (and, unless summing, weights not above 0) pruned, rows of any rank flattened to one batch dimension
    and back, an empty row the ``default_id``'s embedding or zeros."""
    from ..sparse.sparse_tensor import SparseTensor

    weights = embedding_weights[0] if isinstance(embedding_weights, (list, tuple)) and len(embedding_weights) == 1 \
        else API["concat"](list(embedding_weights), 0) if isinstance(embedding_weights, (list, tuple)) \
        else embedding_weights
    original_shape = [int(d) for d in sparse_ids.dense_shape.numpy()]
    rows = int(np.prod(original_shape[:-1]))
    sparse_ids = API["sparse.reshape"](sparse_ids, [rows, original_shape[-1]])
    if sparse_weights is not None:
        sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
    keep = API["greater_equal"](sparse_ids.values, 0)
    sparse_ids = API["sparse.retain"](sparse_ids, keep)
    if sparse_weights is not None:
        sparse_weights = API["sparse.retain"](sparse_weights, keep)
        if combiner != "sum":
            positive = API["greater"](sparse_weights.values, 0)
            sparse_ids = API["sparse.retain"](sparse_ids, positive)
            sparse_weights = API["sparse.retain"](sparse_weights, positive)
    sparse_ids, is_row_empty = API["sparse.fill_empty_rows"](sparse_ids, default_id or 0)
    if sparse_weights is not None:
        sparse_weights, _ = API["sparse.fill_empty_rows"](sparse_weights, 1.0)
    result = API["nn.embedding_lookup_sparse"](weights, sparse_ids, sparse_weights, combiner=combiner,
                                               max_norm=max_norm)
    if default_id is None:
        is_row_empty = API["tile"](API["reshape"](is_row_empty, [-1, 1]), [1, int(result.shape[1])])
        result = API["where"](is_row_empty, API["zeros_like"](result), result)
    return API["reshape"](result, original_shape[:-1] + list(result.shape[1:]))
