"""Generate the checked-in shell completion scripts: ``python -m devtrace.cli.completions``.

typer writes them for ``_DEVTRACE_COMPLETE=source_<shell> devtrace``; the scripts call back
into devtrace for the candidates, so they stay valid as long as the program name and the
completion protocol do. ``tests/test_completions.py`` fails when the files are stale.
"""

from __future__ import annotations

import os
import subprocess
import sys

FILES = {"bash": "devtrace.bash", "zsh": "_devtrace", "fish": "devtrace.fish"}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def generate(shell: str) -> str:
    env = dict(os.environ, _DEVTRACE_COMPLETE=f"source_{shell}", _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    done = subprocess.run([sys.executable, "-m", "devtrace"], env=env, capture_output=True, text=True, check=True)
    return done.stdout


def main() -> None:
    for shell, name in FILES.items():
        path = os.path.join(ROOT, "completions", name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(generate(shell))
        print(f"wrote {os.path.relpath(path)}")


if __name__ == "__main__":
    main()
