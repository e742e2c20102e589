"""Static shapes in a graph with ``None`` dimensions, against TensorFlow 2.21's (captured by the
scripts in ``tests/tf221_shapes/``, README there): ``StridedSlice``'s shape function over random
specs, the shapes of small programs traced from an ``input_signature`` (slices, reshapes of
``tf.shape`` chains folded as TensorFlow's shape inference folds them, concat, pack, tile, pad, gather,
matmul, convolutions …), and the nodes and values of a slice's gradient and of slices with tensor
indices."""

import json
import os

import numpy as np
import pytest

import devtrace as tf
from devtrace.errors import InvalidArgumentError
from devtrace.ops import shapes
from devtrace.runtime import dtypes

from tf221_shapes.cases import cases, dynamic_programs, run, slice_programs

HERE = os.path.join(os.path.dirname(__file__), "tf221_shapes")


def _load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


SLICES = _load("strided_slice.json")
GRAPH_SHAPES = _load("graph_shapes.json")
SLICE_GRADS = _load("slice_grads.json")
DYNAMIC = _load("dynamic_args.json")
_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _slice_shape(case):
    attrs = {k: case[k] for k in _MASKS}
    attrs.update(begin=tuple(case["begin"]), end=tuple(case["end"]), strides=tuple(case["strides"]))
    try:
        out = shapes.strided_slice("strided_slice", [tuple(case["shape"])], attrs, dtypes.float32)[1]
    except ValueError as e:
        return "error: " + str(e).split(" for '")[0]
    return None if out is None else list(out)


def test_strided_slice_shapes_match_tensorflow_over_random_specs():
    wrong = [(c, _slice_shape(c)) for c in SLICES if _slice_shape(c) != c["out"]]
    assert wrong == [] and len(SLICES) == 400


def test_a_strided_slice_shape_error_names_the_node_and_the_input_shapes():
    attrs = dict(dict.fromkeys(_MASKS, 0), begin=(0, 10), end=(0, 11), strides=(1, 1), begin_mask=1, end_mask=1,
                 shrink_axis_mask=2)
    with pytest.raises(ValueError) as e:
        shapes.strided_slice("strided_slice", [(None, 8)], attrs, dtypes.float32)
    assert str(e.value) == ("slice index 10 of dimension 1 out of bounds. for '{{node strided_slice}}' with input "
                            "shapes: [?,8], [2], [2], [2].")


@pytest.mark.parametrize("name", sorted(GRAPH_SHAPES))
def test_graph_shapes_match_tensorflow(name):
    sig, fn = cases(tf)[name]
    got = run(tf, sig, fn, autograph=False)
    want = GRAPH_SHAPES[name]
    if isinstance(want, str):  # devtrace's graph errors end at the input shapes (no node attrs)
        assert isinstance(got, str) and got.startswith(want), got
    else:
        assert got == want


def _nodes(graph):
    return [[op.name, op.type, [i.name for i in op.inputs],
             [None if o.shape.rank is None else o.shape.as_list() for o in op.outputs]] for op in graph.get_operations()]


@pytest.mark.parametrize("name", sorted(SLICE_GRADS))
def test_slice_and_gradient_nodes_and_values_match_tensorflow(name):
    sig, fn, args = slice_programs(tf)[name]
    f = tf.function(fn, input_signature=sig, autograph=False)
    assert _nodes(f.get_concrete_function().graph) == SLICE_GRADS[name]["nodes"]
    np.testing.assert_array_equal(f(*args).numpy(), np.array(SLICE_GRADS[name]["value"], np.float32))


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_an_argument_computed_in_the_graph_is_the_nodes_input(name):
    sig, fn, args = dynamic_programs(tf)[name]
    f = tf.function(fn, input_signature=sig, autograph=False)
    graph = f.get_concrete_function().graph
    shape = f.get_concrete_function().structured_outputs.shape
    assert (None if shape.rank is None else shape.as_list()) == DYNAMIC[name]["shape"]
    if name != "repeat":  # devtrace's repeat composite is not TensorFlow's node for node (its scope, its Cast)
        assert [[op.name, op.type, [i.name for i in op.inputs]] for op in graph.get_operations()] == \
            DYNAMIC[name]["nodes"]
    np.testing.assert_array_equal(f(*args).numpy(), np.array(DYNAMIC[name]["value"]))


def test_a_zero_stride_fails_as_tensorflows_kernel_names_the_dimension():
    with pytest.raises(InvalidArgumentError, match=r"strides\[1\] must be non-zero \[Op:StridedSlice\] "
                                                   r"name: strided_slice/$"):
        tf.ones([2, 8])[:, ::0]
