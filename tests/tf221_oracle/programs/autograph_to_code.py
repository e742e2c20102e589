# Issue 11 (AutoGraph): `tf.autograph.to_code` of the cases TensorFlow's AutoGraph guides show (if/else, if without else, for over tf.range / a Python list / a tensor, while, break, continue, return inside if and loops, nested calls and functions, and/or/not, comparison chains, conditional expressions, print/tf.print, list append), then each function's value under tf.function for tensor and Python inputs.
import tensorflow as tf
import sys


def cell(label, f):
    """One cell: a '--- label' marker on stdout and stderr, then the result or the error."""
    print(f"--- {label}", flush=True)
    print(f"--- {label}", file=sys.stderr, flush=True)
    try:
        r = f()
        if r is not None:
            print(r, flush=True)
    except Exception as e:
        print(type(e).__name__, e, flush=True)


def if_else(x):
    if x > 0:
        x = x * 2
    else:
        x = -x
    return x


def if_only(x):
    y = x
    if x > 0:
        y = x * 2
    return y


def if_two_vars(x):
    a = 1
    b = 2
    if x > 0:
        a = a + 1
        b = 3
    else:
        b = 4
    c = a
    return b + c


def elif_chain(x):
    if x > 10:
        y = 3
    elif x > 5:
        y = 2
    elif x > 0:
        y = 1
    else:
        y = 0
    return y


def for_range(n):
    s = 0
    for i in tf.range(n):
        s += i
    return s


def for_list(x):
    for w in [1.0, 2.0, 3.0]:
        x = x * w
    return x


def for_tuples(x):
    for a, b in [(1, 2), (3, 4)]:
        x = x + a * b
    return x


def for_tensor(xs):
    s = tf.constant(0.0)
    for x in xs:
        s = s + x * x
    return s


def while_tensor(x):
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


def while_count(n):
    i = 0
    total = 0
    while i < n:
        total += i
        i += 1
    return total


def break_while(n):
    i = 0
    while i < n:
        if i > 5:
            break
        i += 1
    return i


def break_for(xs):
    s = 0.0
    for x in xs:
        if x > 2:
            break
        s += x
    return s


def continue_for(n):
    s = 0
    for i in tf.range(n):
        if i % 2 == 0:
            continue
        s += i
    return s


def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


def return_in_if(x):
    if x > 0:
        return x
    return -x


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


def return_in_while(n):
    i = 0
    while i < n:
        if i == 3:
            return i
        i += 1
    return -1


def helper(x):
    if x > 1:
        x = x - 1
    return x * 2


def nested_call(x):
    return helper(x) + 1


def nested_def(x):
    def inner(y):
        return y + x
    return inner(x)


def with_lambda(x):
    double = lambda y: y * 2
    return double(x)


def logic(x, y):
    if x > 0 and y > 0 or not x < 5:
        return x
    return y


def compare_chain(x):
    return 0 < x < 5


def conditional_expression(x):
    return x if x > 0 else -x


def keywords(x):
    return tf.reduce_sum(x, axis=0, keepdims=True)


def star_args(*args, **kwargs):
    return tf.add(*args, **kwargs)


def printing(x):
    print('tracing', x)
    tf.print('running', x)
    return x


def no_return(x):
    tf.print(x)


def documented(x):
    """Doubles x."""
    return x * 2


def fizzbuzz(n):
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            tf.print('FizzBuzz')
        elif i % 3 == 0:
            tf.print('Fizz')
        elif i % 5 == 0:
            tf.print('Buzz')
        else:
            tf.print(i)


def appending(n):
    out = []
    for i in range(n):
        out.append(i)
    return out


FUNCTIONS = [if_else, if_only, if_two_vars, elif_chain, for_range, for_list, for_tuples, for_tensor, while_tensor,
             while_count, break_while, break_for, continue_for, sum_even, return_in_if, simple_relu, return_in_while,
             nested_call, nested_def, with_lambda, logic, compare_chain, conditional_expression, keywords, star_args,
             printing, no_return, documented, fizzbuzz, appending]

for fn in FUNCTIONS:
    cell(f"to_code {fn.__name__}", lambda: tf.autograph.to_code(fn))

RUNS = [
    (if_else, (tf.constant(3.0),)), (if_else, (tf.constant(-2.0),)), (if_else, (3,)), (if_else, (-2,)),
    (if_only, (tf.constant(3.0),)), (if_only, (tf.constant(-2.0),)), (if_only, (-2.0,)),
    (if_two_vars, (tf.constant(1),)), (if_two_vars, (tf.constant(-1),)), (if_two_vars, (1,)),
    (elif_chain, (tf.constant(7),)), (elif_chain, (tf.constant(-7),)), (elif_chain, (12,)),
    (for_range, (tf.constant(5),)), (for_range, (5,)),
    (for_list, (tf.constant(2.0),)), (for_list, (2.0,)),
    (for_tuples, (tf.constant(1),)), (for_tuples, (1,)),
    (for_tensor, (tf.constant([1.0, 2.0, 3.0]),)), (for_tensor, ([1.0, 2.0],)),
    (while_tensor, (tf.constant([2.0, 3.0]),)),
    (while_count, (tf.constant(5),)), (while_count, (5,)),
    (break_while, (tf.constant(10),)), (break_while, (tf.constant(3),)), (break_while, (10,)),
    (break_for, (tf.constant([1.0, 2.0, 3.0, 1.0]),)), (break_for, ([1.0, 2.0, 3.0, 1.0],)),
    (continue_for, (tf.constant(7),)), (continue_for, (7,)),
    (sum_even, (tf.constant([1, 2, 3, 4]),)), (sum_even, ([1, 2, 3, 4],)),
    (return_in_if, (tf.constant(-4.0),)), (return_in_if, (tf.constant(4.0),)), (return_in_if, (-4,)),
    (simple_relu, (tf.constant(-1.0),)), (simple_relu, (tf.constant(2.0),)), (simple_relu, (2.0,)),
    (return_in_while, (tf.constant(10),)), (return_in_while, (tf.constant(2),)), (return_in_while, (10,)),
    (nested_call, (tf.constant(3.0),)), (nested_call, (3.0,)),
    (nested_def, (tf.constant(3.0),)), (with_lambda, (tf.constant(3.0),)),
    (logic, (tf.constant(1.0), tf.constant(2.0))), (logic, (tf.constant(-1.0), tf.constant(2.0))), (logic, (1, -2)),
    (compare_chain, (tf.constant(3),)), (compare_chain, (tf.constant(7),)), (compare_chain, (3,)),
    (conditional_expression, (tf.constant(-3.0),)), (conditional_expression, (-3.0,)),
    (keywords, (tf.constant([[1.0, 2.0], [3.0, 4.0]]),)),
    (star_args, (tf.constant(1.0), tf.constant(2.0))),
    (printing, (tf.constant(1.0),)), (no_return, (tf.constant(1.0),)), (documented, (tf.constant(1.0),)),
    (fizzbuzz, (tf.constant(5),)),
    (appending, (3,)),
]

for fn, args in RUNS:
    label = ", ".join(f"tensor {a.numpy().tolist()}" if isinstance(a, tf.Tensor) else repr(a) for a in args)
    cell(f"run {fn.__name__}({label})", lambda: tf.function(fn)(*args))
