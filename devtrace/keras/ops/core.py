"""Keras's core ops (``keras.ops.cast``, ``shape``, ``switch``, ``rearrange`` …) on devtrace's."""

from __future__ import annotations

import re

import numpy as np

import devtrace as tf


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Keras's TensorFlow backend's: a tensor cast to ``dtype``; a Python or NumPy value converted
    with it, but to an integer or bool dtype converted first and then cast (``1e-7`` as int32 is 0)."""
    if dtype is not None:
        if tf.is_tensor(x):
            return tf.cast(tf.convert_to_tensor(x), dtype)
        dtype = tf.as_dtype(dtype)
        if dtype.is_integer or dtype == tf.bool:
            return tf.cast(tf.convert_to_tensor(x), dtype)
        return tf.convert_to_tensor(x, dtype=dtype)
    return tf.convert_to_tensor(x)


def convert_to_numpy(x):
    if not tf.is_tensor(x) and not isinstance(x, tf.Variable):  # Keras's: np.array of anything else
        return np.array(x)
    return np.asarray(tf.convert_to_tensor(x).numpy())


def is_tensor(x):
    return tf.is_tensor(x)


def cast(x, dtype):
    return tf.cast(convert_to_tensor(x), dtype)


def dtype(x):
    return tf.convert_to_tensor(x).dtype.name


def shape(x):
    """A tuple: the static dimensions, and where one is unknown (in a trace) the scalar tensor of
    ``tf.shape`` that holds it (Keras's TensorFlow backend, which runs ``Shape`` every time)."""
    from ..engine import KerasTensor

    if isinstance(x, KerasTensor):
        return x.shape
    x = x if tf.is_tensor(x) else tf.convert_to_tensor(x)
    if x.shape.rank is None:
        raise ValueError(f"All tensors passed to `ops.shape` must have a statically known rank. Received: x={x} "
                         "with unknown rank.")
    dims, dynamic = x.shape.as_list(), tf.shape(x)
    return tuple(dynamic[i] if d is None else d for i, d in enumerate(dims))


def stop_gradient(variable):
    return tf.stop_gradient(variable)


def switch(index, branches, *operands):
    return tf.switch_case(tf.convert_to_tensor(index, dtype=tf.int32), [lambda b=b: b(*operands) for b in branches])


def cond(pred, true_fn, false_fn):
    """Keras's ``smart_cond``: a predicate known now (a Python bool, an eager tensor) runs its branch
    as Python; a traced one (or a variable) builds a ``tf.cond``."""
    if not isinstance(pred, tf.Variable):
        known = tf.get_static_value(pred) if tf.is_tensor(pred) else pred
        if isinstance(known, (bool, np.bool_)) or isinstance(known, np.ndarray) and known.dtype == bool:
            return true_fn() if bool(known) else false_fn()
    return tf.cond(pred, true_fn, false_fn)


_GROUP = re.compile(r"\(([^)]*)\)|(\S+)")


def _groups(side):
    return [[a] if a else g.split() for g, a in _GROUP.findall(side)]


def rearrange(tensor, pattern, **axes_lengths):
    """einops' ``rearrange``: the input's axes named (grouped ones split), permuted, regrouped."""
    x = tf.convert_to_tensor(tensor)
    left, right = (_groups(s) for s in pattern.split("->"))
    sizes = dict(axes_lengths)
    for group, dim in zip(left, x.shape):
        unknown = [a for a in group if a not in sizes]
        known = int(np.prod([sizes[a] for a in group if a in sizes]))
        if len(unknown) == 1:
            sizes[unknown[0]] = dim // known
    flat_left = [a for g in left for a in g]
    x = tf.reshape(x, [sizes[a] for a in flat_left])
    flat_right = [a for g in right for a in g]
    x = tf.transpose(x, [flat_left.index(a) for a in flat_right])
    return tf.reshape(x, [int(np.prod([sizes[a] for a in g])) for g in right])


def logsumexp(x, axis=None, keepdims=False):
    return tf.reduce_logsumexp(tf.convert_to_tensor(x), axis=axis, keepdims=keepdims)


def erf(x):
    return tf.math.erf(tf.convert_to_tensor(x))


def rsqrt(x):
    return tf.math.rsqrt(tf.convert_to_tensor(x))


def top_k(x, k, sorted=True):  # noqa: A002 (Keras's keyword)
    return tf.math.top_k(tf.convert_to_tensor(x), k, sorted=sorted)


def jvp(fun, primals, tangents, has_aux=False):
    """Keras's ``ops.jvp`` (the Jacobian of ``fun`` at ``primals`` times ``tangents``): devtrace has no
    forward-mode accumulator, so it is the gradient, with respect to a dummy cotangent ``u``, of
    ``<vjp(u), tangents>`` — two ``GradientTape`` passes, the second differentiating the first."""
    primals = [tf.convert_to_tensor(p) for p in primals]
    tangents = [tf.convert_to_tensor(t) for t in tangents]

    def call():
        result = fun(*primals)
        return result if has_aux else (result, None)

    shape_of, _ = call()
    flat = tf.nest.flatten(shape_of)
    dummies = [tf.zeros_like(o) for o in flat]
    with tf.GradientTape() as outer:
        outer.watch(dummies)
        with tf.GradientTape() as inner:
            inner.watch(primals)
            out, aux = call()
        vjps = inner.gradient(tf.nest.flatten(out), primals, output_gradients=dummies)
        dot = tf.add_n([tf.reduce_sum(g * t) for g, t in zip(vjps, tangents) if g is not None])
    jvps = outer.gradient(dot, dummies)
    jvps = [j if j is not None else tf.zeros_like(o) for j, o in zip(jvps, flat)]
    tangents_out = tf.nest.pack_sequence_as(out, jvps)
    return (out, tangents_out, aux) if has_aux else (out, tangents_out)


def slice(inputs, start_indices, shape):  # noqa: A001 (Keras's name)
    return tf.slice(inputs, start_indices, shape)


def slice_update(inputs, start_indices, updates):
    """``inputs`` with ``updates`` written from ``start_indices`` on (a scatter of every position)."""
    x, updates = tf.convert_to_tensor(inputs), tf.convert_to_tensor(updates)
    grids = tf.meshgrid(*[tf.range(n) + int(s) for n, s in zip(updates.shape, start_indices)], indexing="ij")
    return tf.tensor_scatter_nd_update(x, tf.stack(grids, axis=-1), tf.cast(updates, x.dtype))


def scatter(indices, values, shape):
    return tf.scatter_nd(indices, values, shape)


def scatter_update(inputs, indices, updates, reduction=None):
    update = {None: tf.tensor_scatter_nd_update, "add": tf.tensor_scatter_nd_add,
              "max": tf.tensor_scatter_nd_max, "min": tf.tensor_scatter_nd_min}.get(reduction)
    if update is None:
        raise NotImplementedError(f"devtrace does not implement keras.ops.scatter_update(reduction={reduction!r}) yet")
    return update(inputs, indices, updates)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    listed = isinstance(loop_vars, (tuple, list))
    state = tuple(loop_vars) if listed else (loop_vars,)

    def step(*args):
        out = body(*args)
        return tuple(out) if listed else (out,)
    out = tf.while_loop(cond, step, state, maximum_iterations=maximum_iterations)
    return out if listed else out[0]


def fori_loop(lower, upper, body_fun, init_val):
    return tf.while_loop(lambda i, val: i < upper, lambda i, val: (i + 1, body_fun(i, val)), (lower, init_val))[1]


def _stacked(outs):
    return tf.nest.map_structure(lambda *values: tf.stack(values), *outs)


def map(f, xs):  # noqa: A001 (Keras's name)
    """``f`` over the leading axis of ``xs`` (a nest of tensors), the outputs stacked (``jax.lax.map``)."""
    xs = tf.nest.map_structure(convert_to_tensor, xs)
    n = tf.nest.flatten(xs)[0].shape[0]
    return _stacked([f(tf.nest.map_structure(lambda t, i=i: t[i], xs)) for i in range(n)])


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """``jax.lax.scan``: ``carry, y = f(carry, x)`` over the leading axis of ``xs`` (or ``length``
    times with ``x`` None); the last carry and the ``y``s stacked."""
    if not callable(f):
        raise TypeError(f"`f` should be a callable. Received: f={f}")
    if not isinstance(unroll, bool) and (not isinstance(unroll, int) or unroll < 1):
        raise ValueError(f"`unroll` must be an positive integer or boolean. Received: unroll={unroll}")
    if xs is None and length is None:
        raise ValueError("Got no `xs` to scan over and `length` not provided.")
    if xs is not None:
        xs = tf.nest.map_structure(convert_to_tensor, xs)
        length = tf.nest.flatten(xs)[0].shape[0]
    carry, ys = tf.nest.map_structure(convert_to_tensor, init), []
    steps = range(length - 1, -1, -1) if reverse else range(length)
    for i in steps:
        carry, y = f(carry, None if xs is None else tf.nest.map_structure(lambda t, i=i: t[i], xs))
        ys.append(y)
    if reverse:
        ys.reverse()
    return carry, (_stacked(ys) if ys and tf.nest.flatten(ys[0]) else ys[0] if ys else None)


def associative_scan(f, elems, reverse=False, axis=0):
    """The inclusive scan of ``elems`` (a nest of tensors) along ``axis`` with the associative
    ``f`` (``jax.lax.associative_scan``), each element a slice that keeps the axis."""
    if not callable(f):
        raise TypeError(f"`f` should be a callable. Received: f={f}")
    flat = [convert_to_tensor(e) for e in tf.nest.flatten(elems)]
    sizes = {t.shape[axis] for t in flat}
    if len(sizes) != 1:
        raise ValueError("Array inputs to associative_scan must have the same first dimension. (saw: "
                         f"{[t.shape for t in flat]})")
    n = sizes.pop()
    if reverse:
        flat = [tf.reverse(t, [axis]) for t in flat]

    def part(t, i):
        return tf.gather(t, [i], axis=axis)
    out = [[part(t, 0) for t in flat]]
    for i in range(1, n):
        combined = f(tf.nest.pack_sequence_as(elems, out[-1]), tf.nest.pack_sequence_as(elems, [part(t, i) for t in flat]))
        out.append([convert_to_tensor(c) for c in tf.nest.flatten(combined)])
    result = [tf.concat([step[j] for step in out], axis) for j in range(len(flat))]
    if reverse:
        result = [tf.reverse(t, [axis]) for t in result]
    return tf.nest.pack_sequence_as(elems, result)


def unstack(x, num=None, axis=0):
    return tf.unstack(x, num=num, axis=axis)


def custom_gradient(fun):
    return tf.custom_gradient(f=fun)
