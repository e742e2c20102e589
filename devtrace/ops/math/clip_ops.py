"""Clipping, composed as TensorFlow's ``clip_ops.py`` composes it: ``clip_by_value``,
``clip_by_norm``, ``global_norm`` (from ``L2Loss``) and ``clip_by_global_norm``. ``IndexedSlices``
(a gather's gradient) are clipped by their values, and stay ``IndexedSlices``, as TensorFlow's."""

from __future__ import annotations

from ...runtime.values import constant
from ..array.array_ops import cast, identity, ones_like, stack, where
from ..declare import as_tensor, public
from ..sparse.indexed_slices import IndexedSlices
from .math_ops import maximum, minimum, multiply, reduce_sum, sqrt
from ..nn.nn_ops import l2_loss


@public("clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """``Minimum`` then ``Maximum``."""
    return maximum(minimum(t, clip_value_max), clip_value_min)


@public("clip_by_norm")
def clip_by_norm(t, clip_norm, axes=None, name=None):
    """``t * clip_norm / max(l2norm(t), clip_norm)``."""
    values = as_tensor(_values(t))
    l2sum = reduce_sum(values * values, axes, keepdims=True)
    pred = l2sum > 0
    l2norm = where(pred, sqrt(where(pred, l2sum, ones_like(l2sum))), l2sum)
    return _like(t, (values * clip_norm) / maximum(l2norm, clip_norm))


def _values(t):
    return t.values if isinstance(t, IndexedSlices) else t


def _like(t, values):
    """``values`` as ``t`` came: the slices' new values, or the tensor."""
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


@public("linalg.global_norm", "compat.v1.global_norm")
def global_norm(t_list, name=None):
    """``sqrt(2 * sum(l2_loss(t)))`` over the tensors that are not ``None``."""
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    half_squared = reduce_sum(stack([l2_loss(as_tensor(_values(t))) for t in t_list if t is not None]))
    return sqrt(half_squared * constant(2.0, half_squared.dtype), name=name)


@public("clip_by_global_norm")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Every tensor scaled by ``clip_norm / max(global_norm, clip_norm)`` (NaN for a non-finite norm)."""
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    t_list = list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    scale_for_finite = clip_norm * minimum(1.0 / use_norm, constant(1.0, use_norm.dtype) / clip_norm)
    scale = scale_for_finite + (use_norm - use_norm)
    values = [None if t is None else as_tensor(_values(t)) for t in t_list]
    return [None if v is None else _like(t, identity(multiply(v, cast(scale, v.dtype))))
            for t, v in zip(t_list, values)], use_norm
