"""The checked-in completion scripts are what the app generates now, and they complete."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT
from devtrace.cli import completions


@pytest.mark.parametrize("shell", sorted(completions.FILES))
def test_checked_in_completions_are_fresh(shell):
    path = os.path.join(ROOT, "completions", completions.FILES[shell])
    with open(path, encoding="utf-8") as f:
        checked_in = f.read()
    assert checked_in == completions.generate(shell), (
        f"{path} is stale: run `python -m devtrace.cli.completions`")


def test_bash_completion_offers_commands_and_options():
    env = dict(os.environ, _DEVTRACE_COMPLETE="complete_bash", COMP_WORDS="devtrace li", COMP_CWORD="1")
    done = subprocess.run([sys.executable, "-m", "devtrace"], env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.split() == ["list"]
    env.update(COMP_WORDS="devtrace run --log", COMP_CWORD="2")
    done = subprocess.run([sys.executable, "-m", "devtrace"], env=env, capture_output=True, text=True, cwd=ROOT)
    assert set(done.stdout.split()) >= {"--log-placement", "--log-to"}
