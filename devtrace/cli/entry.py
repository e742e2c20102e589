"""The ``devtrace`` command's entry point: imports the app (typer: most of the start-up time) with
the signal handlers already in place, so that a signal during start-up ends it as one anywhere
else does (130, 143, no traceback)."""

import sys


def main() -> None:
    from ..util import interrupts

    interrupts.install_cli()
    try:
        interrupts.release_startup()  # held since the package's start-up (devtrace/__init__.py)
        from .app import main as app_main
    except interrupts.SIGNALLED as e:
        sys.exit(interrupts.status_of(e))
    app_main()
