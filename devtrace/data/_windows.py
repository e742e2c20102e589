"""``tf.data`` pipelines beyond one element at a time, as generator functions ``data.Dataset``'s
methods wrap: ``padded_batch`` (each component padded to the batch's longest, or to the shapes
given), ``window`` (sub-datasets of ``size`` elements every ``shift``, ``stride`` apart) and
``from_generator`` (a Python generator's values converted to the declared dtypes)."""

from __future__ import annotations

import numpy as np

from ..runtime.values import host_array


def padded(arrays, shape, value):
    """``arrays`` stacked, each padded at the end of every axis to ``shape`` (None: the longest)."""
    longest = np.max([a.shape for a in arrays], axis=0) if arrays[0].ndim else ()
    target = tuple(int(m) if s is None or s == -1 else int(s) for s, m in zip(shape or [None] * len(longest), longest))
    out = np.full((len(arrays),) + target, value, dtype=arrays[0].dtype)
    for k, a in enumerate(arrays):
        out[(k,) + tuple(slice(0, n) for n in a.shape)] = a
    return out


def padding_value(value, array):
    if value is None:
        return b"" if array.dtype.kind in "SUO" else 0
    return host_array(value)[0][()]


def windows(source, size, shift, stride, drop_remainder):
    """Lists of elements: window k holds the elements at ``k * shift + j * stride`` (j < size)."""
    it, buffer, base, start, exhausted = source(), [], 0, 0, False
    span = (size - 1) * stride + 1
    while True:
        while len(buffer) < start + span - base and not exhausted:
            try:
                buffer.append(next(it))
            except StopIteration:
                exhausted = True
        window = buffer[start - base:start - base + span:stride]
        if not window or (len(window) < size and drop_remainder):
            return
        yield window
        start += shift
        dropped = min(start - base, len(buffer))
        del buffer[:dropped]
        base += dropped


def generated(generator, args):
    """The generator called with the arguments' NumPy values, as TensorFlow calls it."""
    return generator(*[host_array(a)[0][()] for a in (args or ())])
