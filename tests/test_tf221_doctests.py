"""TensorFlow 2.21's own docstring examples (``tests/tf221_doctests/``), run under devtrace with
TensorFlow's doctest conventions: every example listed in ``passing.txt`` (the ratchet, which only
grows) passes; examples that pass and are not listed yet are reported as a warning
(``python tests/tf221_doctests/census.py --write`` adds them)."""

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
# one test per namespace: a worker runs a namespace's docstrings in its own interpreter, each with
# fresh globals and state; Keras's only where its ratchet lists something
CHUNKS = [(kind, ns) for kind, docs in DOCS.items() if kind == "tf" or LISTED[kind]
          for ns in sorted({d["ns"] for d in docs})]


def _detail(doc, steps) -> str:
    bad = next((i for i, s in enumerate(steps) if s.outcome not in ("ok", "skip")), None)
    if bad is None:
        return ""
    ex = doc["ex"][bad]
    return (f"\n    >>> {ex['src'].rstrip()}\n    expected: {ex.get('want', ex.get('exc', '')).rstrip()[:300]}"
            f"\n    got ({steps[bad].outcome}): {steps[bad].got.rstrip()[:300]}")


# TensorFlow's kernels return inf and nan silently, as devtrace's do outside pytest's warning capture
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("kind,ns", CHUNKS, ids=[f"{k}.{n}" if n else k for k, n in CHUNKS])
def test_listed_docstring_examples_pass(kind, ns):
    import devtrace.api.as_tensorflow

    listed = set(LISTED[kind])
    docs = [d for d in DOCS[kind] if d["ns"] == ns and (kind == "tf" or listed.intersection(d["checks"]))]
    failed, new = [], []
    globs = runner.globals_for(kind)
    try:
        for doc in docs:
            result, steps = runner.run_doc(doc, globs)
            lost = [e for e, ok in result.items() if e in listed and not ok]
            if lost:
                failed.append(f"{' '.join(lost)}{_detail(doc, steps)}")
            new.extend(e for e, ok in result.items() if ok and e not in listed)
    finally:
        devtrace.api.as_tensorflow.uninstall()
    if new:
        warnings.warn(f"{len(new)} docstring examples of {kind}.{ns} pass and are not in "
                      f"{runner.RATCHETS[kind].name} (census.py --write adds them): {' '.join(new)}")
    assert not failed, f"{len(failed)} listed docstrings fail:\n" + "\n".join(failed)


@pytest.mark.parametrize("kind", sorted(DOCS))
def test_the_ratchet_lists_captured_examples_that_tensorflow_passes_once_each(kind):
    known = {e for d in DOCS[kind] for e in d["checks"]}
    listed = LISTED[kind]
    assert len(listed) == len(set(listed)), "an example is listed twice"
    assert listed == sorted(listed)
    assert [e for e in listed if e not in known] == []


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
