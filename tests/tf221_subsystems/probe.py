"""Run under TensorFlow 2.21 (``/work/tfvenv/bin/python probe.py``, with TensorBoard 2.20 on
``PYTHONPATH`` for ``tf.summary``'s op functions): what tf.test, tf.sysconfig, tf.saved_model,
tf.lookup, tf.train and tf.summary answer, written to ``captured.json`` for
``tests/test_tf_subsystems.py``."""

import json
import os
import pathlib
import tempfile

import numpy as np
import tensorflow as tf

import lookup_program
import train_program

HERE = pathlib.Path(__file__).parent
out = {}


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


# tf.test
case = tf.test.TestCase()
out["test"] = {
    "compute_gradient_square": [[a.tolist() for a in part]
                                for part in tf.test.compute_gradient(lambda x: x * x, [1.0])],
    "compute_gradient_mul": [[a.tolist() for a in part] for part in
                             tf.test.compute_gradient(lambda x, y: x * y, [tf.constant([1.0, 2.0]), 3.0])],
    "compute_gradient_not_list": error(lambda: tf.test.compute_gradient(lambda x: x, 1.0)),
    "assert_all_equal": error(lambda: case.assertAllEqual([1, 2], [1, 3])),
    "assert_all_close": error(lambda: case.assertAllClose([1.0, 2.0], [1.0, 3.0])),
    "cpu_targets": {t: tf.test.is_cpu_target_available(t) for t in ("x86", "aarch64", "arm", "powerpc", "s390x")},
    "cpu_target_unknown": error(lambda: tf.test.is_cpu_target_available("riscv")),
    "benchmark_config": str(tf.test.benchmark_config()),
    "evaluate": repr(case.evaluate({"a": tf.constant([1, 2])})),
}
# tf.sysconfig (paths relative to the package directory)
pkg = os.path.dirname(tf.__file__)
sc = tf.sysconfig
out["sysconfig"] = {
    "CXX11_ABI_FLAG": sc.CXX11_ABI_FLAG, "CXX_VERSION": sc.CXX_VERSION, "MONOLITHIC_BUILD": sc.MONOLITHIC_BUILD,
    "get_include": os.path.relpath(sc.get_include(), pkg), "get_lib": os.path.relpath(sc.get_lib(), pkg),
    "get_compile_flags": [f.replace(pkg, "PKG") for f in sc.get_compile_flags()],
    "get_link_flags": [f.replace(pkg, "PKG") for f in sc.get_link_flags()],
    "get_build_info": dict(sc.get_build_info()),
}
# tf.saved_model
sm = tf.saved_model
out["saved_model"] = {
    "constants": {n: getattr(sm, n) for n in dir(sm) if n.isupper()},
    "variable_policies": [[p.name, p.value] for p in sm.experimental.VariablePolicy],
    "bad_policy": error(lambda: sm.SaveOptions(experimental_variable_policy="bad")),
    "read_fingerprint_missing": error(lambda: sm.experimental.read_fingerprint("/nonexistent/model")),
    "contains_missing": sm.contains_saved_model("/nonexistent/model"),
}

# tf.lookup
out["lookup"] = lookup_program.cases(tf, error)
out["train"] = train_program.cases(tf, error, tempfile.mkdtemp())

(HERE / "captured.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
