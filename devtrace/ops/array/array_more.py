"""More of tf's top level: ``identity_n``, ``guarantee_const``, ``dynamic_partition``/``dynamic_stitch``,
the space/batch shuffles (``SpaceToBatchND``/``BatchToSpaceND``), ``fingerprint``, ``timestamp``,
``edit_distance`` (ops, with TensorFlow's kernels per device type); and the Python composites
TensorFlow builds on ops: ``no_op``, ``group``, ``tuple``, ``scan``/``foldl``/``foldr``,
``vectorized_map``, ``histogram_fixed_width_bins``, ``required_space_to_batch_paddings``,
``parallel_stack``, ``numpy_function``."""

from __future__ import annotations

import time

import numpy as np

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import ALL_TYPES, CPU, DEVICE_SAFE, GPU
from ...runtime.tensor import Tensor
from ...runtime.values import constant
from ...util import nest
from ..declare import API, as_tensor, gradient, host_arg, not_differentiable, on_host, op, public
from ..strings.farmhash import fingerprint64

_NOT_STRINGS = DEVICE_SAFE - {"string"}
_FLOATS = {"bfloat16", "float16", "float32", "float64"}
_REAL_NUMBERS = {"bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
                 "uint32", "uint64"}


def _identity_n_shape(name, shapes, attrs, dtype):
    return [(dtypes.as_dtype(t), s) for t, s in zip(attrs["T"], shapes)], None


op("IdentityN", lambda xp, *arrays, T=(): tuple(arrays), None, shape=_identity_n_shape, multi=True, mixed_dtypes=True)
gradient("IdentityN")(lambda op, *grads: list(grads))


@public("identity_n")
def identity_n(input, name=None):  # noqa: A002 (TensorFlow's name)
    tensors = tuple(as_tensor(x) for x in input)
    return list(execute("IdentityN", tensors, {"T": [t.dtype.name for t in tensors]}, name=name))


op("GuaranteeConst", lambda xp, x: x, None, devices=(CPU,))
not_differentiable("GuaranteeConst")


@public("guarantee_const")
def guarantee_const(input, name=None):  # noqa: A002
    return execute("GuaranteeConst", (as_tensor(input),), name=name)


def _dynamic_partition(xp, data, partitions, num_partitions=1):
    parts = on_host(xp, partitions)
    if parts.size and (parts.min() < 0 or parts.max() >= num_partitions):
        bad = int(parts[(parts < 0) | (parts >= num_partitions)].reshape(-1)[0])
        raise ValueError(f"partitions[0] = {bad} is not in [0, {num_partitions})")
    rest = data.shape[parts.ndim:]
    flat = data.reshape((-1,) + rest)
    keys = parts.reshape(-1)
    return tuple(flat[xp.asarray(np.nonzero(keys == i)[0])] for i in range(num_partitions))


def _dynamic_partition_shape(name, shapes, attrs, dtype):
    data, parts = shapes
    rest = None if data is None or parts is None else tuple(data[len(parts):])
    return [(dtype, None if rest is None else (None,) + rest)] * attrs["num_partitions"], None


op("DynamicPartition", _dynamic_partition, {CPU: ALL_TYPES, GPU: _NOT_STRINGS - {"bool", "resource", "variant"}},
   shape=_dynamic_partition_shape, multi=True, number_attr="num_partitions", mixed_dtypes=True)


@public("dynamic_partition")
def dynamic_partition(data, partitions, num_partitions, name=None):
    data, partitions = as_tensor(data), as_tensor(partitions)
    return list(execute("DynamicPartition", (data, partitions), {"num_partitions": int(num_partitions)}, name=name))


def _dynamic_stitch(xp, *arrays, N=1):
    indices, data = arrays[:N], arrays[N:]
    host_indices = [on_host(xp, i) for i in indices]
    size = max((int(i.max()) + 1 for i in host_indices if i.size), default=0)
    rest = data[0].shape[host_indices[0].ndim:]
    out = xp.zeros((size,) + tuple(rest), data[0].dtype)
    for idx, values in zip(host_indices, data):
        if idx.size:
            out[xp.asarray(idx.reshape(-1))] = values.reshape((-1,) + tuple(rest))
    return out


op("DynamicStitch", _dynamic_stitch, {CPU: ALL_TYPES - {"resource", "variant"},
                                      GPU: {"bfloat16", "complex128", "complex64", "float16", "float32", "float64",
                                            "int32", "int64"}},
   mixed_dtypes=True, number_attr="N", shape=lambda name, shapes, attrs, dtype: (None, None))


@gradient("DynamicStitch")
def _dynamic_stitch_grad(op, grad):
    n = len(op.inputs) // 2
    indices = op.inputs[:n]
    return [None] * n + [API["gather"](grad, API["cast"](i, dtypes.int32)) for i in indices]


@public("dynamic_stitch")
def dynamic_stitch(indices, data, name=None):
    indices = [as_tensor(i) for i in indices]
    data = [as_tensor(d) for d in data]
    dtype = data[0].dtype
    return execute("DynamicStitch", (*indices, *data), {"N": len(indices)}, name=name, dtype=dtype)


def _space_to_batch(xp, x, block_shape=(), paddings=()):
    block = [int(b) for b in np.asarray(block_shape).reshape(-1)]
    pads = np.asarray(paddings, np.int64).reshape(-1, 2)
    m = len(block)
    full = [(0, 0)] + [tuple(int(v) for v in p) for p in pads] + [(0, 0)] * (x.ndim - 1 - m)
    padded = xp.pad(x, full)
    batch = padded.shape[0]
    spatial = padded.shape[1:1 + m]
    for s, b in zip(spatial, block):
        if s % b:
            raise ValueError(f"padded_shape[{spatial.index(s)}]={s} is not divisible by block_shape[{block.index(b)}]={b}")
    rest = padded.shape[1 + m:]
    shape = [batch]
    for s, b in zip(spatial, block):
        shape += [s // b, b]
    y = padded.reshape(shape + list(rest))
    # [batch, s0/b0, b0, s1/b1, b1, …, rest] -> [b0, b1, …, batch, s0/b0, s1/b1, …, rest]
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, y.ndim))
    y = y.transpose(order)
    return y.reshape([batch * int(np.prod(block))] + [s // b for s, b in zip(spatial, block)] + list(rest))


def _batch_to_space(xp, x, block_shape=(), crops=()):
    block = [int(b) for b in np.asarray(block_shape).reshape(-1)]
    crop = np.asarray(crops, np.int64).reshape(-1, 2)
    m = len(block)
    prod = int(np.prod(block))
    batch = x.shape[0] // prod
    spatial = x.shape[1:1 + m]
    rest = x.shape[1 + m:]
    y = x.reshape(block + [batch] + list(spatial) + list(rest))
    # [b0, b1, …, batch, s0, s1, …, rest] -> [batch, s0, b0, s1, b1, …, rest]
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(2 * m + 1, y.ndim))
    y = y.transpose(order).reshape([batch] + [s * b for s, b in zip(spatial, block)] + list(rest))
    index = (slice(None),) + tuple(slice(int(c[0]), y.shape[1 + i] - int(c[1])) for i, c in enumerate(crop))
    return y[index]


_S2B_TYPES = {CPU: _REAL_NUMBERS, GPU: _FLOATS}
op("SpaceToBatchND", _space_to_batch, _S2B_TYPES, host_args={"block_shape": "block_shape", "paddings": "paddings"},
   shape=lambda name, shapes, attrs, dtype: (dtype, None))
op("BatchToSpaceND", _batch_to_space, _S2B_TYPES, host_args={"block_shape": "block_shape", "crops": "crops"},
   shape=lambda name, shapes, attrs, dtype: (dtype, None))
gradient("SpaceToBatchND")(lambda op, grad: (execute("BatchToSpaceND", (grad,), {
    "block_shape": op.attrs["block_shape"], "crops": op.attrs["paddings"]}),))
gradient("BatchToSpaceND")(lambda op, grad: (execute("SpaceToBatchND", (grad,), {
    "block_shape": op.attrs["block_shape"], "paddings": op.attrs["crops"]}),))


@public("space_to_batch_nd", "nn.space_to_batch", "space_to_batch")
def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    x = as_tensor(input)
    block = host_arg(block_shape)
    return execute("SpaceToBatchND", (x,), {"block_shape": block, "paddings": host_arg(paddings)}, name=name)


@public("batch_to_space")
def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    x = as_tensor(input)
    if isinstance(block_shape, int):
        block_shape = np.array([block_shape, block_shape], np.int64)
    return execute("BatchToSpaceND", (x,), {"block_shape": host_arg(block_shape), "crops": host_arg(crops)}, name=name)


@public("required_space_to_batch_paddings")
def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """The paddings (and crops) that make ``input_shape`` plus ``base_paddings`` divisible by ``block_shape``."""
    shape = np.asarray(host_arg(input_shape), np.int32).reshape(-1)
    block = np.asarray(host_arg(block_shape), np.int32).reshape(-1)
    base = np.zeros((len(block), 2), np.int32) if base_paddings is None else \
        np.asarray(host_arg(base_paddings), np.int32).reshape(-1, 2)
    start, end = base[:, 0], base[:, 1]
    full = shape + start + end
    extra = (block - full % block) % block
    pads = np.stack([start, end + extra], 1).astype(np.int32)
    crops = np.stack([np.zeros_like(extra), extra], 1).astype(np.int32)
    return constant(pads, dtypes.int32), constant(crops, dtypes.int32)


def _fingerprint(xp, data, method=b"farmhash64"):
    host = on_host(xp, data)
    rows = host.reshape(host.shape[0] if host.ndim else 1, -1)
    out = np.zeros((rows.shape[0], 8), np.uint8)
    for i, row in enumerate(rows):
        if host.dtype.kind == "O":
            parts = [bytes(v) if not isinstance(v, str) else v.encode() for v in row]
            key = parts[0] if len(parts) == 1 else b"".join(
                np.uint64(fingerprint64(p)).tobytes() for p in parts)
        else:
            key = np.ascontiguousarray(row).tobytes()
        out[i] = np.frombuffer(np.uint64(fingerprint64(key)).tobytes(), np.uint8)
    return xp.asarray(out)


op("Fingerprint", _fingerprint, None, devices=(CPU,), host_args={"method": "method"},
   shape=lambda name, shapes, attrs, dtype: (dtypes.uint8, None if shapes[0] is None else (shapes[0][0], 8)))
not_differentiable("Fingerprint")


@public("fingerprint")
def fingerprint(data, method="farmhash64", name=None):
    """``method`` bytes of FarmHash's Fingerprint64 of each row of ``data`` (of each string's: a row of strings
    hashes their fingerprints)."""
    x = as_tensor(data)
    if x.shape.rank == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return execute("Fingerprint", (x,), {"method": host_arg(method, dtypes.string)}, name=name)


op("Timestamp", lambda xp: np.asarray(time.time(), np.float64), None, devices=(CPU,), stateful=True,
   shape=lambda name, shapes, attrs, dtype: (dtypes.float64, ()))


@public("timestamp")
def timestamp(name=None):
    """Seconds since the epoch, as a float64 scalar (a stateful op on the CPU)."""
    return execute("Timestamp", (), name=name, dtype=dtypes.float64)


def _levenshtein(a, b) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _edit_distance(xp, h_idx, h_val, h_shape, t_idx, t_val, t_shape, normalize=True):
    h_idx, h_val, h_shape = on_host(xp, h_idx), on_host(xp, h_val), on_host(xp, h_shape)
    t_idx, t_val, t_shape = on_host(xp, t_idx), on_host(xp, t_val), on_host(xp, t_shape)
    out_shape = tuple(int(v) for v in np.maximum(h_shape, t_shape)[:-1])

    def sequences(idx, val):
        seqs = {}
        for row, v in sorted(zip(map(tuple, idx.tolist()), val.tolist())):
            seqs.setdefault(row[:-1], []).append(v)
        return seqs

    hyp, truth = sequences(h_idx, h_val), sequences(t_idx, t_val)
    out = np.zeros(out_shape, np.float32)
    for key in set(hyp) | set(truth):
        h, t = hyp.get(key, []), truth.get(key, [])
        dist = float(_levenshtein(h, t))
        if normalize:
            dist = dist / len(t) if t else (np.inf if h else 0.0)
        out[key] = dist
    return xp.asarray(out)


op("EditDistance", _edit_distance, None, devices=(CPU,), mixed_dtypes=True,
   shape=lambda name, shapes, attrs, dtype: (dtypes.float32, None))
not_differentiable("EditDistance")


@public("edit_distance")
def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    from ..sparse.sparse_tensor import SparseTensor

    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    inputs = (hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
              truth.indices, truth.values, truth.dense_shape)
    return execute("EditDistance", tuple(as_tensor(x) for x in inputs), {"normalize": bool(normalize)},
                   name=name if not context().eager else None)


@public("no_op")
def no_op(name=None):
    """A ``NoOp``: eagerly it runs (and is logged) and returns ``None``; in a graph it is the node."""
    if context().eager:
        execute("NoOp", (), name=name)
        return None
    from ...runtime.graph.graph import get_default_graph

    return get_default_graph()._create_op("NoOp", (), None, name or "NoOp")


@public("group")
def group(*inputs, name=None):
    """Eagerly nothing to wait for: ``None``; in a graph the ``NoOp`` depending on ``inputs``."""
    if context().eager:
        return None
    from ...runtime.graph.variables import group as graph_group

    return graph_group(*inputs, name=name)


@public("tuple")
def tuple_(tensors, control_inputs=None, name=None):
    """``tensors``, each available only once all of them (and ``control_inputs``) are: eagerly, as they are;
    in a graph each through an ``Identity`` with a control dependency on their ``group``."""
    if context().eager:
        return list(tensors)
    from ...runtime.graph.graph import get_default_graph

    graph = get_default_graph()
    deps = [t for t in tensors if t is not None]
    with graph.name_scope(name or "tuple") as scope:
        gate = group(*(deps + list(control_inputs or ())))
        with graph.control_dependencies([gate]):
            return [None if t is None else API["identity"](t) for t in tensors]


tuple_.__name__ = tuple_.__qualname__ = "tuple"


def _unstacked(elems):
    flat = [as_tensor(e) for e in nest.flatten(elems)]
    return flat, [API["unstack"](e) for e in flat]


@public("scan")
def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """``fn`` applied along ``elems``' first dimension, each step's output stacked (Python's loop over
    ``unstack``: the same ops each step as TensorFlow's loop body)."""
    flat, columns = _unstacked(elems)
    n = int(flat[0].shape[0])
    order = range(n - 1, -1, -1) if reverse else range(n)
    outputs = []
    acc = initializer
    for i in order:
        x = nest.pack_sequence_as(elems, [c[i] for c in columns])
        if acc is None:
            acc = x
            outputs.append(acc)
            continue
        acc = fn(acc, x)
        outputs.append(acc)
    if reverse:
        outputs.reverse()
    flat_out = [nest.flatten(o) for o in outputs]
    stacked = [API["stack"]([o[k] for o in flat_out]) for k in range(len(flat_out[0]))]
    return nest.pack_sequence_as(outputs[0], stacked)


def _fold(fn, elems, initializer, reverse):
    flat, columns = _unstacked(elems)
    n = int(flat[0].shape[0])
    order = list(range(n - 1, -1, -1) if reverse else range(n))
    acc = initializer
    if acc is None:
        acc = nest.pack_sequence_as(elems, [c[order[0]] for c in columns])
        order = order[1:]
    for i in order:
        acc = fn(acc, nest.pack_sequence_as(elems, [c[i] for c in columns]))
    return acc


@public("foldl")
def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    return _fold(fn, elems, initializer, False)


@public("foldr")
def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    return _fold(fn, elems, initializer, True)


@public("vectorized_map")
def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``fn`` on each slice of ``elems`` along the first dimension, the results stacked (TensorFlow
    vectorizes the ops instead; the values are the same)."""
    flat, columns = _unstacked(elems)
    n = int(flat[0].shape[0])
    outputs = [fn(nest.pack_sequence_as(elems, [c[i] for c in columns])) for i in range(n)]
    flat_out = [nest.flatten(o) for o in outputs]
    stacked = [API["stack"]([o[k] for o in flat_out]) for k in range(len(flat_out[0]))]
    return nest.pack_sequence_as(outputs[0], stacked)


@public("histogram_fixed_width_bins")
def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each value among ``nbins`` equal bins over ``value_range`` (TensorFlow's composite:
    the values scaled, floored and clipped to the first and last bin)."""
    values = as_tensor(values)
    shape = API["shape"](values)
    flat = API["reshape"](values, [-1])
    value_range = as_tensor(value_range, name="value_range") if isinstance(value_range, Tensor) else \
        constant(value_range, values.dtype)
    nbins_t = constant(nbins, dtypes.int32) if not isinstance(nbins, Tensor) else nbins
    nbins_float = API["cast"](nbins_t, values.dtype)
    scaled = API["math.divide"](API["subtract"](flat, value_range[0]), API["subtract"](value_range[1], value_range[0]))
    indices = API["floor"](API["multiply"](nbins_float, scaled))
    indices = API["cast"](API["clip_by_value"](indices, 0, API["subtract"](nbins_float, 1)), dtype)
    return API["reshape"](indices, shape, name=name)


@public("parallel_stack")
def parallel_stack(values, name="parallel_stack"):
    if context().eager:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    return API["stack"](values, name=name)


@public("numpy_function")
def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """``func`` on NumPy arrays: eagerly called directly (TensorFlow runs no op), in a graph as a
    node running it (``func=None``: a decorator)."""
    if func is None:
        return lambda f: _numpy_decorated(f, Tout, stateful, name)
    if context().eager:
        out = func(*[x.numpy() if isinstance(x, Tensor) else x for x in (inp or ())])
        if isinstance(Tout, (list, tuple)):
            return [constant(np.asarray(v), dtypes.as_dtype(d)) for v, d in zip(out, Tout)]
        return constant(np.asarray(out), dtypes.as_dtype(Tout)) if Tout is not None else None
    return API["py_function"](lambda *xs: func(*[x.numpy() for x in xs]), inp, Tout, name=name)


def _numpy_decorated(f, Tout, stateful, name):
    def wrapper(*args):
        return numpy_function(f, list(args), Tout, stateful, name)
    wrapper.__name__ = getattr(f, "__name__", "numpy_function")
    return wrapper
