"""``keras.<namespace>.get`` as Keras 3.15.1's (issue 28): a loss's name gives the function
(``"mse"``) and a class's name an instance; every string each namespace knows, dicts, classes,
callables, ``None`` and Keras's error texts; the names Keras draws for unnamed metrics and
optimizers (``auc``, ``auc_1``). Captured by ``tests/keras3/getters_capture.py`` into
``tests/keras3/getters.json``."""

import json
import os
import sys

import pytest

import devtrace as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "keras3"))
from getters_probes import EXPRESSIONS, IDENTIFIERS, NAMES_IN_ORDER, NAMESPACES, evaluate  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "keras3", "getters.json")) as _f:
    CAPTURED = json.load(_f)


def _source(identifier):
    return identifier if identifier[0] in "{3Na" else repr(identifier)


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_identifiers_as_keras(namespace):
    for identifier in IDENTIFIERS:
        got = evaluate(f"keras.{namespace}.get({_source(identifier)})", tf.keras)
        assert got == CAPTURED["identifiers"][namespace][identifier], (namespace, identifier)


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_name_keras_knows(namespace):
    """Each string Keras's ``get`` resolves gives the same kind of object here, where devtrace has
    the class or function; the names devtrace lacks are few."""
    module = getattr(tf.keras, namespace)
    missing = []
    for key, want in CAPTURED["known"][namespace].items():
        kind, _, target = want.partition(" ")
        if kind not in ("instance", "function"):
            continue  # Keras's own failure (a class needing arguments; scipy absent)
        if target not in vars(module):
            missing.append(key)
            continue
        assert evaluate(f"keras.{namespace}.get({key!r})", tf.keras) == want, key
    assert len(missing) <= {"losses": 8, "metrics": 6, "optimizers": 9}.get(namespace, 2), missing


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_expressions_as_keras(expression):
    assert evaluate(expression, tf.keras) == CAPTURED["expressions"][expression]


def test_auto_names_as_keras():
    tf.keras.backend.clear_session()
    assert [[e, evaluate(e, tf.keras)] for e in NAMES_IN_ORDER] == CAPTURED["names_in_order"]
