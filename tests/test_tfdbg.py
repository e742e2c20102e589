"""tf.debugging's op callbacks against TensorFlow 2.21 (``tests/tf221_subsystems/tfdbg/``, README there):
tfdbg2's dump (``enable_dump_debug_info``) read back as TensorFlow's ``DebugDataReader`` reads it,
and ``enable_check_numerics``' errors."""

import glob
import json
import os

import numpy as np
import pytest

import devtrace as tf
from devtrace.ops.io import wire
from devtrace.ops.io.tfrecord import tf_record_iterator

HERE = os.path.join(os.path.dirname(__file__), "tf221_subsystems", "tfdbg")
MODES = ["NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH", "SHAPE", "FULL_TENSOR"]
NO_TENSOR, FULL_TENSOR = 1, 7  # their TensorDebugMode enums


def _fields(data: bytes) -> dict:
    out: dict = {}
    for field, _, value in wire.fields(data):
        out.setdefault(field, []).append(value)
    return out


def _events(root: str, suffix: str) -> list:
    (path,) = glob.glob(os.path.join(root, f"*.{suffix}"))
    return [_fields(r) for r in tf_record_iterator(path)]


def _text(fields, k):
    return fields[k][0].decode() if k in fields else None


def _array(proto: bytes):
    if not proto:
        return None
    fields = _fields(proto)
    dtype = tf.as_dtype(fields[1][0])
    return tf.io.parse_tensor(tf.constant(proto), dtype).numpy().tolist()


def _read(root: str) -> dict:
    """What TensorFlow's reader (``dbg_read.py``) reports, from the records as they are."""
    graphs, names, ops, devices = {}, {}, [], {}
    for e in _events(root, "graphs"):
        if 8 in e:
            g = _fields(e[8][0])
            graphs[_text(g, 1)] = _text(g, 2)
        elif 12 in e:
            d = _fields(e[12][0])
            devices[d[2][0]] = _text(d, 1)
        elif 7 in e:
            c = _fields(e[7][0])
            names[_text(c, 2)] = _text(c, 1)
            ops.append([_text(c, 1), _text(c, 2), [v.decode() for v in c.get(6, [])], c.get(7, [0])[0],
                        graphs[_text(c, 4)]])
    frames = {_text(_fields(e[6][0]), 1) for e in _events(root, "stack_frames")}
    out = {"executions": [], "graph_traces": [], "graph_ops": ops}
    for e in _events(root, "execution"):
        x = _fields(e[9][0])
        op_type = _text(x, 1)
        item = {"op_type": "__inference" if op_type.startswith("__inference") else op_type,
                "num_outputs": x.get(2, [0])[0], "mode": x[6][0], "graph": graphs.get(_text(x, 3)),
                "devices": [devices[i] for i in wire.unpack_varints(x[9][0])],
                "has_stack": all(f.decode() in frames for f in _fields(x[8][0]).get(2, [])) and 2 in _fields(x[8][0])}
        tensors = [_array(t) for t in x.get(7, [])]
        if x[6][0] == FULL_TENSOR:
            item["tensors"], item["values"] = tensors, []
        else:
            item["values"] = tensors
        out["executions"].append(item)
    for e in _events(root, "graph_execution_traces"):
        t = _fields(e[10][0])
        op_name = _text(t, 2)
        item = {"op_name": op_name, "op_type": names[op_name], "slot": t.get(3, [0])[0],
                "graph": graphs[_text(t, 1)], "device": _text(t, 6)}
        value = _array(t[5][0]) if 5 in t else None
        if t[4][0] == FULL_TENSOR:
            item["tensor"], item["value"] = value, None
        else:
            item["value"] = None if t[4][0] == NO_TENSOR else value
        out["graph_traces"].append(item)
    meta = _fields(_events(root, "metadata")[0][3][0])
    out["run_id"] = bool(_text(meta, 3)) and _text(meta, 2) == "debug.Event:1"
    out["source_files"] = sorted(os.path.basename(_text(_fields(e[4][0]), 1)) for e in _events(root, "source_files")
                                 if _text(_fields(e[4][0]), 1).endswith("dbg_prog.py"))
    return out


@pytest.mark.parametrize("mode", MODES)
def test_the_dump_holds_what_tensorflow_dumps(tmp_path, mode, monkeypatch):
    monkeypatch.setattr("sys.argv", ["dbg_prog.py", str(tmp_path), mode])
    path = os.path.join(HERE, "dbg_prog.py")
    with open(path) as f:
        source = f.read().replace("import tensorflow as tf", "import devtrace as tf")
    exec(compile(source, path, "exec"), {"__name__": "dbg_prog"})
    with open(os.path.join(HERE, f"tf_{mode}.json")) as f:
        want = json.load(f)
    got = json.loads(json.dumps(_read(str(tmp_path))))
    # TensorFlow's function graph ends with the NoOp its automatic control dependencies add; devtrace's has none
    want["graph_ops"] = [op for op in want["graph_ops"] if op[0] != "NoOp"]
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def test_the_debug_modes_tensorflow_does_not_dump_fail_as_tensorflow_does(tmp_path):
    with pytest.raises(NotImplementedError, match=r"^tfdbg dumping: support for tensor debug mode FULL_NUMERICS is "
                                                  r"not implemented yet$"):
        tf.debugging.experimental.enable_dump_debug_info(str(tmp_path), tensor_debug_mode="FULL_NUMERICS")
    with pytest.raises(ValueError) as e:
        tf.debugging.experimental.enable_dump_debug_info(str(tmp_path), tensor_debug_mode="HEALTHY")
    assert str(e.value) == ("Invalid value in tensor_debug_mode ('HEALTHY'). Valid options are: ['UNSPECIFIED', "
                            "'NO_TENSOR', 'CURT_HEALTH', 'CONCISE_HEALTH', 'FULL_HEALTH', 'SHAPE', 'FULL_NUMERICS', "
                            "'FULL_TENSOR', 'REDUCE_INF_NAN_THREE_SLOTS']")
    tf.debugging.experimental.disable_dump_debug_info()  # off already: nothing to do


def test_check_numerics_raises_tensorflows_error_for_an_eager_op():
    with open(os.path.join(HERE, "check_numerics.json")) as f:
        want = json.load(f)
    tf.debugging.enable_check_numerics()
    try:
        x = tf.constant([1.0, 0.0])
        got = {}
        for key, f in (("log", lambda: tf.math.log(x)), ("div", lambda: 1.0 / x),
                       ("nan", lambda: tf.sqrt(tf.constant([-1.0, float("inf")])))):
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                f()
            got[key] = [type(e.value).__name__, str(e.value)]
        got["int_ok"] = str(tf.constant([1, 0]) // tf.constant([1, 1]))
    finally:
        tf.debugging.disable_check_numerics()
    got["after_disable"] = str(tf.math.log(x))
    assert got == want


def test_check_numerics_in_a_function_names_the_graph_op():
    @tf.function
    def f(a):
        return tf.math.log(a * 2.0)

    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            f(tf.constant([1.0, 0.0]))
    finally:
        tf.debugging.disable_check_numerics()
    text = str(e.value)
    assert text.startswith('\n\n!!! Detected Infinity or NaN in output 0 of graph op "Log" (# of outputs: 1) !!!\n'
                           "  dtype: <dtype: 'float32'>\n  shape: (2,)\n\n"
                           '  Input tensor: Tensor("mul:0", shape=(2,), dtype=float32)\n  Graph name: "f"\n')
    assert text.endswith(" : Tensor had -Inf values\n\t [[{{node Log/CheckNumericsV2}}]]")
    assert np.isinf(f(tf.constant([0.0])).numpy()).all()  # off again
