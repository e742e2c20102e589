"""Rewrite ``devtrace/generated/tf_api_names.py`` from TensorFlow 2.21's public API (run by hand, like
op_defs_capture.py):

    python tests/tf221_oracle/api_names_capture.py --python /root/tfvenv/bin/python

The TensorFlow interpreter walks ``tf``'s namespaces (``tf.math``, ``tf.compat.v1.nn``,
``tf.keras.layers`` …) and prints, per namespace, its module's ``__name__`` (what TensorFlow's
"has no attribute" error names) and its public names; and the public attributes of an eager
tensor and a resource variable. devtrace tells a name TensorFlow has but devtrace lacks ("devtrace
does not implement tf.X yet") from one TensorFlow does not have either (TensorFlow's own error).
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys

TARGET = pathlib.Path(__file__).resolve().parents[2] / "devtrace" / "generated" / "tf_api_names.py"

NAMES = r'''
import types

import tensorflow as tf

seen = {}


def walk(module, path):
    if path.count("compat.") > 1 or module.__name__ in seen:  # compat.v1.compat.v1 …: the same again
        if module.__name__ in seen:
            print(repr((path, module.__name__, None)))
        return
    names = sorted(n for n in dir(module) if not n.startswith("_"))
    seen[module.__name__] = path
    print(repr((path, module.__name__, " ".join(names))))
    for name in names:
        try:
            value = getattr(module, name)
            public = isinstance(value, types.ModuleType) and value.__name__.startswith(("tensorflow", "keras")) \
                and "python" not in value.__name__.split(".")  # not its implementation modules
        except Exception:  # a lazy loader that refuses (Keras 3's estimator shims)
            continue
        if public:
            walk(value, f"{path}.{name}" if path else name)


walk(tf, "")
t, v = tf.constant(1.0), tf.Variable(1.0)
print(repr(("<Tensor>", "tensorflow.python.framework.ops.EagerTensor", " ".join(n for n in dir(t) if not n.startswith("_")))))
print(repr(("<Variable>", "ResourceVariable", " ".join(n for n in dir(v) if not n.startswith("_")))))
'''

HEADER = '''"""TensorFlow 2.21's public names: ``{namespace: (its module's __name__, its names)}`` (``""``:
``tf`` itself; a namespace that is another's module again names it: ``(module, None)``), and the
public attributes of an eager tensor (``<Tensor>``) and a resource variable (``<Variable>``).

Generated from TensorFlow 2.21 by ``tests/tf221_oracle/api_names_capture.py --python
/root/tfvenv/bin/python``; do not edit."""

NAMES = {'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with tensorflow 2.21")
    args = parser.parse_args()
    done = subprocess.run([args.python, "-c", NAMES], text=True, capture_output=True, check=True,
                          env={"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""})
    lines = [HEADER]
    for text in (line for line in done.stdout.splitlines() if line.startswith("(")):
        path, module, names = eval(text)  # noqa: S307 (our own repr of plain tuples)
        lines.append(f"    {path!r}: ({module!r}, {names!r}),".replace("'", '"'))
    TARGET.write_text("\n".join(lines) + "\n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
