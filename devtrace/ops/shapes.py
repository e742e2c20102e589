"""Shape functions: the static output dtype and shape of a graph node, as TensorFlow's shape
functions infer them. An op's declaration names one of these (``shape=``).

Each is ``fn(node_name, input_shapes, attrs, dtype) -> (DType, shape)``, where ``dtype`` is the
dtype the kernel is chosen for. A shape is a tuple whose dims are ints or ``None`` (unknown);
``None`` instead of a tuple is an unknown rank.
"""

from __future__ import annotations

import numpy as np

from ..runtime import dtypes


def _incompatible(name, a, b, shapes):
    text = ", ".join("<unknown>" if s is None else "[" + ",".join("?" if d is None else str(d) for d in s) + "]"
                     for s in shapes)
    return ValueError(f"Dimensions must be equal, but are {a} and {b} for '{{{{node {name}}}}}' with input "
                      f"shapes: {text}.")


def _broadcast(name, shapes):
    a, b = shapes
    if a is None or b is None:
        return None
    if a == b:  # the common case: nothing to broadcast
        return a if type(a) is tuple else tuple(a)
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            raise _incompatible(name, x, y, shapes)
    return tuple(reversed(out))


def same(name, shapes, attrs, dtype):
    """The first input's shape (or the ``shape`` attr of an op without inputs) and dtype."""
    return dtype, (shapes[0] if shapes else attrs.get("shape"))


def same_bool(name, shapes, attrs, dtype):
    """Elementwise predicates: the input's shape, ``bool`` output."""
    return dtypes.bool_, shapes[0]


def broadcast(name, shapes, attrs, dtype):
    a, b = shapes
    if a == b and type(a) is tuple:  # _broadcast's common case without its frame (a node per call)
        return dtype, a
    return dtype, _broadcast(name, shapes)


def broadcast_bool(name, shapes, attrs, dtype):
    """Comparisons: broadcast shapes, ``bool`` output."""
    a, b = shapes
    if a == b and type(a) is tuple:  # as broadcast's
        return dtypes.bool_, a
    return dtypes.bool_, _broadcast(name, shapes)


def cast(name, shapes, attrs, dtype):
    return dtypes.as_dtype(attrs["DstT"]), shapes[0]


def to_string(name, shapes, attrs, dtype):
    return dtypes.string, shapes[0]


def matmul(name, shapes, attrs, dtype):
    a, b = shapes
    if a is None or b is None:
        return dtype, None
    rows = a[-1] if attrs.get("transpose_a") or attrs.get("adjoint_a") else a[-2]
    cols = b[-2] if attrs.get("transpose_b") or attrs.get("adjoint_b") else b[-1]
    return dtype, _batch(a[:-2], b[:-2]) + (rows, cols)


def _batch(a, b) -> tuple:
    """The broadcast batch dims of a batched matmul (an unknown dim stays unknown unless the other is known and not 1)."""
    a, b = (1,) * (len(b) - len(a)) + tuple(a), (1,) * (len(a) - len(b)) + tuple(b)
    return tuple(y if x == 1 else x if y == 1 else (x if x is not None else y) for x, y in zip(a, b))


def reshape(name, shapes, attrs, dtype):
    shape = shapes[0]
    if attrs.get("shape", ()) is None:  # a shape of unknown rank, known when the graph runs
        return dtype, None
    dims = list(attrs.get("shape", ()))
    if -1 in dims and shape is not None and None not in shape:
        known = 1
        for d in dims:
            if d != -1:
                known *= d
        total = 1
        for d in shape:
            total *= d
        dims[dims.index(-1)] = total // known if known else 1
    return dtype, tuple(None if d == -1 else d for d in dims)


def reduction(name, shapes, attrs, dtype):
    shape = shapes[0]
    if shape is None:
        return dtype, None
    axis = attrs.get("axis")
    keep = attrs.get("keepdims")
    if axis is None:
        return dtype, (tuple(1 for _ in shape) if keep else ())
    if axis == (None,):  # axes known when the graph runs (a gradient's BroadcastGradientArgs)
        return dtype, (tuple(None for _ in shape) if keep else None)
    axes = {a % len(shape) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
    return dtype, tuple((1 if i in axes else d) for i, d in enumerate(shape) if keep or i not in axes)


def tile(name, shapes, attrs, dtype):
    """``Tile``: each dim times its multiple (``None`` where either is known only when it runs)."""
    shape, multiples = shapes[0], attrs.get("multiples", ())
    if shape is None or multiples is None or len(multiples) != len(shape):
        return dtype, None
    return dtype, tuple(None if d is None or m is None else d * m for d, m in zip(shape, multiples))


def fill(name, shapes, attrs, dtype):
    """Ops that make a tensor of the ``dims`` attr's shape and the ``dtype`` attr's dtype (in a graph,
    dims computed there are a hint: ``-1`` where a dimension is known only when it runs, ``None``
    when even the rank is)."""
    dims = attrs.get("dims", ())
    if dims is None:
        return dtypes.as_dtype(attrs.get("dtype", dtype)), None
    return dtypes.as_dtype(attrs.get("dtype", dtype)), tuple(None if d < 0 else d for d in dims)


def given_shape(name, shapes, attrs, dtype):
    """Ops whose output has the ``shape`` host argument's value (``StridedSliceGrad``): in a graph its
    static part (``None`` entries), or unknown."""
    shape = attrs.get("shape")
    return dtype, None if shape is None or isinstance(shape, int) else tuple(shape)


def random(name, shapes, attrs, dtype):
    return dtypes.as_dtype(attrs.get("dtype", dtype)), tuple(attrs.get("shape", ()))


def range_(name, shapes, attrs, dtype):
    if shapes:  # bounds as inputs: known when the graph runs (unless the graph folds them)
        return dtypes.as_dtype(attrs.get("dtype", dtype)), (attrs.get("static_size"),)
    start, limit, delta = attrs.get("start", 0), attrs.get("limit", 0), attrs.get("delta", 1)
    return dtypes.as_dtype(attrs.get("dtype", dtype)), (max(0, -(-(limit - start) // delta)),)


def variable(name, shapes, attrs, dtype):
    return dtype, attrs.get("shape")


def expand_dims(name, shapes, attrs, dtype):
    """A 1 inserted at ``axis`` (negative: counted from the end of the output)."""
    shape = shapes[0]
    axis = attrs.get("axis", 0)
    if shape is None or axis is None:  # an axis known when the graph runs: TensorFlow knows no rank
        return dtype, None
    axis = axis + len(shape) + 1 if axis < 0 else axis
    return dtype, tuple(shape[:axis]) + (1,) + tuple(shape[axis:])


def squeeze(name, shapes, attrs, dtype):
    """The ``squeeze_dims`` axes removed (all size-1 dims when none are given)."""
    shape = shapes[0]
    if shape is None:
        return dtype, None
    dims = attrs.get("squeeze_dims")
    dims = [dims] if isinstance(dims, int) else list(dims or [])
    if not dims:
        if None in shape:
            return dtype, None
        return dtype, tuple(d for d in shape if d != 1)
    drop = {d % len(shape) for d in dims}
    return dtype, tuple(d for i, d in enumerate(shape) if i not in drop)


def select(name, shapes, attrs, dtype):
    """``SelectV2``: the three inputs broadcast; the dtype of the values."""
    return dtype, _broadcast(name, [_broadcast(name, shapes[:2]), shapes[2]])


def _window_dim(size, window, stride, padding):
    if size is None or window is None:
        return None
    return -(-size // stride) if padding == "SAME" else (size - window) // stride + 1


def conv2d(name, shapes, attrs, dtype):
    """``Conv2D`` (NHWC, HWIO filters) and the pools (``ksize``): TensorFlow's output size per padding."""
    x = shapes[0]
    if x is None:
        return dtype, None
    if "ksize" in attrs:
        window, channels = tuple(attrs["ksize"]), x[3]
    else:
        f = shapes[1] if shapes[1] is not None else (None, None, None, None)
        window, channels = (f[0], f[1]), f[3]
    (sh, sw), padding = tuple(attrs.get("strides", (1, 1))), attrs.get("padding", "VALID")
    return dtype, (x[0], _window_dim(x[1], window[0], sh, padding), _window_dim(x[2], window[1], sw, padding), channels)


def gather(name, shapes, attrs, dtype):
    """``GatherV2``: the params' dims before ``axis``, the indices' dims past ``batch_dims``, the params'
    dims after ``axis``."""
    params, indices = shapes[0], shapes[1]
    if params is None or indices is None:
        return dtype, None
    axis, batch_dims = attrs.get("axis", 0) % len(params), attrs.get("batch_dims", 0)
    return dtype, tuple(params[:axis]) + tuple(indices[batch_dims:]) + tuple(params[axis + 1:])


def where(name, shapes, attrs, dtype):
    """``Where``: one int64 row of coordinates per true element (how many: known when it runs)."""
    shape = shapes[0]
    return dtypes.int64, None if shape is None else (None, len(shape))


def rank(name, shapes, attrs, dtype):
    return dtypes.int32, ()


def is_initialized(name, shapes, attrs, dtype):
    return dtypes.bool_, ()


def _ints(value) -> tuple | None:
    """A host argument as a tuple of ints; ``None`` when it is not known (a graph's dynamic input)."""
    if value is None:
        return None
    try:
        return tuple(int(v) for v in np.ravel(np.asarray(value)))
    except Exception:  # noqa: BLE001 (a symbolic tensor, a value not computed: not known here)
        return None


def _known(*shapes) -> bool:
    return all(s is not None for s in shapes)


def transpose(name, shapes, attrs, dtype):
    x, perm = shapes[0], _ints(attrs.get("perm"))
    hint = attrs.get("perm")
    if x is not None and isinstance(hint, tuple) and None in hint and len(hint) == len(x):
        return dtype, (None,) * len(x)  # a permutation known when the graph runs
    if x is None or perm is None or sorted(perm) != list(range(len(x))):
        return dtype, None
    return dtype, tuple(x[p] for p in perm)


def _merged(shapes) -> tuple | None:
    """The inputs' shapes merged as TensorFlow's ``Merge``: a dimension known in one input is known
    (unknown ranks take the others' rank); ``None`` when no rank is known."""
    known = [s for s in shapes if s is not None]
    if not known:
        return None
    out = list(known[0])
    for s in known[1:]:
        if len(s) != len(out):
            return None
        out = [b if a is None else a for a, b in zip(out, s)]
    return tuple(out)


def concat(name, shapes, attrs, dtype):
    """``ConcatV2``: the inputs' shapes merged, their sizes along ``axis`` added (unknown if one is)."""
    axis = _ints(attrs.get("axis", 0))
    merged = _merged(shapes) if shapes else None
    if merged is not None and axis is None:  # an axis known when the graph runs
        return dtype, (None,) * len(merged)
    if merged is None or axis is None or not merged:
        return dtype, None
    k = axis[0] % len(merged)
    sizes = [None if s is None else s[k] for s in shapes]
    out = list(merged)
    out[k] = None if None in sizes else sum(sizes)
    return dtype, tuple(out)


def pack(name, shapes, attrs, dtype):
    """``Pack``: the inputs' merged shape with their count inserted at ``axis``."""
    x = _merged(shapes) if shapes else None
    if x is None:
        return dtype, None
    k = int(attrs.get("axis", 0)) % (len(x) + 1)
    return dtype, x[:k] + (len(shapes),) + x[k:]


def broadcast_to(name, shapes, attrs, dtype):
    shape = attrs.get("shape")
    if isinstance(shape, tuple) and None in shape:  # a graph's packed shape: its unknown entries
        return dtype, tuple(None if d is None else int(d) for d in shape)
    return dtype, _ints(shape)


def slice_(name, shapes, attrs, dtype):
    """``Slice``: each dimension's size, or the rest of a known one from a known begin (``-1``); in a
    graph a begin or size known only when it runs (``None`` hints) leaves its dimensions unknown."""
    x, begin, size = shapes[0], _hint(attrs.get("begin")), _hint(attrs.get("size"))
    if x is None or size is None or len(size) != len(x):
        return dtype, None
    begin = begin if begin is not None and len(begin) == len(x) else (None,) * len(x)
    return dtype, tuple(s if s is not None and s != -1 else
                        None if s is None or d is None or b is None else d - b for d, b, s in zip(x, begin, size))


def _hint(value) -> tuple | None:
    """A host argument's entries as ints, ``None`` where a graph knows one only when it runs."""
    if value is None or isinstance(value, int):
        return None if value is None else (value,)
    if isinstance(value, tuple) and None in value:
        return tuple(None if v is None else int(v) for v in value)
    return _ints(value)


def one_hot(name, shapes, attrs, dtype):
    """``OneHot``: the indices' shape with ``depth`` inserted at ``axis``, the ``dtype`` attr's type."""
    indices, depth = shapes[0], _ints(attrs.get("depth"))
    out_dtype = dtypes.as_dtype(attrs.get("dtype", "float32"))
    if indices is None:
        return out_dtype, None
    depth = depth or (None,)  # known when the graph runs
    axis = int(attrs.get("axis", -1))
    k = len(indices) if axis == -1 else axis
    return out_dtype, tuple(indices[:k]) + (depth[0],) + tuple(indices[k:])


def gather_nd(name, shapes, attrs, dtype):
    params, indices = shapes[0], shapes[1]
    if not _known(params, indices) or not indices or indices[-1] is None:
        return dtype, None
    batch = int(attrs.get("batch_dims", 0) or 0)
    return dtype, tuple(indices[:-1]) + tuple(params[batch + indices[-1]:])


def unsorted_segment(name, shapes, attrs, dtype):
    """``UnsortedSegment*``: ``num_segments`` rows of the data's dims past the segment ids'."""
    data, ids, n = shapes[0], shapes[1], _ints(attrs.get("num_segments"))
    if not _known(data, ids) or n is None:
        return dtype, None
    return dtype, (n[0],) + tuple(data[len(ids):])


def bound(name, shapes, attrs, dtype):
    """``LowerBound``/``UpperBound``: one index per searched value, of ``out_type``."""
    return dtypes.as_dtype(attrs.get("out_type", "int32")), shapes[1]


def einsum(name, shapes, attrs, dtype):
    """``Einsum``: each output label's size, as its inputs give it (1s broadcast), the ellipsis's
    dims broadcast across inputs; without ``->``, the labels seen once, sorted (NumPy's rule)."""
    equation = attrs.get("equation", "").replace(" ", "")
    if not _known(*shapes):
        return dtype, None
    lhs, arrow, rhs = equation.partition("->")
    sizes, counts, ellipsis = {}, {}, ()
    for spec, shape in zip(lhs.split(","), shapes):
        if "..." in spec:
            head, tail = spec.split("...")
            n = len(shape) - len(head) - len(tail)
            ellipsis = _broadcast(name, [ellipsis, tuple(shape[len(head):len(head) + n])])
            labelled = list(zip(head, shape[:len(head)])) + list(zip(tail, shape[len(head) + n:]))
        else:
            labelled = list(zip(spec, shape))
        for label, size in labelled:
            counts[label] = counts.get(label, 0) + 1
            if sizes.get(label) in (None, 1):
                sizes[label] = size
    if not arrow:
        rhs = ("..." if "..." in lhs else "") + "".join(sorted(k for k, c in counts.items() if c == 1))
    head, dots, tail = rhs.partition("...")
    out = [sizes.get(k) for k in head] + (list(ellipsis) if dots else []) + [sizes.get(k) for k in tail]
    return dtype, tuple(out)


def depthwise_conv2d(name, shapes, attrs, dtype):
    """``DepthwiseConv2dNative`` (NHWC, filters ``[h, w, in, multiplier]``)."""
    x, f = shapes[0], shapes[1]
    if not _known(x, f):
        return dtype, None
    strides, padding = tuple(attrs.get("strides", (1, 1))), attrs.get("padding", "VALID")
    h, w = x[1], x[2]
    if padding == "EXPLICIT":
        pads = _ints(attrs.get("explicit_paddings"))
        if pads is None:
            return dtype, None
        h, w, padding = h + pads[2] + pads[3], w + pads[4] + pads[5], "VALID"
    sh, sw = strides[-2:] if len(strides) == 2 else strides[1:3]
    channels = None if x[3] is None or f[3] is None else x[3] * f[3]
    return dtype, (x[0], _window_dim(h, f[0], sh, padding), _window_dim(w, f[1], sw, padding), channels)



def slice_index(begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
    """The Python index a StridedSlice's arguments stand for."""
    idx = []
    for k in range(len(begin)):
        bit = 1 << k
        if ellipsis_mask & bit:
            idx.append(Ellipsis)
        elif new_axis_mask & bit:
            idx.append(None)
        elif shrink_axis_mask & bit:
            idx.append(int(begin[k]))
        else:
            idx.append(slice(None if begin_mask & bit else int(begin[k]), None if end_mask & bit else int(end[k]),
                             int(strides[k])))
    return tuple(idx)


def _dims_text(shape) -> str:
    return "<unknown>" if shape is None else "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _slice_error(name, message, x, n):
    """A ``StridedSlice`` shape error as TensorFlow's graph raises it at trace time."""
    return ValueError(f"{message} for '{{{{node {name}}}}}' with input shapes: {_dims_text(x)}, "
                      + ", ".join([f"[{n}]"] * 3) + ".")


def dense_spec(begin, end, strides, masks, rank):
    """TensorFlow's ``BuildDenseSpec``: the sparse slice spec over every input dimension (an implicit
    ellipsis at the end), and where each dimension lands in the output (``"new"``: an inserted 1,
    ``"shrink"``: dropped). A string is the error."""
    n = len(strides)
    ellipsis, new_axis = masks.get("ellipsis_mask", 0), masks.get("new_axis_mask", 0)
    if not ellipsis & ((1 << n) - 1):
        ellipsis |= 1 << n
        n += 1
    spec = []  # (begin, end, stride, begin masked, end masked, shrink) per input dimension
    gather = []
    for i in range(n):
        bit = 1 << i
        if ellipsis & bit:
            after = sum(1 for k in range(i + 1, n) if new_axis & (1 << k))
            stop = min(rank - (n - i) + 1 + after, rank)
            while len(spec) < stop:
                gather.append(len(spec))
                spec.append((0, 0, 1, True, True, False))
        elif new_axis & bit:
            gather.append("new")
        else:
            if len(spec) == rank:
                return f"Index out of range using input dim {rank}; input has only {rank} dims"
            shrink = bool(masks.get("shrink_axis_mask", 0) & bit)
            gather.append("shrink" if shrink else len(spec))
            spec.append((None if begin is None else begin[i], None if end is None else end[i], strides[i],
                         bool(masks.get("begin_mask", 0) & bit), bool(masks.get("end_mask", 0) & bit), shrink))
    return spec, gather


def _slice_size(dim, b, e, s, b_masked, e_masked):
    """One dimension's size: the canonical interval ``[b, e)`` (masks, negative indices, clamping)
    over the stride, or ``None`` when begin or end is unknown and the dimension is not fully masked."""
    if b is not None and e is not None:
        lo, hi = (0, dim) if s > 0 else (-1, dim - 1)

        def canonical(v, masked, c):
            if masked:
                return (lo, hi)[c] if s > 0 else (lo, hi)[1 - c]
            v = v + dim if v < 0 else v
            return min(max(v, lo), hi)

        length = canonical(e, e_masked, 1) - canonical(b, b_masked, 0)
    elif b_masked and e_masked:
        length = -dim if s < 0 else dim
    else:
        return None
    if length == 0 or (length < 0) != (s < 0):
        return 0
    return abs(length) // abs(s) + (1 if abs(length) % abs(s) else 0)


def strided_slice(name, shapes, attrs, dtype):
    """``StridedSlice``: TensorFlow's ``ValidateStridedSliceOp`` over the static shape — an unknown
    dimension stays unknown (a shrunk one is dropped), a known one is sliced by the constant begin,
    end and strides and the five masks; an unknown begin or end (a tensor computed in the graph)
    leaves only shrunk and fully masked dimensions known, unknown strides or rank the whole shape."""
    x = shapes[0]
    strides = attrs.get("strides")
    if x is None or strides is None or None in strides:
        return dtype, None
    begin, end = attrs.get("begin"), attrs.get("end")
    if begin is None or end is None or None in begin or None in end:
        begin = end = None
    n = len(strides)
    if bin(attrs.get("ellipsis_mask", 0) & ((1 << n) - 1)).count("1") > 1:
        raise _slice_error(name, "Multiple ellipses in slice spec not allowed", x, n)
    dense = dense_spec(begin, end, strides, attrs, len(x))
    if isinstance(dense, str):
        raise _slice_error(name, "Attempting to slice scalar input." if not x else dense, x, n)
    spec, gather = dense
    sizes = []
    for i, ((b, e, s, b_masked, e_masked, shrink), dim) in enumerate(zip(spec, x)):
        if s == 0:
            raise _slice_error(name, f"strides[{i}] must be non-zero", x, n)
        if dim is None or shrink:
            if dim is not None and s < 0:
                raise _slice_error(name, "only stride 1 allowed on non-range indexing.", x, n)
            if dim is not None and b is not None:
                fwd = b + dim if b < 0 else b
                if not 0 <= fwd < dim:
                    raise _slice_error(name, f"slice index {fwd} of dimension {i} out of bounds.", x, n)
            sizes.append(1 if shrink else None)
            continue
        sizes.append(_slice_size(dim, b, e, s, b_masked, e_masked))
    return dtype, tuple(1 if g == "new" else sizes[g] for g in gather if g != "shrink")
