"""``tf.io.parse_sequence_example``/``parse_single_sequence_example``: one ``ParseSequenceExampleV2``
op (CPU-only, as in TensorFlow; TensorFlow 2 parses a single one with it too) over serialized
``tf.train.SequenceExample``s. Its outputs, in TensorFlow's order: the context's sparse indices,
values and shapes, dense values, ragged values and row splits (a ``SequenceExample``'s context is
field 1 as an ``Example``'s features, so ``ParseExampleV2``'s kernel reads it), then the feature
lists' sparse indices, values and shapes, dense values and lengths, ragged values, outer (steps) and
inner (values) row splits."""

from __future__ import annotations

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..declare import op, public
from . import example_proto
from .parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, VarLenFeature, _parse,
                          feature_values, key_tensor, keys)


def _np(t):
    return object if t == "string" else dtypes.as_dtype(t).np


def _steps(records, key, t):
    """Per example, the feature list's steps' values (None where the example has no such list)."""
    out = []
    for se in records:
        lists = se.feature_lists.feature_list
        if key not in lists:
            out.append(None)
            continue
        out.append([v if v is not None else np.zeros((0,), _np(t))
                    for v in (feature_values(f, key, t) for f in lists[key].feature)])
    return out


def _parse_sequence(xp, serialized, debug_name, context_sparse_keys, context_dense_keys, context_ragged_keys,
                    feature_list_sparse_keys, feature_list_dense_keys, feature_list_ragged_keys,
                    feature_list_dense_missing_assumed_empty, *context_defaults, context_sparse_types=(),
                    context_dense_types=(), context_dense_shapes=(), context_ragged_types=(),
                    context_ragged_split_types=(), feature_list_sparse_types=(), feature_list_dense_types=(),
                    feature_list_dense_shapes=(), feature_list_ragged_types=(), feature_list_ragged_split_types=()):
    context = _parse(xp, serialized, debug_name, context_sparse_keys, context_dense_keys, context_ragged_keys,
                     *context_defaults, sparse_types=context_sparse_types, dense_types=context_dense_types,
                     dense_shapes=context_dense_shapes, dense_sequence=(False,) * len(context_dense_types),
                     ragged_types=context_ragged_types, ragged_split_types=context_ragged_split_types)
    feature_list_sparse_keys, feature_list_dense_keys, feature_list_ragged_keys = (
        keys(feature_list_sparse_keys), keys(feature_list_dense_keys), keys(feature_list_ragged_keys))
    scalar = np.ndim(serialized) == 0
    records = [example_proto.SequenceExample.FromString(r)
               for r in np.asarray(serialized, dtype=object).reshape(-1).tolist()]
    batch = len(records)
    indices, values, shapes = [], [], []
    for key, t in zip(feature_list_sparse_keys, feature_list_sparse_types):
        per = [s or [] for s in _steps(records, key, t)]
        steps = max((len(s) for s in per), default=0)
        longest = max((len(v) for s in per for v in s), default=0)
        at = [((b,) if not scalar else ()) + (i, j) for b, s in enumerate(per) for i, v in enumerate(s)
              for j in range(len(v))]
        indices.append(np.array(at, np.int64).reshape(-1, 2 if scalar else 3))
        values.append(np.array([x for s in per for v in s for x in v.tolist()], _np(t)))
        shapes.append(np.array(([] if scalar else [batch]) + [steps, longest], np.int64))
    dense, lengths = [], []
    for key, t, shape in zip(feature_list_dense_keys, feature_list_dense_types, feature_list_dense_shapes):
        size = int(np.prod(shape)) if shape else 1
        rows = []
        for s in _steps(records, key, t):
            s = s or []
            for v in s:
                if len(v) != size:
                    raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: 0.  Number of values != "
                                               f"expected.  values size: {len(v)} but output shape: "
                                               f"{list(shape)}")
            rows.append(np.array([v.tolist() for v in s], _np(t)).reshape((len(s),) + tuple(shape)))
        steps = max((len(r) for r in rows), default=0)
        padded = np.full((batch, steps) + tuple(shape), b"" if t == "string" else 0, dtype=_np(t))
        for b, r in enumerate(rows):
            padded[b, :len(r)] = r
        counts = np.array([len(r) for r in rows], np.int64)
        dense.append(padded[0] if scalar else padded)
        lengths.append(counts[0] if scalar else counts)
    ragged_values, outer, inner = [], [], []
    for key, t, split in zip(feature_list_ragged_keys, feature_list_ragged_types, feature_list_ragged_split_types):
        per = [s or [] for s in _steps(records, key, t)]
        flat = [v for s in per for v in s]
        ragged_values.append(np.concatenate(flat).astype(_np(t)) if flat else np.zeros((0,), _np(t)))
        inner.append(np.concatenate([[0], np.cumsum([len(v) for v in flat])]).astype(dtypes.as_dtype(split).np))
        outer.append(np.concatenate([[0], np.cumsum([len(s) for s in per])]).astype(dtypes.as_dtype(split).np))
    return tuple(context) + tuple(indices + values + shapes + dense + lengths + ragged_values + outer + inner)


def _shapes(name, shapes, attrs, dtype):
    def d(t):
        return dtypes.as_dtype(t)

    def group(prefix, sparse_rank):
        n = len(attrs[f"{prefix}_sparse_types"])
        return [(dtypes.int64, (None, sparse_rank))] * n + [(d(t), (None,)) for t in attrs[f"{prefix}_sparse_types"]] \
            + [(dtypes.int64, (sparse_rank,))] * n + [(d(t), None) for t in attrs[f"{prefix}_dense_types"]]

    rank = None if shapes[0] is None else len(shapes[0])
    out = group("context", None if rank is None else rank + 1)
    out += [(d(t), (None,)) for t in attrs["context_ragged_types"]]
    out += [(d(t), (None,)) for t in attrs["context_ragged_split_types"]]
    out += group("feature_list", None if rank is None else rank + 2)
    out += [(dtypes.int64, None)] * len(attrs["feature_list_dense_types"])
    out += [(d(t), (None,)) for t in attrs["feature_list_ragged_types"]]
    out += [(d(t), (None,)) for t in attrs["feature_list_ragged_split_types"]] * 2
    return out, None


def _lists(attrs):
    def n(key):
        return len(attrs.get(key, ()))
    cs, cd, cr = n("context_sparse_types"), n("context_dense_types"), n("context_ragged_types")
    fs, fd, fr = n("feature_list_sparse_types"), n("feature_list_dense_types"), n("feature_list_ragged_types")
    return cs, cs, cs, cd, cr, cr, fs, fs, fs, fd, fd, fr, fr, fr


op("ParseSequenceExampleV2", _parse_sequence, {CPU: {"string"}}, devices=(CPU,), multi=True, mixed_dtypes=True,
   shape=_shapes, output_lists=_lists)


def _kinds(features, allowed, where):
    features = dict(features or {})
    for key, f in features.items():
        if not isinstance(f, allowed):
            raise ValueError(f"Unsupported {type(f).__name__} {f}.")
        if isinstance(f, RaggedFeature) and (f.partitions or (f.value_key or key) != key):
            raise NotImplementedError(f"devtrace does not implement a tf.io.RaggedFeature with partitions or a "
                                      f"value_key in {where} yet")
    sparse = sorted(k for k, f in features.items() if isinstance(f, VarLenFeature))
    dense = sorted(k for k, f in features.items() if isinstance(f, (FixedLenFeature, FixedLenSequenceFeature)))
    ragged = sorted(k for k, f in features.items() if isinstance(f, RaggedFeature))
    return features, sparse, dense, ragged


def _parse_sequence_example(serialized, context_features, sequence_features, name):
    from ..ragged.ragged_tensor import RaggedTensor
    from ..sparse.sparse_tensor import SparseTensor

    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, but at least one "
                         "should have values.")
    context, c_sparse, c_dense, c_ragged = _kinds(context_features, (VarLenFeature, FixedLenFeature, RaggedFeature),
                                                  "context_features")
    lists, f_sparse, f_dense, f_ragged = _kinds(sequence_features, (VarLenFeature, FixedLenSequenceFeature,
                                                                    RaggedFeature), "sequence_features")
    for k in f_dense:
        if lists[k].default_value is not None:
            raise ValueError(f"Value feature_list.dense_defaults[{k}] must be None")
    serialized = serialized if isinstance(serialized, Tensor) else constant(serialized, dtypes.string)
    defaults = []
    for k in c_dense:
        t = dtypes.as_dtype(context[k].dtype)
        value = context[k].default_value
        np_type = object if t == dtypes.string else t.np
        defaults.append(constant(np.zeros((0,), np_type) if value is None else np.asarray(
            value.numpy() if isinstance(value, Tensor) else value, np_type), t))

    def names(features, keys):
        return tuple(dtypes.as_dtype(features[k].dtype).name for k in keys)

    attrs = {"context_sparse_types": names(context, c_sparse), "context_dense_types": names(context, c_dense),
             "context_dense_shapes": tuple(tuple(int(d) for d in context[k].shape) for k in c_dense),
             "context_ragged_types": names(context, c_ragged),
             "context_ragged_split_types": tuple(context[k].row_splits_dtype.name for k in c_ragged),
             "feature_list_sparse_types": names(lists, f_sparse), "feature_list_dense_types": names(lists, f_dense),
             "feature_list_dense_shapes": tuple(tuple(int(d) for d in lists[k].shape) for k in f_dense),
             "feature_list_ragged_types": names(lists, f_ragged),
             "feature_list_ragged_split_types": tuple(lists[k].row_splits_dtype.name for k in f_ragged)}
    inputs = (serialized, *(key_tensor(k) for k in ((), c_sparse, c_dense, c_ragged, f_sparse, f_dense, f_ragged)),
              key_tensor([True] * len(f_dense), dtypes.bool_), *defaults)
    outputs = list(execute("ParseSequenceExampleV2", inputs, attrs, name=name, dtype=dtypes.string))
    batched = serialized.shape.rank != 0

    def take(n):
        got = outputs[:n]
        del outputs[:n]
        return got

    def sparse(keys):
        ix, vals, shapes = take(len(keys)), take(len(keys)), take(len(keys))
        return [SparseTensor(i, v, s) for i, v, s in zip(ix, vals, shapes)]

    context_out = sparse(c_sparse) + take(len(c_dense))
    values, splits = take(len(c_ragged)), take(len(c_ragged))
    context_out += [RaggedTensor(v, s) if batched else v for v, s in zip(values, splits)]
    lists_out = sparse(f_sparse) + take(len(f_dense))
    lengths = take(len(f_dense))
    values, outer, inner = take(len(f_ragged)), take(len(f_ragged)), take(len(f_ragged))
    lists_out += [RaggedTensor(RaggedTensor(v, i), o) if batched else RaggedTensor(v, i)
                  for v, o, i in zip(values, outer, inner)]
    return (dict(zip(c_sparse + c_dense + c_ragged, context_out)), dict(zip(f_sparse + f_dense + f_ragged, lists_out)),
            dict(zip(f_dense, lengths)))


@public("io.parse_sequence_example")
def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    return _parse_sequence_example(serialized, context_features, sequence_features, name)


@public("io.parse_single_sequence_example", "compat.v1.parse_single_sequence_example")
def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    serialized = serialized if isinstance(serialized, Tensor) else constant(serialized, dtypes.string)
    if serialized.shape.rank not in (None, 0):
        raise ValueError(f"Input serialized must be a scalar. Received: {serialized.shape}")
    return _parse_sequence_example(serialized, context_features, sequence_features, name)[:2]
