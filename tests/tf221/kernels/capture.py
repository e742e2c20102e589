"""Capture TensorFlow 2.21's kernel registry for the ops devtrace declares: which device types
have a kernel for each op and the dtypes it is registered for (README.md says how it was run).

Reads op names, one a line, on stdin; writes ``gpu_kernels.json``: ``{op: {device type: [dtype
names] or ["*"] (no type constraint)}}`` with TensorFlow's ``DEFAULT`` kernels (every device type)
kept apart, and ``Cast``'s GPU ``[SrcT, DstT]`` pairs under ``"Cast pairs"``."""

import json
import os
import sys

from tensorflow.python.framework import dtypes, kernels

names = sorted({line.strip() for line in sys.stdin if line.strip()})
out = {}
for name in names:
    try:
        registered = kernels.get_registered_kernels_for_op(name).kernel
    except Exception:  # not an op of TensorFlow's (devtrace's own helpers)
        registered = []
    by_device = {}
    for k in registered:
        types = by_device.setdefault(k.device_type, set())
        if not k.constraint:
            types.add("*")
        for c in k.constraint:
            types.update(dtypes.as_dtype(t).name for t in c.allowed_values.list.type)
    out[name] = {d: sorted(t) for d, t in sorted(by_device.items())}
out["Cast pairs"] = sorted(
    [dtypes.as_dtype(k.constraint[0].allowed_values.list.type[0]).name,
     dtypes.as_dtype(k.constraint[1].allowed_values.list.type[0]).name]
    for k in kernels.get_registered_kernels_for_op("Cast").kernel if k.device_type == "GPU")
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_kernels.json"), "w") as f:
    f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(out.items())) + "\n}\n")
