"""Rewrite ``devtrace/generated/arg_names.py`` from TensorFlow's op and kernel registries (run by hand,
like op_defs_capture.py):

    python tests/tf221_oracle/arg_names_capture.py --python /root/tfvenv/bin/python

devtrace's declared op names go to the TensorFlow interpreter, which prints, per op, its OpDef's
input and output arg names (a list arg — ``number_attr`` or ``type_list_attr`` — marked ``*``, an
arg of a fixed dtype followed by ``:dtype``, one typed by the ``T`` attr by ``@T``) and
the args its CPU kernels keep in host memory (``HostMemory(...)``, from ``kernels``).
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys

TARGET = pathlib.Path(__file__).resolve().parents[2] / "devtrace" / "generated" / "arg_names.py"

NAMES = r'''
import sys

from tensorflow.core.framework import types_pb2
from tensorflow.python.framework import kernels, op_def_registry


def names(args):
    fixed = lambda a: ":" + types_pb2.DataType.Name(a.type)[3:].lower() if a.type else ""
    return tuple(a.name + ("*" if a.number_attr or a.type_list_attr else "") + fixed(a)
                 + ("@T" if a.type_attr == "T" else "") for a in args)


for name in sys.stdin.read().split():
    o = op_def_registry.get(name)
    if o is None:
        continue
    host = sorted({h for k in kernels.get_registered_kernels_for_op(name).kernel
                   if k.device_type == "CPU" for h in k.host_memory_arg})
    print(repr((name, names(o.input_arg), names(o.output_arg), tuple(host))))
'''

HEADER = '''"""TensorFlow 2.21's OpDef arg names of the ops devtrace declares: ``{op: (inputs, outputs,
CPU host-memory args)}``, a list arg marked ``*``, an arg of a fixed dtype followed by ``:dtype``, one of the ``T`` attr's by ``@T``. TensorFlow names the ``_Arg``/``_Retval`` nodes
of the one-op function it builds the first time an op signature runs eagerly after them (the
placement log prints that function on stdout).

Generated from TensorFlow 2.21's op and kernel registries by
``tests/tf221_oracle/arg_names_capture.py --python /root/tfvenv/bin/python``; do not edit."""

ARG_NAMES = {'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with tensorflow 2.21")
    args = parser.parse_args()
    import devtrace.ops  # noqa: F401 (declares every op)
    from devtrace.runtime.registry import REGISTRY

    done = subprocess.run([args.python, "-c", NAMES], input=" ".join(sorted(REGISTRY)), text=True,
                          capture_output=True, check=True, env={"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""})
    lines = [HEADER]
    for text in (line for line in done.stdout.splitlines() if line.startswith("(")):
        name, inputs, outputs, host = eval(text)  # noqa: S307 (our own repr of plain tuples)
        lines.append(f"    {name!r}: ({inputs!r}, {outputs!r}, {host!r}),".replace("'", '"'))
    TARGET.write_text("\n".join(lines) + "\n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
