"""Rewrite ``devtrace/generated/op_defs.py`` from TensorFlow's op registry (run by hand, like capture.py):

    python tests/tf221_oracle/op_defs_capture.py --python /root/tfvenv/bin/python

devtrace's declared op names go to the TensorFlow interpreter, which prints each OpDef as its
``SummarizeOpDef`` does; the ops whose ``T`` (``OneHot``: ``TI``) lists dtypes and types their first
input are kept.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys

TARGET = pathlib.Path(__file__).resolve().parents[2] / "devtrace" / "generated" / "op_defs.py"
# ops whose T is not the dtype devtrace places them by
SKIP = {"DenseBincount", "InTopKV2", "Substr", "AsString", "RandomStandardNormal", "RandomUniform",
        "RandomUniformInt", "TruncatedNormal", "StatelessRandomPoisson", "Multinomial", "StatelessMultinomial"}
CHECKED = re.compile(r"attr=(T|TI):type(?:,default=\w+)?,allowed=")

SUMMARIZE = r'''
import sys

import numpy
from tensorflow.core.framework import types_pb2
from tensorflow.python.framework import op_def_registry


def enum(t):
    return types_pb2.DataType.Name(t)


def arg(a):
    kind = a.type_attr or a.type_list_attr or enum(a.type)[3:].lower()
    kind = f"{a.number_attr}*{kind}" if a.number_attr else kind
    return f"{a.name}:{'Ref(' + kind + ')' if a.is_ref else kind}"


def value(v):
    k = v.WhichOneof("value")
    if k == "list":
        items = [enum(t) for t in v.list.type] or ['"' + s.decode() + '"' for s in v.list.s] or list(map(str, v.list.i))
        return "[" + ", ".join(items) + "]"
    return {"b": lambda: "true" if v.b else "false", "type": lambda: enum(v.type), "i": lambda: str(v.i),
            "f": lambda: numpy.format_float_positional(numpy.float32(v.f), trim="-"),
            "s": lambda: '"' + v.s.decode() + '"'}.get(k, lambda: "<" + str(k) + ">")()


for name in sys.stdin.read().split():
    o = op_def_registry.get(name)
    text = f"Op<name={o.name}; signature={', '.join(map(arg, o.input_arg))} -> {', '.join(map(arg, o.output_arg))}"
    for a in o.attr:
        text += f"; attr={a.name}:{a.type}"
        text += ",default=" + value(a.default_value) if a.HasField("default_value") else ""
        text += f",min={a.minimum}" if a.has_minimum else ""
        text += ",allowed=" + value(a.allowed_values) if a.HasField("allowed_values") else ""
    for flag in ("is_commutative", "is_aggregate", "is_stateful", "allows_uninitialized_input"):
        text += f"; {flag}=true" if getattr(o, flag) else ""
    print(text + ">")
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with tensorflow 2.21")
    args = parser.parse_args()
    import devtrace.ops  # noqa: F401 (declares every op)
    from devtrace.runtime.registry import REGISTRY

    done = subprocess.run([args.python, "-c", SUMMARIZE], input=" ".join(sorted(REGISTRY)), text=True,
                          capture_output=True, check=True, env={"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""})
    source = TARGET.read_text()
    lines = [source[:source.index("SIGNATURES = {")] + "SIGNATURES = {"]
    for text in (line for line in done.stdout.splitlines() if line.startswith("Op<")):
        name = re.search(r"name=(\w+)", text).group(1)
        first = re.search(r"signature=\w+:(?:\w+\*)?(\w+)", text)  # devtrace places an op by its first input's dtype
        checked = CHECKED.search(text)
        if checked and first and first.group(1) == checked.group(1) and name not in SKIP and "<" not in text[4:-1]:
            lines.append(f"    {name!r}: {text!r},".replace(f"'{name}'", f'"{name}"', 1))
    TARGET.write_text("\n".join(lines) + "\n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
