"""TensorFlow 2.21's own docstring examples (``tests/tf221_doctests/``), run under devtrace with
TensorFlow's doctest conventions: every example listed in ``passing.txt`` (the ratchet, which only
grows) passes; every one listed in ``passing_actual.txt`` (the checkpoints TensorFlow did not run as
shown) does what TensorFlow actually did; examples that pass and are not listed yet are reported as a
warning (``python tests/tf221_doctests/census.py [--actual] --write`` adds them)."""

import doctest
import pathlib
import sys
import warnings

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tf221_doctests"))
import doclib  # noqa: E402
import runner  # noqa: E402

DOCS = {kind: runner.load(kind) for kind in ("tf", "keras") if (runner.CAPTURES / f"{kind}.jsonl").exists()}
LISTED = {kind: runner.read_ratchet(kind) for kind in DOCS}
ACTUAL = {kind: runner.read_ratchet(kind, actual=True) for kind in DOCS}
# one test per namespace: a worker runs a namespace's docstrings in its own interpreter, each with
# fresh globals and state; Keras's only where its ratchets list something
CHUNKS = [(kind, ns) for kind, docs in DOCS.items() if kind == "tf" or LISTED[kind] or ACTUAL[kind]
          for ns in sorted({d["ns"] for d in docs})]


def _detail(doc, steps, actual=False) -> str:
    examples = doclib.to_examples(doc["ex"])
    bad = next((i for i, s in enumerate(steps) if (not doclib.matches_tensorflow(doc["ex"][i], examples[i], s)
                                                   if actual else s.outcome not in ("ok", "skip"))), None)
    if bad is None:
        return ""
    ex = doc["ex"][bad]
    expected = ex.get("got", "") if actual and ex["tf"] in ("fail", "error") else ex.get("want", ex.get("exc", ""))
    return (f"\n    >>> {ex['src'].rstrip()}\n    expected{' (TensorFlow ' + ex['tf'] + ')' if actual else ''}: "
            f"{expected.rstrip()[:300]}\n    got ({steps[bad].outcome}): {steps[bad].got.rstrip()[:300]}")


# TensorFlow's kernels return inf and nan silently, as devtrace's do outside pytest's warning capture
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("kind,ns", CHUNKS, ids=[f"{k}.{n}" if n else k for k, n in CHUNKS])
def test_listed_docstring_examples_pass(kind, ns):
    import devtrace.api.as_tensorflow

    listed, actual = set(LISTED[kind]), set(ACTUAL[kind])
    docs = [d for d in DOCS[kind] if d["ns"] == ns and (kind == "tf" or listed.intersection(d["checks"])
                                                        or actual.intersection(d["actual"]))]
    failed, new, new_actual = [], [], []
    globs = runner.globals_for(kind)
    try:
        for doc in docs:
            result, steps = runner.run_doc(doc, globs)
            lost = [e for e, ok in result.items() if e in listed and not ok]
            if lost:
                failed.append(f"{' '.join(lost)}{_detail(doc, steps)}")
            new.extend(e for e, ok in result.items() if ok and e not in listed)
            matched = runner.actual_results(doc, steps)
            lost = [e for e, ok in matched.items() if e in actual and not ok]
            if lost:
                failed.append(f"{' '.join(lost)} (against TensorFlow's actual output){_detail(doc, steps, True)}")
            new_actual.extend(e for e, ok in matched.items() if ok and e not in actual)
    finally:
        devtrace.api.as_tensorflow.uninstall()
    if new:
        warnings.warn(f"{len(new)} docstring examples of {kind}.{ns} pass and are not in "
                      f"{runner.RATCHETS[kind].name} (census.py --write adds them): {' '.join(new)}")
    if new_actual:
        warnings.warn(f"{len(new_actual)} docstring examples of {kind}.{ns} do what TensorFlow actually did and are "
                      f"not in {runner.ACTUAL_RATCHETS[kind].name} (census.py --actual --write adds them): "
                      f"{' '.join(new_actual)}")
    assert not failed, f"{len(failed)} listed docstrings fail:\n" + "\n".join(failed)


@pytest.mark.parametrize("kind", sorted(DOCS))
def test_the_ratchet_lists_captured_examples_that_tensorflow_passes_once_each(kind):
    known = {e for d in DOCS[kind] for e in d["checks"]}
    listed = LISTED[kind]
    assert len(listed) == len(set(listed)), "an example is listed twice"
    assert listed == sorted(listed)
    assert [e for e in listed if e not in known] == []


@pytest.mark.parametrize("kind", sorted(DOCS))
def test_the_actual_ratchet_lists_only_checkpoints_tensorflow_did_not_run_as_shown(kind):
    known = {e for d in DOCS[kind] for e in d["actual"]}
    listed = ACTUAL[kind]
    assert len(listed) == len(set(listed)), "an example is listed twice"
    assert listed == sorted(listed)
    assert [e for e in listed if e not in known] == []
    assert not set(listed) & set(LISTED[kind])


def test_a_timed_out_docstring_stops_there():
    examples = [doctest.Example("x = 1\n", ""), doctest.Example("while True: pass\n", ""),
                doctest.Example("x\n", "1\n")]
    steps = doclib.run("spin", examples, {}, 0.2)
    assert [s.outcome for s in steps] == ["ok", "timeout", "not run"]


@pytest.mark.parametrize("want,got,ok", [
    ("<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.0001, 2.], dtype=float32)>",
     "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.    , 2.    ], dtype=float32)>\n", True),
    ("array([1.5, 2.])\n", "array([1.6, 2. ])\n", False),                  # beyond 1e-3
    ("array([1., 2.])\n", "array([1., 2., 3.])\n", False),                 # a number more
    ("[...]\n", "[1.0, 2.0]\n", True),                                    # no numbers shown: none compared
    ("<object at 0x7f00>\n", "<object at 0x1234abcd>\n", True),
    ("<tf.Tensor: shape=(), dtype=int32, numpy=3>\n", "<tf.Tensor: shape=(), dtype=int64, numpy=3>\n", True),
    ("3\n", "4\n", False),
    ("", "anything\n", True),
    ("1.5e-3\n", "0.0015\n", True),
    ("(1+2j)\n", "(1+2.0004j)\n", True),
])
def test_outputs_compare_with_tensorflows_doctest_rules(want, got, ok):
    assert doclib.Checker().check_output(want, got, doclib.FLAGS) is ok


def test_a_keras_docstrings_module_names_are_bound_from_the_interpreters_own_keras():
    """``ops``/``Dense`` unqualified, as the defining module has them, from the Keras being tested; a
    path that Keras lacks stays unbound (a NameError where the docstring uses it)."""
    import types

    keras = types.SimpleNamespace(ops=types.SimpleNamespace(add="add"), layers=types.SimpleNamespace(Dense="Dense"))
    globs = doclib.bind({"np": "np"}, {"ops": "keras.ops", "Dense": "keras.layers.Dense", "Gone": "keras.layers.Gone",
                                       "collections": "collections"}, keras)
    assert globs["ops"] is keras.ops and globs["Dense"] == "Dense" and globs["np"] == "np"
    assert "Gone" not in globs and globs["collections"].__name__ == "collections"


@pytest.mark.parametrize("record,step,ok", [
    # TensorFlow printed a tensor where the docstring shows NumPy's text: devtrace must print that tensor's values
    ({"src": "f()\n", "want": "[0., 2.]\n", "tf": "fail",
      "got": "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>\n"},
     doclib.Step("fail", "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.0001, 2.], dtype=float32)>\n"), True),
    ({"src": "f()\n", "want": "[0., 2.]\n", "tf": "fail",
      "got": "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>\n"},
     doclib.Step("ok", "[0., 2.]\n"), False),                                    # the docstring's text is not TF's
    ({"src": "f()\n", "want": "[0., 2.]\n", "tf": "fail",
      "got": "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>\n"},
     doclib.Step("error", "ValueError: no\n"), False),
    # an exception: its type without its module, its message under the checker's rules
    ({"src": "f()\n", "want": "1\n", "tf": "error",
      "got": "tensorflow.python.framework.errors_impl.InvalidArgumentError: Invalid reduction dimension (1 for input "
             "with 1 dimension(s) [Op:Sum] name:\n"},
     doclib.Step("error", "devtrace.errors.InvalidArgumentError: Invalid reduction dimension (1 for input with 1 "
                          "dimension(s) [Op:Sum] name:\n"), True),
    ({"src": "f()\n", "want": "1\n", "tf": "error", "got": "TypeError: bad dtype int32\n"},
     doclib.Step("error", "ValueError: bad dtype int32\n"), False),
    ({"src": "f()\n", "want": "1\n", "tf": "error", "got": "TypeError: rank 2\n"},
     doclib.Step("error", "TypeError: rank 3\n"), False),
    ({"src": "f()\n", "want": "1\n", "tf": "ok"}, doclib.Step("ok", "1\n"), True),
    ({"src": "f()\n", "want": "1\n", "tf": "timeout"}, doclib.Step("ok", "1\n"), False),
])
def test_a_checkpoint_matches_what_tensorflow_actually_did(record, step, ok):
    example = doclib.to_examples([record])[0]
    assert doclib.matches_tensorflow(record, example, step) is ok


def test_python_s_own_errors_under_tensorflow_are_not_checkpoints_against_tensorflow():
    assert doclib.language_error({"tf": "error", "got": "NameError: name 'x' is not defined\n"})
    assert doclib.language_error({"tf": "error", "got": "File \"<doctest d[0]>\", line 1\n    f(\n     ^\n"
                                                        "SyntaxError: '(' was never closed\n"})
    assert not doclib.language_error({"tf": "error", "got": "AttributeError: 'list' object has no attribute 'shape'\n"})
    assert not doclib.language_error({"tf": "fail", "got": "NameError: name 'x' is not defined\n"})
