"""Samples: strings, printing, Python functions, variables, functions and their control flow and
TensorLists, TensorFlow 1 graphs (constants, placeholders, ref variables), sparse tensors."""

import os
import sys
import tempfile
import zlib

import numpy as np

import devtrace as tf
from devtrace.runtime.graph import resource_variables

from . import Sample
from .math import X, t

W = np.array(["  Ab ", "c.d"], object)
_TMP = tempfile.mkdtemp(prefix="devtrace-io-samples-")


def _write(name):
    with open(os.path.join(_TMP, name), "w") as f:
        f.write("asdf")


def _bytes(*values):
    return np.array([v.encode() for v in values], object)


STRINGS = [
    Sample("AsString", lambda: tf.strings.as_string(t([1, 22])), _bytes("1", "22"), "CPU"),
    Sample("StringLength", lambda: tf.strings.length(t(W)), np.array([5, 3], np.int32), "CPU"),
    Sample("StringUpper", lambda: tf.strings.upper(t(W)), _bytes("  AB ", "C.D"), "CPU"),
    Sample("StringLower", lambda: tf.strings.lower(t(W)), _bytes("  ab ", "c.d"), "CPU"),
    Sample("StringStrip", lambda: tf.strings.strip(t(W)), _bytes("Ab", "c.d"), "CPU"),
    Sample("Substr", lambda: tf.strings.substr(t(W), 1, 2), _bytes(" A", ".d"), "CPU"),
    Sample("StaticRegexReplace", lambda: tf.strings.regex_replace(t(W), r"\.", "!"), _bytes("  Ab ", "c!d"), "CPU"),
    Sample("StaticRegexFullMatch", lambda: tf.strings.regex_full_match(t(W), r"c.*"), np.array([False, True]), "CPU"),
    Sample("StringToNumber", lambda: tf.strings.to_number(t(["1.5", "-2"])), np.array([1.5, -2], np.float32), "CPU"),
    Sample("StringJoin", lambda: tf.strings.join([t(W), t(W)], separator="+"), _bytes("  Ab +  Ab ", "c.d+c.d"), "CPU"),
    Sample("ReduceJoin", lambda: tf.strings.reduce_join(t(W), separator="|"), np.array(b"  Ab |c.d", object), "CPU"),
    Sample("StringToHashBucketFast", lambda: tf.strings.to_hash_bucket_fast(t(["hello", "world"]), 10),
           np.array([6, 8], np.int64), "CPU"),
    Sample("DecodeRaw", lambda: tf.io.decode_raw(t([b"\x01\x00\x02\x01"]), tf.int16), np.array([[1, 258]], np.int16),
           "CPU"),
    Sample("EncodeBase64", lambda: tf.io.encode_base64(t([b"hi?"])), _bytes("aGk_"), "CPU"),
    Sample("DecodeBase64", lambda: tf.io.decode_base64(t([b"aGk_"])), _bytes("hi?"), "CPU"),
    Sample("DecodeCSV", lambda: tf.io.decode_csv(t([b"1,2.5", b"3,"]), [[0], [0.0]]),
           [np.array([1, 3], np.int32), np.array([2.5, 0.0], np.float32)], "CPU"),
    Sample("DecodeCompressed", lambda: tf.io.decode_compressed(t([zlib.compress(b"hi")]), "ZLIB"), _bytes("hi"),
           "CPU"),
    Sample("DecodePaddedRaw", lambda: tf.io.decode_raw(t([b"1", b"23"]), tf.uint8, fixed_length=2),
           np.array([[49, 0], [50, 51]], np.uint8), "CPU"),
    Sample("SerializeTensor", lambda: tf.io.serialize_tensor(t(np.float32(1.5))),
           np.array(bytes.fromhex("0801120022040000c03f"), object), "CPU"),
    Sample("ParseTensor", lambda: tf.io.parse_tensor(t(bytes.fromhex("0801120022040000c03f")), tf.float32),
           np.float32(1.5), "CPU"),
    Sample("WriteFile", lambda: tf.io.write_file(_TMP + "/w.txt", "asdf"), lambda value: value is None, "CPU"),
    Sample("ReadFile", lambda: (_write("r.txt"), tf.io.read_file(_TMP + "/r.txt"))[1], np.array(b"asdf", object),
           "CPU"),
    Sample("MatchingFiles", lambda: (_write("m.txt"), tf.io.matching_files(_TMP + "/m.*"))[1],
           np.array([(_TMP + "/m.txt").encode()], object), "CPU"),
    Sample("ParseExampleV2", lambda: tf.io.parse_single_example(tf.train.Example(features=tf.train.Features(feature={
        "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))})).SerializeToString(),
        {"k": tf.io.FixedLenFeature([], tf.int64)})["k"], np.int64(7), "CPU"),
    Sample("DecodeProtoV2", lambda: tf.io.decode_proto(
        t(np.array([b"\x15\x00\x00\x20\x40"], object)), "tensorflow.Summary.Value", ["simple_value"],
        [tf.float32])[1][0],
           np.array([[2.5]], np.float32), "CPU"),
    Sample("EncodeProto", lambda: tf.io.encode_proto(t(np.array([[1]], np.int32)), [t(np.array([[2.5]], np.float32))],
                                                     ["simple_value"], "tensorflow.Summary.Value"),
           np.array([b"\x15\x00\x00\x20\x40"], object), "CPU"),
    Sample("DecodeJSONExample", lambda: tf.io.decode_json_example(t(np.array(
        b'{"features": {"feature": {"a": {"bytesList": {"value": ["eA=="]}}}}}', object))),
        np.array(b"\n\x0c\n\n\n\x01a\x12\x05\n\x03\n\x01x", object), "CPU"),
    Sample("ParseSequenceExampleV2", lambda: tf.io.parse_single_sequence_example(
        tf.train.SequenceExample(context=tf.train.Features(feature={
            "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))})).SerializeToString(),
        {"k": tf.io.FixedLenFeature([], tf.int64)})[0]["k"], np.int64(7), "CPU"),
    Sample("StringFormat", lambda: tf.strings.format("x={}", [t(X[0])]), np.array(b"x=[1 -2 3]", object), "CPU"),
    Sample("PrintV2", lambda: tf.print(t(X[0]), output_stream=sys.stdout), lambda value: value is None, "CPU"),
    Sample("EagerPyFunc", lambda: tf.py_function(lambda x: x * 2, [t(X)], tf.float32), X * 2),
]


def _raw_variable():
    """A variable from tf.raw_ops (as TrackableResource subclasses make theirs): read, then destroyed."""
    handle = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=list(X.shape))
    tf.raw_ops.AssignVariableOp(resource=handle, value=tf.constant(X))
    out = tf.raw_ops.ReadVariableOp(resource=handle, dtype=tf.float32)
    tf.raw_ops.DestroyResourceOp(resource=handle)
    return out


def _variable(fn, value=X, device=None):
    """``fn(v)`` on a new variable holding ``value`` (made on ``device``, default: the scope's)."""
    def call():
        if device is None:
            return fn(tf.Variable(value))
        with tf.device(device):
            v = tf.Variable(value)
        return fn(v)
    return call


def _tf1(build):
    """``build()``'s fetches run in a TensorFlow 1 graph session: ``build`` returns (fetches, feed_dict)."""
    g = tf.Graph()
    with g.as_default():
        fetches, feed = build()
        init = tf.compat.v1.global_variables_initializer()
    with tf.compat.v1.Session(graph=g) as session:
        session.run(init)
        return session.run(fetches, feed)


def _ref(value=X):
    """A TensorFlow 1 ref variable (``VariableV2``); the process's choice (its default, unset) is kept."""
    saved = resource_variables._state["enabled"]
    tf.compat.v1.disable_resource_variables()
    try:
        return tf.compat.v1.Variable(value)
    finally:
        resource_variables._state["enabled"] = saved


def _ref_variable():
    v = _ref()
    return v.assign(v * 2.0), None


def _ref_update(method):
    return lambda: (getattr(_ref(), method)(X), None)


def _scattered(kind):
    """A variable's value after ``scatter_<kind>`` of ``[2, 2, 2]`` at row 1 (``ResourceScatter*``)."""
    def fn(v):
        getattr(v, f"scatter_{kind}")(tf.IndexedSlices(tf.constant([[2.0, 2.0, 2.0]]), tf.constant([1])))
        return v.value()
    return fn


def _row1(fn):
    out = X.copy()
    out[1] = fn(X[1], np.float32(2))
    return out


def _placeholder():
    p = tf.compat.v1.placeholder(tf.float32, [2, 3])
    return p * 2.0, {p: X}


def _initialized():
    v = tf.compat.v1.Variable(X)
    return tf.compat.v1.is_variable_initialized(v), None


STATE = [
    Sample("VarHandleOp", _variable(lambda v: v.read_value()), X),
    Sample("ReadVariableOp", _variable(lambda v: v + 1.0), X + 1),
    Sample("AssignVariableOp", _variable(lambda v: v.assign(X * 3).read_value()), X * 3),
    Sample("DestroyResourceOp", _raw_variable, X),
    Sample("AssignAddVariableOp", _variable(lambda v: v.assign_add(X).read_value()), X * 2),
    Sample("AssignSubVariableOp", _variable(lambda v: v.assign_sub(X).read_value()), X * 0),
    Sample("ResourceCountUpTo", _variable(lambda v: v.count_up_to(3), 1, "/CPU:0"), np.int32(1), "CPU"),
    Sample("Const", lambda: tf.function(lambda: tf.constant(X) * 2.0)(), X * 2),
    Sample("Placeholder", lambda: _tf1(_placeholder), X * 2),
    Sample("VariableV2", lambda: _tf1(_ref_variable), X * 2),
    Sample("Assign", lambda: _tf1(_ref_variable), X * 2),
    Sample("VarIsInitializedOp", lambda: _tf1(_initialized), np.bool_(True)),
    Sample("IsVariableInitialized", lambda: _tf1(lambda: (tf.compat.v1.is_variable_initialized(_ref()), None)),
           np.bool_(True)),
    Sample("AssignAdd", lambda: _tf1(_ref_update("assign_add")), X * 2),
    Sample("AssignSub", lambda: _tf1(_ref_update("assign_sub")), X * 0),
    Sample("PlaceholderWithDefault",
           lambda: _tf1(lambda: (tf.compat.v1.placeholder_with_default(tf.constant(X), [2, 3]) * 2.0, None)), X * 2),
    Sample("Rank", lambda: _tf1(lambda: (tf.compat.v1.assert_variables_initialized([tf.compat.v1.Variable(X)]), None)),
           np.int32(2)),
    Sample("ResourceScatterUpdate", _variable(_scattered("update")), _row1(lambda row, u: u)),
    Sample("ResourceScatterAdd", _variable(_scattered("add")), _row1(np.add)),
    Sample("ResourceScatterSub", _variable(_scattered("sub")), _row1(np.subtract)),
    Sample("ResourceScatterMul", _variable(_scattered("mul")), _row1(np.multiply)),
    Sample("ResourceScatterDiv", _variable(_scattered("div")), _row1(np.divide)),
    Sample("ResourceScatterMax", _variable(_scattered("max")), _row1(np.maximum)),
    Sample("ResourceScatterMin", _variable(_scattered("min")), _row1(np.minimum)),
    Sample("NoOp", lambda: _tf1(lambda: (tf.compat.v1.group(tf.constant(X) * 2.0), None)), lambda value: value is None),
]


def _function(fn, *args):
    return lambda: tf.function(fn)(*[t(a) for a in args])


def _tensor_array(x):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, x[0]).write(1, x[1] * 2.0)
    return ta.stack(), ta.read(1), ta.size()


def _unstack(x):
    return tf.TensorArray(tf.float32, size=2).unstack(x).read(1)


def _loop(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0), [tf.constant(0), x])[1]


def _loop_with_print(x):
    def body(i, y):
        tf.print(i, output_stream=sys.stdout)
        return i + 1, y * 2.0
    return tf.while_loop(lambda i, y: i < 3, body, [tf.constant(0), x])[1]


def _cond(x, stateful=False):
    def double():
        if stateful:
            tf.print("double", output_stream=sys.stdout)
        return x * 2.0
    return tf.cond(tf.reduce_sum(x) > 0, double, lambda: x)


def _call(stateful):
    """A tf.function called in another's trace: a call node (a stateful one when it prints)."""
    def scale(x):
        if stateful:
            tf.print("scale", output_stream=sys.stdout)
        return x * 2.0
    inner = tf.function(scale)
    return tf.function(lambda x: inner(x) + 1.0)(t(X))


def _case(x, stateful=False):
    def triple():
        if stateful:
            tf.print("triple", output_stream=sys.stdout)
        return x * 3.0
    return tf.switch_case(tf.constant(1), [lambda: x, triple, lambda: x * 2.0])


def _cond_gradient(x, wrapped_in_taken=True):
    """The gradient of a cond in the function: the branch with an intermediate (sin(x)) outputs it as an
    OptionalFromValue, the other an OptionalNone; the gradient branch of the first reads it (OptionalGetValue)."""
    with_sin, without = (lambda: tf.sin(x) * x), (lambda: x * 2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cond(tf.reduce_sum(x) > 0, *((with_sin, without) if wrapped_in_taken else (without, with_sin)))
    return tape.gradient(y, x)


def _loop_gradient(x):
    """The gradient of a loop in the function: the forward body pushes sin(y) onto an accumulator made
    by EmptyTensorList each iteration, the gradient's body pops it (TensorListPopBack)."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.sin(y) * 2.0), [0, x])[1]
    return tape.gradient(y, x)


def _loop_gradient_value(x):
    s1 = np.sin(x) * 2.0
    return np.cos(s1) * 2.0 * np.cos(x) * 2.0


def _loop_variable_gradient(v):
    """A loop reading variable v: its gradient starts from zeros of the shape VariableShape reports."""
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * v), [0, x])[1]
        return tape.gradient(y, v)
    return f(t(X[1:]))


def _unknown_batch_gradient(x):
    """A product of two [None, 3] tensors in a function: which axes its gradient reduces is known only
    when the function runs (BroadcastGradientArgs of the inputs' Shapes)."""
    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * (x + 1.0)
        return tape.gradient(y, x)
    return f(t(x))


_STACKED = np.stack([X[0], X[1] * 2])
_SIN_X_GRAD = np.cos(X[1:]) * X[1:] + np.sin(X[1:])

FUNCTIONS = [
    Sample("TensorListReserve", _function(_tensor_array, X), [_STACKED, X[1] * 2, np.int32(2)]),
    Sample("TensorListSetItem", _function(_tensor_array, X), [_STACKED, X[1] * 2, np.int32(2)]),
    Sample("TensorListGetItem", _function(_tensor_array, X), [_STACKED, X[1] * 2, np.int32(2)]),
    Sample("TensorListStack", _function(_tensor_array, X), [_STACKED, X[1] * 2, np.int32(2)]),
    Sample("TensorListLength", _function(_tensor_array, X), [_STACKED, X[1] * 2, np.int32(2)]),
    Sample("TensorListFromTensor", _function(_unstack, X), X[1]),
    Sample("StatelessWhile", _function(_loop, X), X * 8),
    Sample("While", _function(_loop_with_print, X), X * 8),
    Sample("StatelessIf", _function(_cond, X[1:]), X[1:] * 2),
    Sample("PartitionedCall", lambda: _call(False), X * 2 + 1),
    Sample("StatefulPartitionedCall", lambda: _call(True), X * 2 + 1),
    Sample("If", _function(lambda x: _cond(x, True), X[1:]), X[1:] * 2),
    Sample("StatelessCase", _function(_case, X[1:]), X[1:] * 3),
    Sample("Case", _function(lambda x: _case(x, True), X[1:]), X[1:] * 3),
    Sample("OptionalFromValue", _function(_cond_gradient, X[1:]), _SIN_X_GRAD),
    Sample("OptionalGetValue", _function(_cond_gradient, X[1:]), _SIN_X_GRAD),
    Sample("OptionalNone", _function(lambda x: _cond_gradient(x, False), X[1:]), np.full_like(X[1:], 2.0)),
    Sample("EmptyTensorList", _function(_loop_gradient, X[1:]), _loop_gradient_value(X[1:])),
    Sample("TensorListPushBack", _function(_loop_gradient, X[1:]), _loop_gradient_value(X[1:])),
    Sample("TensorListPopBack", _function(_loop_gradient, X[1:]), _loop_gradient_value(X[1:])),
    Sample("BroadcastGradientArgs", lambda: _unknown_batch_gradient(X), 2 * X + 1),
    Sample("VariableShape", _variable(_loop_variable_gradient, np.float32(1.5)), np.sum(2 * X[1:] * 1.5)),
    Sample("SparseToDense", lambda: tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 1], [1, 0]], [5.0, 6.0], [2, 2])),
           np.array([[0, 5], [6, 0]], np.float32)),
]

# strings and ragged ops of tf.strings/tf.ragged's breadth (CPU-only in TensorFlow 2.21)
BREADTH = [
    Sample("StringNGrams", lambda: tf.strings.ngrams(t(np.array([b"a", b"b", b"c"], object)), 2), _bytes("a b", "b c"),
           "CPU"),
    Sample("UnicodeTranscode", lambda: tf.strings.unicode_transcode(t(_bytes("ab")), "UTF-8", "UTF-16-BE"),
           np.array([b"\x00a\x00b"], object), "CPU"),
    Sample("UnsortedSegmentJoin", lambda: tf.strings.unsorted_segment_join(t(_bytes("a", "b", "c")), t([0, 1, 0]), 2),
           _bytes("ac", "b"), "CPU"),
    Sample("RaggedRange", lambda: tf.ragged.range(t([0, 2]), t([3, 5])).flat_values,
           np.array([0, 1, 2, 2, 3, 4], np.int32), "CPU"),
]

SAMPLES = STRINGS + STATE + FUNCTIONS + BREADTH
