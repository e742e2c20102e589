"""Run a probe program with ``import tensorflow`` answered by devtrace, as ``devtrace run`` does
(``tests/test_tf221.py``, ``tests/tf221_oracle/cells.py``).

    python tests/tf221/run_devtrace.py programs/NAME.py
"""

import os
import runpy
import sys

from devtrace.api import as_tensorflow

as_tensorflow.install()
path = sys.argv[1]
sys.path[0] = os.path.dirname(os.path.abspath(path))  # as `python path` does
sys.argv = sys.argv[1:]
runpy.run_path(path, run_name="__main__")
