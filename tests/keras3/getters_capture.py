"""Writes ``getters.json``: ``getters_probes`` evaluated with Keras 3.15.1 (TensorFlow 2.21): every
string each namespace's ``get`` knows (its ``ALL_OBJECTS_DICT``), the shared identifiers, the
expressions, and the auto-drawn names after ``clear_session``. Run by hand with the oracle venv:
``/work/tfvenv/bin/python tests/keras3/getters_capture.py``."""

import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")

import keras  # noqa: E402
from getters_probes import EXPRESSIONS, IDENTIFIERS, NAMES_IN_ORDER, NAMESPACES, evaluate  # noqa: E402

known = {ns: sorted(importlib.import_module(f"keras.src.{ns}").ALL_OBJECTS_DICT) for ns in NAMESPACES}
result = {
    "known": {ns: {k: evaluate(f"keras.{ns}.get({k!r})", keras) for k in keys} for ns, keys in known.items()},
    "identifiers": {ns: {i: evaluate(f"keras.{ns}.get({i if i[0] in '{3Na' else repr(i)})", keras)
                         for i in IDENTIFIERS} for ns in NAMESPACES},
    "expressions": {e: evaluate(e, keras) for e in EXPRESSIONS},
}
keras.backend.clear_session()
result["names_in_order"] = [[e, evaluate(e, keras)] for e in NAMES_IN_ORDER]
with open(os.path.join(HERE, "getters.json"), "w") as f:
    json.dump(result, f, indent=1, sort_keys=True)
