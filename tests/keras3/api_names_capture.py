"""Writes ``devtrace/generated/keras_api_names.py``: the public names of standalone Keras 3's namespaces
(``import keras``) where they differ from ``tf.keras``'s (TensorFlow 2.21 serves ``tf.keras`` from
``keras._tf_keras.keras``; ``devtrace/tf_api_names.py`` holds those). Run by hand with the oracle
venv: ``/work/tfvenv/bin/python tests/keras3/api_names_capture.py``."""

import os
import sys
import types

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ["KERAS_BACKEND"] = "tensorflow"
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def walk(module, path, out):
    names = sorted(n for n in dir(module) if not n.startswith("_"))
    out[path] = (module.__name__, names)
    for n in names:
        value = getattr(module, n)
        if isinstance(value, types.ModuleType) and value.__name__.startswith("keras.") \
                and not value.__name__.startswith("keras.src") and n != "src":
            walk(value, f"{path}.{n}" if path else n, out)


def main():
    standalone, tf_keras = {}, {}
    walk(keras, "", standalone)
    walk(tf.keras, "", tf_keras)
    lines = []
    for path, (module, names) in sorted(standalone.items()):
        if path in tf_keras and tf_keras[path] == (module, names):
            continue
        lines.append(f"    {path!r}: ({module!r}, {' '.join(names)!r}),")
    target = os.path.join(ROOT, "devtrace", "generated", "keras_api_names.py")
    with open(target, "w") as f:
        f.write('"""Standalone Keras 3.15\'s public names (``import keras``) where its namespace differs from\n'
                '``tf.keras``\'s: ``{namespace: (its module\'s __name__, its names)}`` (``""``: ``keras``).\n\n'
                f'Generated from Keras {keras.__version__} (TensorFlow {tf.__version__}) by '
                '``tests/keras3/api_names_capture.py``; do not edit."""\n\n'
                f"VERSION = {keras.__version__!r}\n\nNAMES = {{\n" + "\n".join(lines) + "\n}\n")
    print(f"wrote {target}: {len(lines)} namespaces", file=sys.stderr)


main()
