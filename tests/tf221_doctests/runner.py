"""The captured docstring examples run under devtrace, with TensorFlow's doctest conventions
(``doclib``): the globals ``tf`` (devtrace answering ``import tensorflow``), ``np`` and ``os``
(Keras's: ``keras``, devtrace's answer to ``import keras``, and ``np``); before each docstring the global seeds
are set as ``tf.test.TestCase.setUp`` sets them, devtrace's process state is that of a new process
(eager context, random state, default graph) and the working directory is a fresh empty one.

An example's id is ``<docstring id>:<k>``, ``k`` counting the docstring's checkpoints
(``doclib.checkpoints``). Two kinds count, each with its ratchet: those TensorFlow itself ran as
shown (``checks``: devtrace must run them as shown), and the others, where TensorFlow printed or
raised something else (``actual``: devtrace must do what TensorFlow actually did,
``doclib.matches_tensorflow``).
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import sys
import tempfile
import threading

import numpy as np

from devtrace.framework import dispatch

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import doclib  # noqa: E402

CAPTURES = HERE / "captures"
RATCHETS = {"tf": HERE / "passing.txt", "keras": HERE / "passing_keras.txt"}
ACTUAL_RATCHETS = {"tf": HERE / "passing_actual.txt", "keras": HERE / "passing_keras_actual.txt"}
TIMEOUT = 20.0  # seconds a docstring may take under devtrace (TensorFlow's slowest: a few)
# docstrings whose examples are heavy for TensorFlow too, so a busy 2-core machine can take longer:
# sync_devices times two 4096x4096 products (TensorFlow 2.21 printed "Time taken: 9.5" on this CPU)
HEAVY = {"tf.test.experimental.sync_devices": 120.0}


def load(kind: str = "tf") -> list:
    """The captured docstrings: dicts with ``id``, ``ns``, ``ex`` (see capture.py), ``checks``:
    ``{example id: index of its example}`` for the checkpoints TensorFlow passed, and ``actual``:
    the same for the others that TensorFlow ran to the end (no ``timeout``/``not run`` up to them),
    but for those where TensorFlow raised Python's own NameError or SyntaxError
    (``doclib.language_error``)."""
    docs = []
    with open(CAPTURES / f"{kind}.jsonl", encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            examples = doclib.to_examples(doc["ex"])
            outcomes = [doclib.Step(r["tf"]) for r in doc["ex"]]
            doc["checks"], doc["actual"] = {}, {}
            for k, i in enumerate(doclib.checkpoints(examples)):
                if doclib.passed(outcomes, i):
                    doc["checks"][f"{doc['id']}:{k}"] = i
                elif (all(r["tf"] in ("ok", "skip", "fail", "error") for r in doc["ex"][:i + 1])
                      and not doclib.language_error(doc["ex"][i])):
                    doc["actual"][f"{doc['id']}:{k}"] = i
            docs.append(doc)
    return docs


def read_ratchet(kind: str = "tf", actual: bool = False) -> list:
    path = (ACTUAL_RATCHETS if actual else RATCHETS)[kind]
    if not path.exists():
        return []
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def _fresh_state(tf) -> None:
    """What a new process (and TestCase.setUp) gives: no eager context yet, no global seed, the
    default graph new, Keras's configuration its defaults; then the seeds TestCase.setUp sets."""
    from devtrace.keras import config as keras_config
    from devtrace.keras import engine as keras_engine
    from devtrace.keras import random as keras_random
    from devtrace.ops import random_ops
    from devtrace.runtime import context

    keras_config.reset()
    keras_engine._UIDS.clear()  # layer names start again (dense, dense_1 …), as in a new process
    keras_random._GLOBAL.clear()  # no global seed generator yet (Keras makes it at the first unseeded draw)
    random_ops.reset()
    context._context = None
    random.seed(doclib.SEED)
    np.random.seed(doclib.SEED)
    tf.compat.v1.reset_default_graph()
    tf.random.set_seed(doclib.SEED)


def globals_for(kind: str) -> dict:
    import devtrace.api.as_tensorflow

    devtrace.api.as_tensorflow.install()
    import tensorflow as tf

    if kind == "tf":
        return {"__name__": "__main__", "tf": tf, "np": np, "os": os}
    import keras  # devtrace's answer to ``import keras``, as the capture imports Keras

    return {"__name__": "__main__", "keras": keras, "np": np}


def run_doc(doc: dict, globs: dict) -> tuple:
    """``({example id: passed}, steps)`` for one docstring: its checkpoints that TensorFlow passed,
    and every example's ``doclib.Step``."""
    examples = doclib.to_examples(doc["ex"])
    home = os.getcwd()
    timeout = HEAVY.get(doc["id"], TIMEOUT) if threading.current_thread() is threading.main_thread() else None
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            tf = sys.modules["tensorflow"]
            _fresh_state(tf)
            steps = doclib.run(doc["id"], examples, doclib.bind(globs, doc.get("globs", {}), globs.get("keras")), timeout)
        except Exception as e:  # noqa: BLE001 (the fresh state itself failing fails the docstring)
            steps = [doclib.Step("error", f"{type(e).__name__}: {e}\n")] * len(examples)
        finally:
            os.chdir(home)
            dispatch.reset()  # a docstring's dispatch targets (tf.add's MaskedTensor) end with it
    return {eid: doclib.passed(steps, i) for eid, i in doc["checks"].items()}, steps


def actual_results(doc: dict, steps: list) -> dict:
    """``{example id: matched}`` for a docstring's ``actual`` checkpoints: the checkpoint and every
    example before it did what TensorFlow actually did (``doclib.matches_tensorflow``)."""
    if not doc["actual"]:
        return {}
    examples = doclib.to_examples(doc["ex"])
    matched, so_far = [], True
    for record, example, step in zip(doc["ex"], examples, steps):
        so_far = so_far and doclib.matches_tensorflow(record, example, step)
        matched.append(so_far)
    return {eid: matched[i] for eid, i in doc["actual"].items()}


def run_all(docs: list, kind: str = "tf") -> dict:
    globs = globals_for(kind)
    passed = {}
    for doc in docs:
        passed.update(run_doc(doc, globs)[0])
    return passed
