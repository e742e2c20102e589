"""Ctrl-C inside a callback whose exceptions Python only prints ("Exception ignored in …") is sent
again a moment later instead of raised, so it is never lost: a ``__del__``, import's module-lock
weakref callback (every import ends with one: a Ctrl-C during a program's imports once landed there
and the run went on to exit 0), a ``weakref.finalize``. In-process: the handler is called with the
callback's frame, as Python calls it. And a Ctrl-C that left an ``exec`` of a string (a dataclass being
made) still ends ``python -m devtrace run`` with 130, not by SIGINT (-2: the rare flake of the signal
storm in test_hostile_round2)."""

import sys
import weakref

import pytest

from conftest import devtrace
from devtrace.util import interrupts


class Interrupt(Exception):
    """What the handler raises here (a real KeyboardInterrupt would stop pytest itself)."""


@pytest.fixture
def resent(monkeypatch):
    """The signals the handler would send again (its timer is not started)."""
    sent = []

    class Timer:
        def __init__(self, interval, fn, args):
            self.args = args

        def start(self):
            sent.append(self.args[1])

    monkeypatch.setattr(interrupts.threading, "Timer", Timer)
    monkeypatch.setattr(interrupts, "pending", None)
    return sent


def _signal_in(code_name, filename):
    """The handler called from a function named ``code_name`` compiled from ``filename``."""
    namespace = {"handler": interrupts.raising(Interrupt), "sys": sys}
    exec(compile(f"def {code_name}():\n    handler(2, sys._getframe())\n", filename, "exec"), namespace)
    namespace[code_name]()


def test_a_signal_in_imports_module_lock_callback_is_sent_again(resent):
    _signal_in("cb", "<frozen importlib._bootstrap>")
    assert resent == [2] and interrupts.pending == 2


def test_a_signal_in_a_weakref_finalize_callback_is_sent_again(resent):
    class Owner:
        pass

    owner = Owner()
    weakref.finalize(owner, lambda: interrupts.raising(Interrupt)(2, sys._getframe()))
    del owner
    assert resent == [2] and interrupts.pending == 2


def test_a_signal_in_a_del_is_sent_again(resent):
    _signal_in("__del__", __file__)
    assert resent == [2]


def test_a_signal_anywhere_else_raises_at_once(resent):
    with pytest.raises(Interrupt):
        _signal_in("cb", __file__)  # a function named cb that is not import's
    with pytest.raises(Interrupt):
        _signal_in("work", "<frozen importlib._bootstrap>")
    assert resent == [] and interrupts.pending is None


def test_a_keyboard_interrupt_out_of_an_exec_of_a_string_still_exits_130(tmp_path):
    program = tmp_path / "p.py"
    program.write_text('exec("raise KeyboardInterrupt")\n')  # as Ctrl-C inside a dataclass's generated code
    r = devtrace("run", str(program))
    assert r.returncode == 130 and "Traceback" not in r.stderr, (r.returncode, r.stderr)
