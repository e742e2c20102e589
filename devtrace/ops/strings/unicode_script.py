"""``tf.strings.unicode_script`` (``UnicodeScript``): ICU's script code of each code point, from the
table generated from TensorFlow 2.21 (``generated/unicode_scripts.py``); -1 outside Unicode."""

from __future__ import annotations

import numpy as np

from ...generated.unicode_scripts import SCRIPTS, STARTS
from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from .. import shapes
from ..declare import as_tensor, on_host, op, public

_STARTS = np.array(STARTS, np.int64)
_SCRIPTS = np.array(SCRIPTS, np.int32)


def _unicode_script(xp, x):
    codes = on_host(xp, x).astype(np.int64)
    out = _SCRIPTS[np.clip(np.searchsorted(_STARTS, codes, side="right") - 1, 0, None)]
    out = np.where((codes < 0) | (codes > 0x10FFFF), np.int32(-1), out).astype(np.int32)
    return xp.asarray(out)


op("UnicodeScript", _unicode_script, ("int32",), devices=(CPU,), shape=shapes.same)


@public("strings.unicode_script")
def unicode_script(input, name=None):  # noqa: A002 (TensorFlow's name)
    return execute("UnicodeScript", (as_tensor(input),), name=name, dtype=dtypes.int32)  # its input is int32, not a T
