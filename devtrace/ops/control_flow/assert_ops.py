"""``tf.debugging.Assert`` (``tf.Assert``): checked in Python eagerly, as TensorFlow's; in a graph the
``Assert`` op, which fails when it runs with a false condition."""

from __future__ import annotations

import numpy as np

from ...errors import InvalidArgumentError
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.tensor import Tensor
from ..declare import as_tensor, not_differentiable, op, public


def _summarize(x: Tensor, summarize) -> str:
    """TensorFlow's ``_summarize_eager``: the first ``summarize`` (3) entries, then ``...``."""
    summarize = 3 if summarize is None else summarize
    value = x.numpy()
    if isinstance(value, bytes):  # a scalar string: its bytes' repr, as TensorFlow prints it
        return str(value) if summarize != 0 else ""
    if value.ndim:
        flat = value.reshape(-1)
        items = [str(v) for v in (flat if summarize < 0 else flat[:summarize])]
        if len(items) < flat.size:
            items.append("...")
        return ", ".join(items)
    return str(value) if summarize != 0 else ""


def _assert_kernel(xp, condition, *data, summarize=3, T=()):
    if not bool(np.asarray(condition if xp is np else xp.asnumpy(condition))):
        parts = []
        for d in data:
            host = np.asarray(d if xp is np else xp.asnumpy(d)).reshape(-1)
            shown = host if summarize < 0 else host[:summarize]
            text = " ".join(v.decode() if isinstance(v, bytes) else str(v) for v in shown)
            parts.append(f"[{text}{'...' if len(shown) < host.size else ''}]")
        raise InvalidArgumentError("assertion failed: " + " ".join(parts))


op("Assert", _assert_kernel, None, mixed_dtypes=True, stateful=True)
not_differentiable("Assert")


@public("debugging.Assert", "Assert")
def Assert(condition, data, summarize=None, name=None):  # noqa: N802 (TensorFlow's name)
    """Eagerly checked in Python (``None``, or TensorFlow's ``InvalidArgumentError``); in a graph the
    ``Assert`` op, which fails when it runs with a false condition."""
    if context().eager:
        if not bool(as_tensor(condition).numpy()):
            shown = [_summarize(as_tensor(x), summarize) for x in data]
            raise InvalidArgumentError(f"Expected '{condition!s}' to be true. Summarized data: "
                                       + "\n".join(shown))
        return None
    tensors = [as_tensor(x) for x in data]
    return execute("Assert", (as_tensor(condition), *tensors),
                   {"summarize": 3 if summarize is None else int(summarize), "T": [t.dtype.name for t in tensors]},
                   name=name)
