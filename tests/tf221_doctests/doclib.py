"""Running docstring examples the way TensorFlow's doctest runs them (shared by ``capture.py``,
under real TensorFlow, and by ``tests/test_tf221_doctests.py``, under devtrace).

TensorFlow's conventions (``tensorflow/tools/docs/tf_doctest.py`` and ``tf_doctest_lib.py``):
the option flags ELLIPSIS, NORMALIZE_WHITESPACE, IGNORE_EXCEPTION_DETAIL and DONT_ACCEPT_BLANKLINE;
the globals ``tf``, ``np`` and ``os``; ``tf.test.TestCase.setUp`` before each docstring (Python's,
NumPy's and TensorFlow's global seeds set to 87654321, the default graph reset); and an output
checker that

- accepts any output where the docstring shows none;
- replaces ``at 0x…>`` addresses in the expected text by ``...``;
- where the expected text shows ``<tf.Tensor … numpy=V>``, compares only ``V`` (in both texts);
- takes every number out of the expected text (a wildcard in its place, spaces around it dropped),
  matches the rest with doctest's ELLIPSIS, and then compares the numbers with ``np.allclose``
  (rtol = atol = 1e-3), which needs as many numbers in the output as in the expected text (none in
  the expected text: the output's numbers are not compared).

Only the standard library and NumPy are imported here. This is an independent implementation of
those rules, written from their description.
"""

from __future__ import annotations

import doctest
import re
import signal
import sys
import traceback
from dataclasses import dataclass

import numpy as np

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_BLANKLINE
SEED = 87654321  # tensorflow.python.framework.random_seed.DEFAULT_GRAPH_SEED, set by TestCase.setUp

# a number, signed anywhere, else not right after a word character or a dot; not followed by one
_NUMBER = re.compile(r"((?:[-+]|(?:^|(?<=[^\w.])))(?:[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?"
                     r"|[0-9]+[eE][-+]?[0-9]+|[0-9]+(?=j)))j?(?=$|[^\w.])")
_ADDRESS = re.compile(r"\bat 0x[0-9a-f]*?>")
_TENSOR = re.compile(r"<tf.Tensor.*?numpy=(.*?)>", re.DOTALL)


def _numbers(text: str):
    parts = _NUMBER.split(text)
    return parts[0::2], np.array([float(p) for p in parts[1::2]])


class Checker(doctest.OutputChecker):
    """doctest's checker with TensorFlow's number tolerance (module docstring)."""

    def check_output(self, want, got, optionflags):
        if got and not want:
            return True
        want = want or ""
        if want == got:
            return True
        want = _ADDRESS.sub("at ...>", want)
        stripped = _TENSOR.sub(r"\1", want)
        if stripped != want:
            want, got = stripped, _TENSOR.sub(r"\1", got)
        texts, want_numbers = _numbers(want)
        pattern = re.sub(r"\.\.\.\.+", "...", "...".join(t.strip(" ") for t in texts))
        if not super().check_output(pattern, got, optionflags):
            return False
        if want_numbers.size == 0:
            return True
        got_numbers = _numbers(got)[1]
        return got_numbers.size == want_numbers.size and bool(np.allclose(want_numbers, got_numbers, rtol=1e-3, atol=1e-3))


class Timeout(KeyboardInterrupt):
    """A docstring ran past its time (a KeyboardInterrupt, so doctest stops it instead of going on)."""


@dataclass
class Step:
    """One ``>>>`` example's outcome: ``ok``, ``fail`` (wrong output), ``error`` (an exception the
    docstring did not show), ``skip`` (``+SKIP``) or ``timeout``/``not run`` (the docstring stopped)."""
    outcome: str
    got: str = ""


class _Recorder(doctest.DocTestRunner):
    def __init__(self):
        super().__init__(checker=Checker(), verbose=False, optionflags=FLAGS)
        self.steps = {}

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self.steps[id(example)] = Step("ok", _short(got))

    def report_failure(self, out, test, example, got):
        self.steps[id(example)] = Step("fail", _short(got))

    def report_unexpected_exception(self, out, test, example, exc_info):
        self.steps[id(example)] = Step("error", _exception_line(exc_info))


def _exception_line(exc_info) -> str:
    return "".join(traceback.format_exception_only(*exc_info[:2])).strip() + "\n"


def _short(got: str) -> str:
    """Output with a traceback cut to its exception lines (paths and frames vary)."""
    head, sep, tail = got.partition("Traceback (most recent call last):\n")
    if not sep:
        return got
    return head + "".join(line + "\n" for line in tail.splitlines() if line and not line[0].isspace())


def to_examples(records: list) -> list:
    """Examples from their JSON form (``src``, ``want``, ``exc``, ``opts``)."""
    examples = []
    for r in records:
        opts = {getattr(doctest, name): value for name, value in r.get("opts", {}).items()}
        examples.append(doctest.Example(r["src"], r.get("want", ""), r.get("exc"), lineno=r.get("line", 0), options=opts))
    return examples


def from_examples(examples: list) -> list:
    flag_names = {flag: name for name, flag in doctest.OPTIONFLAGS_BY_NAME.items()}
    records = []
    for e in examples:
        r = {"src": e.source}
        if e.want:
            r["want"] = e.want
        if e.exc_msg is not None:
            r["exc"] = e.exc_msg
        if e.options:
            r["opts"] = {flag_names[f]: v for f, v in sorted(e.options.items())}
        records.append(r)
    return records


def run(name: str, examples: list, globs: dict, timeout: float | None) -> list:
    """Run one docstring's examples in ``globs`` (shared between its examples, as doctest does);
    a list of ``Step``, one per example."""
    test = doctest.DocTest(examples, globs, name, None, 0, None)
    recorder = _Recorder()

    def expire(signum, frame):
        raise Timeout(f"{name} ran past {timeout} s")

    if timeout:  # only the main thread can take signals
        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    timed_out = False
    saved = sys.stdout
    try:
        recorder.run(test, clear_globs=False)
    except Timeout:
        timed_out = True
    finally:
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        sys.stdout = saved
    steps, stopped = [], False
    for e in examples:
        step = recorder.steps.get(id(e))
        if step is None:
            skipped = bool(e.options.get(doctest.SKIP))
            step = Step("skip" if skipped else ("timeout" if timed_out and not stopped else "not run"))
            stopped = stopped or step.outcome == "timeout"
        steps.append(step)
    return steps


def checkpoints(examples: list) -> list:
    """Indices of the examples that count (one id each): those that show an output or an error;
    a docstring whose examples show none counts once, at its last example. ``+SKIP`` ones never."""
    live = [i for i, e in enumerate(examples) if not e.options.get(doctest.SKIP)]
    shown = [i for i in live if e_shows(examples[i])]
    return shown or live[-1:]


def e_shows(example) -> bool:
    return bool(example.want.strip()) or example.exc_msg is not None


def passed(steps: list, checkpoint: int) -> bool:
    """A checkpoint passes when its example and every example before it ran as shown (so an output
    that matches after an earlier example broke never counts)."""
    return all(s.outcome in ("ok", "skip") for s in steps[:checkpoint + 1])


# an exception's type as ``traceback`` writes it, qualified by its module (``tensorflow.python.framework.
# errors_impl.InvalidArgumentError``, ``devtrace.errors.InvalidArgumentError``): compared by its own name
_QUALIFIED = re.compile(r"^(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning))(?=:|$)",
                        re.MULTILINE)
# Python's own errors, whatever the library: a docstring that uses a name it never defined, or does not parse
LANGUAGE_ERRORS = ("NameError", "SyntaxError")


def unqualified(text: str) -> str:
    return _QUALIFIED.sub(r"\1", text)


def language_error(record: dict) -> bool:
    """TensorFlow's outcome of this example was Python's own error (``LANGUAGE_ERRORS``): the example
    says nothing of the library, so a checkpoint there does not count as matching TensorFlow."""
    got = record.get("got", "")
    last = [line for line in got.splitlines() if line and not line[0].isspace()][-1:] or [""]
    return record["tf"] == "error" and last[0].split(":")[0] in LANGUAGE_ERRORS


def matches_tensorflow(record: dict, example, step: Step) -> bool:
    """Whether devtrace's ``step`` of ``example`` did what TensorFlow actually did (``record``: its
    capture). Where TensorFlow ran it as shown, devtrace must too; where it printed something else
    (``fail``), devtrace must print that, under the checker's rules (numbers with ``allclose``,
    tensors by their values, a traceback by its exception lines); where it raised (``error``),
    devtrace must raise the same exception type with the same message (the type compared without
    its module, the message under the same rules). A docstring that stopped (``timeout``, ``not
    run``) has nothing to match."""
    tf = record["tf"]
    if tf in ("ok", "skip"):
        return step.outcome in ("ok", "skip")
    flags = FLAGS
    for flag, on in example.options.items():
        flags = flags | flag if on else flags & ~flag
    if tf == "fail":
        if step.outcome not in ("ok", "fail"):
            return False
        want = record.get("got", "")
        if not want:  # TensorFlow printed nothing where the docstring shows something
            return step.got == ""
        return Checker().check_output(unqualified(want), unqualified(step.got), flags)
    if tf == "error":
        return step.outcome == "error" and Checker().check_output(unqualified(record["got"]), unqualified(step.got), flags)
    return False


def bind(globs: dict, names: dict, keras) -> dict:
    """``globs`` with a Keras docstring's module names (``capture._module_names``: ``{name: public
    path}``) bound from ``keras``, the interpreter's own (real Keras under capture, devtrace's under
    the runner); a name that does not resolve stays unbound (a ``NameError`` where it is used)."""
    import importlib

    globs = dict(globs)
    for name, path in names.items():
        try:
            if path == "keras" or path.startswith("keras."):
                value = keras
                for part in path.split(".")[1:]:
                    value = getattr(value, part)
            else:
                value = importlib.import_module(path)
        except Exception:  # noqa: BLE001 (a name this Keras does not have stays unbound)
            continue
        globs[name] = value
    return globs
