"""tf.nn.ctc_beam_search_decoder (issue 28): TensorFlow 2.21's CTCBeamSearchDecoder — paths, their
sparse layout and scores for random logits of several shapes, beam widths and numbers of paths, and
its error for more paths than the beam holds, as tensorflow-cpu 2.21 printed them for the same program
(tests/tf221_nn/beam_search_program.py; its output in beam_search_tf.txt, one JSON value a line)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent / "tf221_nn"
ROOT = HERE.parents[1]


def _numbers(value):
    return [v for item in value for v in (_numbers(item) if isinstance(item, list) else [item])]


def test_paths_and_scores_are_tensorflows():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "tf221" / "run_devtrace.py"),
                           str(HERE / "beam_search_program.py")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    want = (HERE / "beam_search_tf.txt").read_text().splitlines()
    got = done.stdout.splitlines()
    assert len(got) == len(want) == 7
    assert got[-1] == want[-1]  # the error, word for word
    for g, w in zip(got[:-1], want[:-1]):
        g, w = json.loads(g), json.loads(w)
        assert g[:-1] == w[:-1]  # the paths: indices, values, dense shapes
        np.testing.assert_allclose(_numbers(g[-1]), _numbers(w[-1]), rtol=1e-6, atol=1e-6)  # the scores (float32 rounding)
