"""AutoGraph's common cases and what stays Python (values against TensorFlow 2.21 are in
tests/tf221/programs/function_control_flow.py); the If/While nodes a tf.function holds."""

import numpy as np
import pytest

import devtrace as tf


def test_tensor_conditions_become_nodes_python_conditions_stay_python():
    @tf.function
    def f(x, flag):
        if flag:
            x = x + 1.0
        if x > 2.0:
            x = x * 3.0
        return x

    graph = f.get_concrete_function(tf.constant(2.0), True).graph
    kinds = [op.type for op in graph.get_operations()]
    assert kinds.count("StatelessIf") == 1 and "AddV2" in kinds  # the Python `if flag` ran while tracing
    assert float(f(tf.constant(2.0), True)) == 9.0 and float(f(tf.constant(0.5), False)) == 0.5


def test_a_stateful_branch_makes_an_if_and_a_loop_a_while():
    v = tf.Variable(0.0)

    @tf.function
    def f(n):
        i = tf.constant(0)
        while i < n:
            v.assign_add(1.0)
            i += 1
        return i

    assert int(f(tf.constant(4))) == 4 and float(v.numpy()) == 4.0
    assert "While" in [op.type for op in f.get_concrete_function(tf.constant(4)).graph.get_operations()]


def test_a_return_inside_a_tensor_if_becomes_a_cond_and_called_functions_are_converted():
    def helper(x):
        if x > 0:
            return x
        return -x

    @tf.function
    def f(x):
        return helper(x) * 2.0

    assert f(tf.constant(-3.0)).numpy() == 6.0 and f(tf.constant(2.0)).numpy() == 4.0
    assert "StatelessIf" in [op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()]


def test_an_error_while_tracing_reads_in_user_code_as_tensorflows():
    @tf.function
    def f(x):
        return bool(x > 0)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
        f(tf.constant(1.0))
    lines = str(info.value).splitlines()
    assert lines[:3] == ["in user code:", "", f'    File "{__file__}", line {f.python_function.__code__.co_firstlineno + 2}, '
                                               f'in f  *']
    assert lines[3:6] == ["        return bool(x > 0)", "", "    OperatorNotAllowedInGraphError: Using a symbolic "
                          "`tf.Tensor` as a Python `bool` is not allowed. You can attempt the following resolutions to "
                          "the problem: If you are running in Graph mode, use Eager execution mode or decorate this "
                          "function with @tf.function. If you are using AutoGraph, you can try decorating this function "
                          "with @tf.function. If that does not work, then you may be using an unsupported feature or "
                          "your source code may not be visible to AutoGraph. See https://github.com/tensorflow/"
                          "tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
                          "#access-to-source-code for more information."]


def test_to_code_shows_the_conversion_and_autograph_false_turns_it_off():
    def f(x):
        while x > 1.0:
            x = x / 2.0
        return x

    assert "while_stmt" in tf.autograph.to_code(f)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(f, autograph=False)(tf.constant(8.0))
    assert float(tf.function(f)(tf.constant(8.0))) == 1.0


def test_branches_must_agree_on_what_they_return():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.constant(1))

    with pytest.raises(TypeError, match="must have the same number, type, and overall structure"):
        f(tf.constant(1.0))


def test_a_gradient_through_a_while_node_runs_the_iterations_backwards():
    w = tf.Variable(2.0)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.while_loop(lambda v: v < 100.0, lambda v: v * w, [x])[0]
        return t.gradient(y, [x, w])

    dx, dw = step(tf.constant(3.0))  # y = x * w**6: TensorFlow 2.21 gives 64 and 576
    assert (dx.numpy(), dw.numpy()) == (64.0, 576.0)
    ops = step.get_concrete_function(tf.constant(3.0)).graph.get_operations()
    # the forward loop (it reads a variable) and the backward one (it does not), as TensorFlow 2.21 names them
    assert [(op.type, op.name) for op in ops if "While" in op.type] == [
        ("While", "while"), ("StatelessWhile", "gradient_tape/while/while_grad")]


def test_a_gradient_through_a_cond_node_reads_the_forward_branch_through_optionals():
    w = tf.Variable(2.0)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.cond(x > 0, lambda: tf.sin(x) * w, lambda: x * x)
        return t.gradient(y, [x, w])

    dx, dw = step(tf.constant(1.5))  # TensorFlow 2.21: 0.1414744 and 0.997495
    assert np.allclose([dx.numpy(), dw.numpy()], [0.1414744, 0.997495])
    ops = step.get_concrete_function(tf.constant(1.5)).graph.get_operations()
    # as TensorFlow 2.21 builds it: the forward If outputs its value and two optionals (sin(x), w's read)
    assert [(op.type, op.name) for op in ops if "If" in op.type] == [
        ("If", "cond"), ("StatelessIf", "gradient_tape/cond/StatelessIf")]
    assert len(next(op for op in ops if op.name == "cond").outputs) == 3
