"""User-declared ops (``devtrace.register_op``)."""

from __future__ import annotations

from ..runtime import dtypes
from ..runtime.eager.executor import execute
from .declare import as_tensor, op, public


@public("register_op")
def register_op(op_type: str, fn, device_types=("CPU",), dtypes_=None):
    """Register a custom op and return a function that runs it.

    ``fn(xp, *arrays, **attrs)`` computes the output with ``xp`` (NumPy, or CuPy on a real
    GPU); ``device_types`` lists the device types that have a kernel. An op registered for
    the CPU only falls back to the CPU under a GPU scope, as ``cast`` does::

        double = devtrace.register_op("Double", lambda xp, x: x * 2, device_types=["CPU"])
        y = double(x)            # Executing op Double in device .../device:CPU:0
    """
    if not isinstance(op_type, str) or not op_type.isidentifier():
        raise ValueError(f"op_type must be an identifier like 'MyOp', got {op_type!r}")
    op(op_type, fn, dtypes_, devices=tuple(device_types))

    def run(*inputs, name=None, **attrs):
        tensors = tuple(as_tensor(x) for x in inputs)
        return execute(op_type, tensors, attrs or None, name=name,
                       dtype=tensors[0]._dtype if tensors else dtypes.float32)

    run.__name__ = op_type
    return run
