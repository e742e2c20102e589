"""Run a probe program with ``import tensorflow`` answered by devtrace (``tests/test_tf221.py``).

    python tests/tf221/run_devtrace.py programs/NAME.py
"""

import runpy
import sys

import devtrace

sys.modules["tensorflow"] = devtrace
path = sys.argv[1]
sys.argv = sys.argv[1:]
runpy.run_path(path, run_name="__main__")
