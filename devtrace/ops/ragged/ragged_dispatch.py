"""What TensorFlow's dispatch runs when an op meets a ``RaggedTensor``: elementwise ops on its
flat values (the other operand a scalar, a dense tensor broadcast over the rows, or a
RaggedTensor of the same row partitions), reductions over its rows, and ``concat``, ``tile``,
``map_fn``, ``tf.ragged.map_flat_values`` and the string ops that map over its values."""

from __future__ import annotations

import functools

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime import dtypes
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ..math import math_ops
from ..array.array_ops import cast
from ..declare import API, COMPOSITE, DISPATCH, as_tensor, public
from .ragged_ops import ragged_constant
from .ragged_tensor import RaggedTensor, RaggedTensorSpec, _concat_rows, _from_rows
from ..sparse.sparse_tensor import SparseTensor
from ..sparse.sparse_ops import SparseTensorSpec
from ..math.segment_ops import unsorted_segment_sum


def _same_partitions(a: RaggedTensor, b: RaggedTensor) -> bool:
    return len(a.nested_row_splits) == len(b.nested_row_splits) and all(
        np.array_equal(x.numpy(), y.numpy()) for x, y in zip(a.nested_row_splits, b.nested_row_splits))


def _operand(rt: RaggedTensor, other):
    """``other`` as an operand of ``rt``'s flat values."""
    if isinstance(other, RaggedTensor):
        if not _same_partitions(rt, other):  # TensorFlow's check of the row partitions, level by level
            for mine, theirs in zip(rt.nested_row_splits, other.nested_row_splits):
                API["debugging.assert_equal"](mine, theirs)
            raise InvalidArgumentError("Condition x == y did not hold.")
        return other.flat_values
    y = other if isinstance(other, Tensor) else as_tensor(other)
    inner = rt.flat_values.shape.rank
    if y.shape.rank <= inner:  # it broadcasts against the values' own dimensions
        return y
    if rt.ragged_rank == 1 and y.shape.rank == inner + 1 and y.shape[1] == 1:  # one value per row
        rows = np.broadcast_to(y.numpy(), (rt.nrows_value(),) + tuple(y.shape)[1:])[:, 0]
        return constant(np.repeat(rows, np.diff(rt.row_splits.numpy()), axis=0), y.dtype)
    lengths = np.diff(rt.row_splits.numpy())
    if rt.ragged_rank == 1 and y.shape.rank == inner + 1 and y.shape[0] in (1, len(lengths)) and \
            np.all(lengths == y.shape[1]):  # uniform rows, as long as the ragged ones
        full = np.broadcast_to(y.numpy(), (len(lengths),) + tuple(y.shape)[1:])
        return constant(full.reshape((-1,) + full.shape[2:]), y.dtype)
    if rt.ragged_rank == 1 and y.shape.rank == inner + 1:  # uniform rows against ragged ones: their splits differ
        API["debugging.assert_equal"](constant(np.arange(rt.nrows_value() + 1, dtype=np.int64) * y.shape[1]),
                                      rt.row_splits)
    raise InvalidArgumentError("Condition x == y did not hold.")


class _Ragged:
    """``declare.COMPOSITE``'s entry for RaggedTensor."""

    @staticmethod
    def unary(fn, x, name):
        return x.with_flat_values(fn(x.flat_values, name=name))

    @staticmethod
    def binary(fn, x, y, name):
        if isinstance(x, RaggedTensor):
            return x.with_flat_values(fn(x.flat_values, _operand(x, y), name=name))
        return y.with_flat_values(fn(_operand(y, x), y.flat_values, name=name))

    @staticmethod
    def reduce(op_type, fn, rt, axis, keepdims, name):
        if axis is None:
            return fn(rt.flat_values, name=name)
        axis = int(axis)
        if rt.ragged_rank != 1 or axis not in (1, -1 if rt.flat_values.shape.rank == 1 else 1):
            raise NotImplementedError(f"devtrace does not implement a ragged {op_type} over axis {axis} yet")
        lengths = np.diff(rt.row_splits.numpy())
        rows = constant(np.repeat(np.arange(len(lengths)), lengths), dtypes.int64)
        segment = {"Sum": "unsorted_segment_sum", "Mean": "unsorted_segment_sum", "Max": "unsorted_segment_max",
                   "Min": "unsorted_segment_min", "Prod": "unsorted_segment_prod"}[op_type]
        total = API[f"math.{segment}"](rt.flat_values, rows, len(lengths))
        if op_type != "Mean":
            return total
        lengths = lengths.reshape((-1,) + (1,) * (rt.flat_values.shape.rank - 1))  # a row's values may be vectors
        counts = constant(lengths.astype(rt.dtype.np) if rt.dtype.is_floating else lengths.astype(np.int32))
        return math_ops.truediv(total, counts if rt.dtype.is_floating else cast(counts, total.dtype), name=name)


COMPOSITE[RaggedTensor] = _Ragged
for _name in ("add", "subtract", "multiply", "truediv", "floordiv", "mod", "pow", "equal", "not_equal", "less",
              "greater", "less_equal", "greater_equal", "maximum", "minimum"):
    _fn = API[_name] if _name in API else API[f"math.{_name}"]
    _dunder = {"subtract": "sub", "multiply": "mul", "equal": "eq", "not_equal": "ne", "less": "lt", "greater": "gt",
               "less_equal": "le", "greater_equal": "ge"}.get(_name, _name)
    setattr(RaggedTensor, f"__{_dunder}__", lambda self, other, _f=_fn: _f(self, other))
for _name, _dunder in (("logical_and", "and"), ("logical_or", "or"), ("logical_xor", "xor")):
    _fn = API[_name] if _name in API else API[f"math.{_name}"]
    setattr(RaggedTensor, f"__{_dunder}__", lambda self, other, _f=_fn: _f(self, other))
    setattr(RaggedTensor, f"__r{_dunder}__", lambda self, other, _f=_fn: _f(other, self))
RaggedTensor.__hash__ = object.__hash__


def _equality(fn, result_if_incompatible):
    """TensorFlow's ``==``/``!=`` on a RaggedTensor: a Python bool when the shapes cannot broadcast."""
    def method(self, other):
        try:
            return fn(self, other)
        except (InvalidArgumentError, ValueError):
            return result_if_incompatible
    return method


RaggedTensor.__eq__ = _equality(API["equal"] if "equal" in API else API["math.equal"], False)
RaggedTensor.__ne__ = _equality(API["not_equal"] if "not_equal" in API else API["math.not_equal"], True)
RaggedTensor.__invert__ = lambda self: API["logical_not"](self)
RaggedTensor.__radd__ = lambda self, other: API["add"](other, self)
RaggedTensor.__rmul__ = lambda self, other: API["multiply"](other, self)
RaggedTensor.__rsub__ = lambda self, other: API["subtract"](other, self)
RaggedTensor.__neg__ = lambda self: API["negative"](self)
RaggedTensor.__abs__ = lambda self: API["abs"](self)


def _ragged_reduce_sum(rt, axis=None, keepdims=False, name=None):
    """``reduce_sum`` over rows (axis 1) by row, over positions (axis 0) by position in the row."""
    if axis is None or int(axis) in (1, -1):
        return _Ragged.reduce("Sum", API["reduce_sum"], rt, axis, keepdims, name)
    splits = rt.row_splits.numpy()
    lengths = np.diff(splits)
    rows = np.repeat(np.arange(len(lengths)), lengths)
    if int(axis) not in (0, -2):
        raise ValueError(f"axis={axis} out of bounds: expected -2<=axis<2.")
    ids = np.arange(len(rows)) - splits[:-1][rows]
    return unsorted_segment_sum(rt.values, constant(ids, dtypes.int64), int(lengths.max(initial=0)), name=name)


DISPATCH["reduce_sum", RaggedTensor] = _ragged_reduce_sum


def _as_ragged(value, like: RaggedTensor) -> RaggedTensor:
    if isinstance(value, RaggedTensor):
        return value
    array = as_tensor(value).numpy()
    return ragged_constant(array.tolist(), like.dtype, ragged_rank=like.ragged_rank) if array.dtype != object else \
        RaggedTensor.from_tensor(as_tensor(value))


def _concat(values, axis, name="concat"):
    like = next(v for v in values if isinstance(v, RaggedTensor))
    parts = [_as_ragged(v, like) for v in values]
    axis = int(axis)
    if axis == 0:
        return _concat_rows(parts)
    if axis in (1, -1 if like.ragged_rank == 1 and like.flat_values.shape.rank == 1 else 1):
        return _from_rows([API["concat"]([p[i] for p in parts], 0) for i in range(like.nrows_value())], like.values)
    raise NotImplementedError(f"devtrace does not implement tf.concat of RaggedTensors over axis {axis} yet")


def _stack(values, axis=0, name="stack"):
    """``tf.stack`` of RaggedTensors (dense ones made ragged like the first): a new dimension of
    ``len(values)`` at ``axis`` 0 or 1."""
    like = next(v for v in values if isinstance(v, RaggedTensor))
    parts = [_as_ragged(v, like) for v in values]
    axis = int(axis)
    if axis == 0:
        return RaggedTensor.from_row_lengths(_concat_rows(parts), [p.nrows_value() for p in parts])
    if axis == 1:
        rows = [_from_rows([p[i] for p in parts], like.values) for i in range(like.nrows_value())]
        return RaggedTensor.from_row_lengths(_concat_rows(rows), [len(parts)] * len(rows))
    raise NotImplementedError(f"devtrace does not implement tf.stack of RaggedTensors over axis {axis} yet")


def _gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """``tf.gather`` of a RaggedTensor's rows (``axis`` 0, a vector of indices)."""
    index = as_tensor(indices).numpy()
    if (axis or 0) != 0 or batch_dims or index.ndim != 1:
        raise NotImplementedError("devtrace does not implement tf.gather of a RaggedTensor but of its rows by a "
                                  "vector of indices yet")
    nrows = params.nrows_value()
    for k, i in enumerate(index):
        if not 0 <= i < nrows:
            raise InvalidArgumentError(f"indices[{k}] = {i} is not in [0, {nrows})")
    rows = [params[int(i):int(i) + 1] for i in index]
    return _concat_rows(rows) if rows else params[0:0]


def _where(condition, x=None, y=None, name=None):
    """``tf.where`` of a RaggedTensor condition with ``x`` and ``y`` (ragged alike, or broadcast over
    its values): on the flat values."""
    if x is None or y is None:
        raise NotImplementedError("devtrace does not implement tf.where of a RaggedTensor condition alone yet")
    return condition.with_flat_values(API["where"](condition.flat_values, _operand(condition, x),
                                                   _operand(condition, y), name=name))


def _tile(input, multiples, name=None):  # noqa: A002 (TensorFlow's name)
    times = [int(m) for m in np.asarray(multiples).reshape(-1)]
    rows = [API["tile"](input[i], times[1:]) for i in range(input.nrows_value())] * times[0]
    return _from_rows(rows, input.values)


def _reverse(tensor, axis, name=None):
    axes = [int(a) for a in np.asarray(axis).reshape(-1)]
    if axes != [1] and not (axes == [-1] and tensor.ragged_rank == 1 and tensor.flat_values.shape.rank == 1):
        raise NotImplementedError(f"devtrace does not implement tf.reverse of a RaggedTensor over axis {axis} yet")
    return _from_rows([API["reverse"](row, [0]) for row in tensor], tensor.values)


def _map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
            name=None, fn_output_signature=None):
    """``fn`` on each row of ``elems`` (a tensor, RaggedTensor, SparseTensor, or a nest of them, all
    unstacked together), the results stacked as ``fn_output_signature`` says (a nest of dtypes or specs)."""
    signature = fn_output_signature if fn_output_signature is not None else dtype
    if hasattr(type(elems), "_unbatched"):  # a BatchableExtensionType: its values along the first dimension
        return _stack_results([fn(row) for row in elems._unbatched()], signature)
    flat = [e if isinstance(e, (RaggedTensor, SparseTensor)) else as_tensor(e) for e in _flatten(elems)]
    count = len(flat[0]) if isinstance(flat[0], RaggedTensor) else int(flat[0].shape[0])
    results = [fn(_pack(elems, [_row_of(e, i) for e in flat])) for i in range(count)]
    if signature is None and isinstance(elems, RaggedTensor):  # the output's type is the input's
        return _from_rows(results, elems.values)
    if isinstance(signature, (list, tuple)) or (signature is None and results and isinstance(results[0], (list, tuple))):
        specs = list(signature) if signature is not None else [None] * len(results[0])
        out = [_stack_results([r[k] for r in results], spec) for k, spec in enumerate(specs)]
        return type(results[0])(out) if results and isinstance(results[0], tuple) else tuple(out)
    return _stack_results(results, signature)


def _flatten(elems) -> list:
    if isinstance(elems, (list, tuple)):
        return [x for e in elems for x in _flatten(e)]
    return [elems]


def _pack(structure, flat: list):
    if isinstance(structure, (list, tuple)):
        out, rest = [], flat
        for e in structure:
            n = len(_flatten(e))
            out.append(_pack(e, rest[:n]))
            rest = rest[n:]
        return type(structure)(out)
    return flat[0]


def _row_of(elem, i: int):
    if isinstance(elem, SparseTensor):
        indices, shape = elem.indices.numpy(), elem.dense_shape.numpy()
        keep = indices[:, 0] == i
        return SparseTensor(indices[keep][:, 1:], constant(elem.values.numpy()[keep], elem.dtype), shape[1:])
    return elem[i]


def _stack_results(results: list, spec):
    if results and hasattr(type(results[0]), "_stacked"):  # a BatchableExtensionType: stacked field by field
        return type(results[0])._stacked(results)
    if isinstance(spec, RaggedTensorSpec):
        like = results[0] if results else constant(np.zeros(0, spec.dtype.np), spec.dtype)
        return _from_rows([as_tensor(r) if not isinstance(r, RaggedTensor) else r for r in results],
                          like.values if isinstance(like, RaggedTensor) else like)
    if isinstance(spec, SparseTensorSpec) or (results and isinstance(results[0], SparseTensor)):
        rank = len(results[0].dense_shape.numpy())
        shape = np.max([r.dense_shape.numpy() for r in results], axis=0)
        indices = [np.concatenate([np.full((len(r.indices.numpy()), 1), i, np.int64),
                                   r.indices.numpy().reshape(-1, rank)], axis=1) for i, r in enumerate(results)]
        return SparseTensor(np.concatenate(indices), constant(np.concatenate([r.values.numpy() for r in results]),
                                                              results[0].dtype), np.concatenate([[len(results)], shape]))
    if isinstance(spec, (dtypes.DType, str)) and results:
        results = [as_tensor(r, ) if not isinstance(r, Tensor) else r for r in results]
        want = dtypes.as_dtype(spec)
        results = [r if r.dtype == want else cast(r, want) for r in results]
    return API["stack"]([as_tensor(r) for r in results])


@public("ragged.map_flat_values")
def map_flat_values(op, *args, **kwargs):
    def flat(value):
        return value.flat_values if isinstance(value, RaggedTensor) else value
    like = next(a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor))
    return like.with_flat_values(op(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()}))


def _on_values(name):
    """A string op's public function, mapped over a RaggedTensor's flat values."""
    dense = API[name]

    def fn(input, *args, **kwargs):  # noqa: A002 (TensorFlow's name)
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(dense(input.flat_values, *args, **kwargs))
        return dense(input, *args, **kwargs)
    fn.__name__ = dense.__name__
    return fn


def install(name, ragged, applies):
    """``API[name]`` runs ``ragged`` instead when ``applies(args)`` says an argument is ragged."""
    dense = API[name]

    def fn(*args, **kwargs):
        return ragged(*args, **kwargs) if applies(args) else dense(*args, **kwargs)
    functools.update_wrapper(fn, dense)  # its signature is the dense API's (dispatch reads it)
    API[name] = fn


def _first_is_ragged(args) -> bool:
    first = args[0] if args else None
    return any(isinstance(v, RaggedTensor) for v in (first if isinstance(first, (list, tuple)) else (first,)))


def _lookup_ragged_ids(params, ids, *args, **kwargs):
    """``tf.nn.embedding_lookup``/``tf.gather`` of dense ``params`` at a RaggedTensor of ids: the rows of
    each id, in the ids' ragged shape (TensorFlow's ragged dispatch maps over the flat values)."""
    name = kwargs.pop("_api")
    return ids.with_flat_values(API[name](params, ids.flat_values, *args, **kwargs))


def _ids_ragged(args) -> bool:
    return len(args) > 1 and isinstance(args[1], RaggedTensor) and not isinstance(args[0], RaggedTensor)


def _strings_join(inputs, separator="", name=None):
    """``tf.strings.join`` of RaggedTensors (of the same row partitions; scalars broadcast): on their values."""
    ragged = next(x for x in inputs if isinstance(x, RaggedTensor))
    return ragged.with_flat_values(API["strings.join"]([_operand(ragged, x) for x in inputs], separator, name))


install("nn.embedding_lookup", functools.partial(_lookup_ragged_ids, _api="nn.embedding_lookup"), _ids_ragged)
install("strings.join", _strings_join, _first_is_ragged)
install("concat", _concat, _first_is_ragged)
install("stack", _stack, _first_is_ragged)
install("gather", _gather, _first_is_ragged)
install("where", _where, _first_is_ragged)
install("tile", _tile, _first_is_ragged)
install("reverse", _reverse, _first_is_ragged)
API["map_fn"] = public("map_fn")(_map_fn)
for _name in ("strings.substr", "strings.to_hash_bucket_fast", "strings.length", "strings.upper", "strings.lower",
              "strings.to_number"):
    API[_name] = _on_values(_name)
