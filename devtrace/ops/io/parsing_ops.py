"""``tf.io.parse_example``/``parse_single_example`` over serialized ``tf.train.Example`` protos,
one ``ParseExampleV2`` op (CPU-only, as in TensorFlow) whose outputs are, in TensorFlow's order,
the sparse features' indices, values and dense shapes, the dense features' values, and the ragged
features' values and row splits; and the feature configurations (``FixedLenFeature``,
``VarLenFeature``, ``FixedLenSequenceFeature``, ``RaggedFeature``)."""

from __future__ import annotations

import collections
import re

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..declare import op, public
from . import example_proto

FixedLenFeature = collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"],
                                         defaults=(None,))
FixedLenSequenceFeature = collections.namedtuple(
    "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"], defaults=(False, None))
VarLenFeature = collections.namedtuple("VarLenFeature", ["dtype"])


class RaggedFeature(collections.namedtuple("RaggedFeature", ["dtype", "value_key", "partitions",
                                                             "row_splits_dtype", "validate"])):
    """``tf.io.RaggedFeature``: a feature's list of values, split by its ``partitions`` (outermost
    first), each read from an int64 feature of the example (``UniformRowLength``: a constant)."""

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32, validate=False):
        return super().__new__(cls, dtypes.as_dtype(dtype), value_key, tuple(partitions),
                               dtypes.as_dtype(row_splits_dtype), validate)


def _partition_splits(partition, values: np.ndarray, nvals: int) -> np.ndarray:
    """One partition of ``nvals`` values as row splits (``values``: its feature's, as parsed)."""
    kind = type(partition).__name__
    if kind == "RowSplits":
        return values
    if kind == "RowLengths":
        return np.concatenate([[0], np.cumsum(values)])
    if kind == "RowStarts":
        return np.concatenate([values, [nvals]])
    if kind == "RowLimits":
        return np.concatenate([[0], values])
    if kind == "ValueRowIds":
        rows = int(values[-1]) + 1 if len(values) else 0
        return np.concatenate([[0], np.cumsum(np.bincount(values.astype(np.int64), minlength=rows))])
    return np.arange(0, nvals + 1, int(partition.length))


def _ragged(feature, values, parsed, batched: bool, split_np):
    """A ``RaggedFeature``'s tensor from its parsed value and partition features (``parsed``: key →
    (values, row splits over the batch)): the partitions' nested row splits, example by example,
    joined over the batch."""
    from ..ragged.ragged_tensor import RaggedTensor

    flat, batch_splits = values
    flat, batch_splits = flat.numpy(), batch_splits.numpy()
    n = len(batch_splits) - 1
    levels = [[] for _ in feature.partitions]
    rows_per_example = []
    for b in range(n):
        nvals = int(batch_splits[b + 1] - batch_splits[b])
        mine = []
        for p in reversed(feature.partitions):
            if hasattr(p, "key"):
                pv, ps = parsed[p.key]
                part = pv.numpy()[int(ps.numpy()[b]):int(ps.numpy()[b + 1])]
            else:
                part = None
            splits = _partition_splits(p, part, nvals)
            mine.insert(0, splits)
            nvals = len(splits) - 1
        rows_per_example.append(nvals)
        for level, splits in zip(levels, mine):
            offset = level[-1][-1] if level else 0
            level.append((np.asarray(splits, np.int64) + offset)[1 if level else 0:])
    nested = [np.concatenate(level).astype(split_np) if level else np.zeros((1,), split_np) for level in levels]
    if batched:
        nested.insert(0, np.concatenate([[0], np.cumsum(rows_per_example)]).astype(split_np))
    if not nested:
        return values[0]
    out = constant(flat, feature.dtype)
    for splits in reversed(nested):  # the splits keep the feature's row_splits_dtype
        out = RaggedTensor(out, constant(splits, feature.row_splits_dtype))
    return out


class SparseFeature(collections.namedtuple("SparseFeature", ["index_key", "value_key", "dtype", "size",
                                                             "already_sorted"])):
    """``tf.io.SparseFeature``: a SparseTensor from an index feature and a value feature (one index
    key: a 1-D sparse feature of ``size``)."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtypes.as_dtype(dtype), size, already_sorted)


def _sparse_features(serialized, features, name):
    """``parse_example`` with ``SparseFeature``s: their index and value keys parsed as
    ``VarLenFeature``s, then paired into one SparseTensor each."""
    from ..sparse.sparse_tensor import SparseTensor

    plain = {k: f for k, f in features.items() if not isinstance(f, SparseFeature)}
    for f in features.values():
        if isinstance(f, SparseFeature):
            if not isinstance(f.index_key, str):
                raise NotImplementedError("devtrace does not implement a tf.io.SparseFeature of several index keys "
                                          "yet")
            plain.setdefault(f.index_key, VarLenFeature(dtypes.int64))
            plain.setdefault(f.value_key, VarLenFeature(f.dtype))
    parsed = _parse_example(serialized, plain, name)
    out = {k: v for k, v in parsed.items() if k in features}
    for k, f in features.items():
        if not isinstance(f, SparseFeature):
            continue
        index, value = parsed[f.index_key], parsed[f.value_key]
        where, values = index.values.numpy().astype(np.int64), value.values.numpy()
        batched = index.indices.shape[1] == 2
        indices = np.stack([index.indices.numpy()[:, 0], where], 1) if batched else where[:, None]
        if not f.already_sorted:
            order = np.lexsort(indices.T[::-1])
            indices, values = indices[order], values[order]
        shape = ([int(index.dense_shape.numpy()[0])] if batched else []) + [int(f.size)]
        out[k] = SparseTensor(constant(indices, dtypes.int64), constant(values, f.dtype),
                              constant(np.asarray(shape, np.int64), dtypes.int64))
    return dict(sorted(out.items()))


_LISTS = {"string": "bytes_list", "float32": "float_list", "int64": "int64_list"}
_C_NAMES = {"string": "string", "float32": "float", "int64": "int64"}


def _values(example, key: str, dtype_name: str):
    """The feature's values (None when absent or empty of any kind), checked against the dtype."""
    if key not in example.features.feature:
        return None
    return feature_values(example.features.feature[key], key, dtype_name)


def feature_values(feature, key: str, dtype_name: str):
    """A ``Feature``'s values as an array of ``dtype_name`` (None when it holds no kind)."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return None
    if kind != _LISTS[dtype_name]:
        raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: 0.  Data types don't match. Expected "
                                   f"type: {_C_NAMES[dtype_name]}, Actual type: {kind.split('_')[0]}")
    values = getattr(feature, kind).value
    return np.array(values, dtype=object if dtype_name == "string" else dtypes.as_dtype(dtype_name).np)


def keys(array) -> list:
    """A key input's strings (TensorFlow passes the feature keys as string tensors)."""
    values = np.asarray(array, dtype=object).reshape(-1).tolist()
    return [k.decode() if isinstance(k, bytes) else str(k) for k in values]


def key_tensor(values, dtype=dtypes.string):
    """A key (or flag) list as the tensor TensorFlow's op wrapper converts it to (an ``_EagerConst``)."""
    return constant(np.array(list(values), dtype=object if dtype == dtypes.string else dtype.np), dtype)


def _parse(xp, serialized, names, sparse_keys, dense_keys, ragged_keys, *defaults, sparse_types=(), dense_types=(),
           dense_shapes=(), dense_sequence=(), ragged_types=(), ragged_split_types=()):
    sparse_keys, dense_keys, ragged_keys = keys(sparse_keys), keys(dense_keys), keys(ragged_keys)
    scalar = np.ndim(serialized) == 0
    records = np.asarray(serialized, dtype=object).reshape(-1).tolist()
    examples = [example_proto.Example.FromString(r) for r in records]
    batch = len(examples)
    sparse_out = []
    for key, t in zip(sparse_keys, sparse_types):
        rows = [_values(e, key, t) for e in examples]
        rows = [r if r is not None else np.zeros((0,), object if t == "string" else dtypes.as_dtype(t).np)
                for r in rows]
        longest = max((len(r) for r in rows), default=0)
        if scalar:
            indices = np.arange(len(rows[0]), dtype=np.int64).reshape(-1, 1)
            shape = np.array([longest], np.int64)
        else:
            indices = np.array([(b, i) for b, r in enumerate(rows) for i in range(len(r))], np.int64).reshape(-1, 2)
            shape = np.array([batch, longest], np.int64)
        values = np.concatenate(rows) if rows else np.zeros((0,))
        sparse_out.append((indices, values.astype(object if t == "string" else dtypes.as_dtype(t).np), shape))
    dense_out = []
    for key, t, shape, sequence, default in zip(dense_keys, dense_types, dense_shapes, dense_sequence, defaults):
        np_type = object if t == "string" else dtypes.as_dtype(t).np
        rows = []
        for e in examples:
            got = _values(e, key, t)
            if got is None:
                if sequence:
                    got = np.zeros((0,), np_type)
                elif np.size(default) == 0:
                    raise InvalidArgumentError(f"Feature: {key} (data type: {_C_NAMES[t]}) is required but could "
                                               f"not be found.")
                else:
                    got = np.broadcast_to(np.asarray(default, np_type), shape).reshape(-1)
            size = int(np.prod(shape)) if shape else 1
            if sequence:
                if len(got) % max(size, 1):
                    raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: 0.  Number of values is not a "
                                               f"multiple of the feature's element size ({size})")
                rows.append(np.asarray(got, np_type).reshape((-1,) + tuple(shape)))
            else:
                if len(got) != size:
                    raise InvalidArgumentError(f"Key: {key}.  Can't parse serialized Example.")
                rows.append(np.asarray(got, np_type).reshape(tuple(shape)))
        if sequence:
            longest = max((len(r) for r in rows), default=0)
            fill = np.asarray(default, np_type).reshape(-1)[0] if np.size(default) else (b"" if t == "string" else 0)
            padded = np.full((batch, longest) + tuple(shape), fill, dtype=np_type)
            for b, r in enumerate(rows):
                padded[b, :len(r)] = r
            dense_out.append(padded[0, ...] if scalar else padded)
        else:
            stacked = np.stack(rows) if rows else np.zeros((0,) + tuple(shape), np_type)
            dense_out.append(stacked[0, ...] if scalar else stacked)  # a 0-d array (a string one too)
    ragged_out = []
    for key, t, split_type in zip(ragged_keys, ragged_types, ragged_split_types):
        np_type = object if t == "string" else dtypes.as_dtype(t).np
        rows = [_values(e, key, t) for e in examples]
        rows = [r if r is not None else np.zeros((0,), np_type) for r in rows]
        values = np.concatenate(rows).astype(np_type) if rows else np.zeros((0,), np_type)
        splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(dtypes.as_dtype(split_type).np)
        ragged_out.append((values, splits))
    return tuple([s[0] for s in sparse_out] + [s[1] for s in sparse_out] + [s[2] for s in sparse_out] + dense_out
                 + [r[0] for r in ragged_out] + [r[1] for r in ragged_out])


def _parse_shapes(name, shapes, attrs, dtype):
    def d(t):
        return dtypes.as_dtype(t)
    n_sparse = len(attrs["sparse_types"])
    batch = shapes[0] if shapes else None

    def dense_shape(i):  # TensorFlow's: the batch's shape, then the feature's ((None,) first for a sequence)
        if batch is None:
            return None
        sequence = attrs.get("dense_sequence", ())
        return tuple(batch) + ((None,) if i < len(sequence) and sequence[i] else ()) + tuple(attrs["dense_shapes"][i])
    rank = None if batch is None else len(batch) + 1  # a sparse feature's: the batch's dimensions and its own
    out = [(dtypes.int64, (None, rank))] * n_sparse + [(d(t), (None,)) for t in attrs["sparse_types"]] + \
        [(dtypes.int64, (rank,))] * n_sparse + [(d(t), dense_shape(i)) for i, t in enumerate(attrs["dense_types"])] + \
        [(d(t), (None,)) for t in attrs["ragged_types"]] + [(d(t), (None,)) for t in attrs["ragged_split_types"]]
    return out, None


def _parse_lists(attrs):
    sparse, dense, ragged = (len(attrs.get(k, ())) for k in ("sparse_types", "dense_types", "ragged_types"))
    return sparse, sparse, sparse, dense, ragged, ragged


_MISMATCH = re.compile(r"Name: <unknown>, Key: (.*), Index: 0\.  Data types don't match\. Expected type: (\w+), "
                       r"Actual type: (\w+)")


def _parse_kernel(xp, serialized, names, sparse_keys, dense_keys, *args, **attrs):
    """``_parse``, its errors in TensorFlow's words: a scalar's without the batch's ``Name: <unknown>``,
    a dense feature's type mismatch as ``Data type: int64 but expected type: float``."""
    try:
        return _parse(xp, serialized, names, sparse_keys, dense_keys, *args, **attrs)
    except InvalidArgumentError as e:
        text, scalar = e.message, np.ndim(serialized) == 0
        found = _MISMATCH.fullmatch(text)
        if found:
            key, expected, actual = found.groups()
            tail = f"Data type: {actual} but expected type: {expected}" if key in keys(dense_keys) else \
                f"Expected type: {expected}, Actual type: {actual}"
            text = f"Key: {key}.  Data types don't match. {tail}" if scalar else \
                f"Name: <unknown>, Key: {key}, Index: 0.  Data types don't match. {tail}"
        elif text.startswith("Feature: ") and not scalar:
            text = f"Name: <unknown>, {text}"
        raise ValueError(text) from None


def _wrapped_name(attrs) -> str:
    """The tail of the function TensorFlow wraps the eager op in: its list attrs' lengths, by name."""
    sparse, ragged = len(attrs.get("sparse_types", ())), len(attrs.get("ragged_types", ()))
    return (f"_Tdense_{len(attrs.get('dense_types', ()))}_num_sparse_{sparse}_ragged_split_types_{ragged}"
            f"_ragged_value_types_{ragged}_sparse_types_{sparse}")


op("ParseExampleV2", _parse_kernel, {CPU: {"string"}}, devices=(CPU,), multi=True, mixed_dtypes=True,
   shape=_parse_shapes, output_lists=_parse_lists, number_attr=_wrapped_name, eager_fallback=True)


def _parse_example(serialized, features, name=None):
    from ..ragged.ragged_tensor import RaggedTensor
    from ..sparse.sparse_tensor import SparseTensor

    if not features:
        raise ValueError("Argument `features` cannot be None.")
    if any(isinstance(f, SparseFeature) for f in features.values()):
        return _sparse_features(serialized, features, name)
    sparse = sorted(k for k, f in features.items() if isinstance(f, VarLenFeature))
    dense = sorted(k for k, f in features.items() if isinstance(f, (FixedLenFeature, FixedLenSequenceFeature)))
    ragged_features = {k: f for k, f in features.items() if isinstance(f, RaggedFeature)}
    unknown = [k for k in features if k not in sparse + dense + list(ragged_features)]
    if unknown:
        raise ValueError(f"devtrace does not implement the feature configuration of {unknown[0]!r} "
                         f"({type(features[unknown[0]]).__name__}) yet")
    ragged_types = {}  # the example keys ragged features read: their values' and partitions' (int64)
    for k, f in sorted(ragged_features.items()):
        for key, dtype in [(f.value_key or k, f.dtype)] + [(p.key, dtypes.int64) for p in f.partitions
                                                           if hasattr(p, "key")]:
            split = ragged_types.setdefault(key, (dtype, f.row_splits_dtype))[1]
            if split != f.row_splits_dtype:
                raise ValueError(f"Conflicting partition type <dtype: '{split.name}'> vs "
                                 f"<dtype: '{f.row_splits_dtype.name}'> for feature {key}.")
    ragged = sorted(ragged_types)
    serialized = serialized if isinstance(serialized, Tensor) else constant(serialized, dtypes.string)
    defaults = []
    for k in dense:
        f = features[k]
        t = dtypes.as_dtype(f.dtype)
        default = np.zeros((0,), object if t == dtypes.string else t.np) if f.default_value is None else \
            np.asarray(f.default_value.numpy() if isinstance(f.default_value, Tensor) else f.default_value,
                       object if t == dtypes.string else t.np)
        defaults.append(constant(default, t))
    attrs = {"sparse_types": tuple(dtypes.as_dtype(features[k].dtype).name for k in sparse),
             "dense_types": tuple(dtypes.as_dtype(features[k].dtype).name for k in dense),
             "dense_shapes": tuple(tuple(int(d) for d in features[k].shape) for k in dense),
             "dense_sequence": tuple(isinstance(features[k], FixedLenSequenceFeature) for k in dense),
             "ragged_types": tuple(ragged_types[k][0].name for k in ragged),
             "ragged_split_types": tuple(ragged_types[k][1].name for k in ragged)}
    inputs = (serialized, *(key_tensor(k) for k in ((), sparse, dense, ragged)), *defaults)
    outputs = list(execute("ParseExampleV2", inputs, attrs, name=name, dtype=dtypes.string))
    n = len(sparse)
    result = {}
    for i, k in enumerate(sparse):
        result[k] = SparseTensor(outputs[i], outputs[n + i], outputs[2 * n + i])
    at = 3 * n
    for i, k in enumerate(dense):
        result[k] = outputs[at + i]
    at += len(dense)
    parsed = {k: (outputs[at + i], outputs[at + len(ragged) + i]) for i, k in enumerate(ragged)}
    for k, f in ragged_features.items():
        values = parsed[f.value_key or k]
        if f.partitions:
            result[k] = _ragged(f, values, parsed, serialized.shape.rank != 0, f.row_splits_dtype.np)
        else:
            result[k] = values[0] if serialized.shape.rank == 0 else RaggedTensor.from_row_splits(*values)
    return dict(sorted(result.items()))


@public("io.parse_example")
def parse_example(serialized, features, example_names=None, name=None):
    return _parse_example(serialized, features, name=name)


@public("io.parse_single_example")
def parse_single_example(serialized, features, example_names=None, name=None):
    return _parse_example(serialized, features, name=name)
