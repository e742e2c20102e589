# Issue 11 (AutoGraph, corners): `tf.autograph.to_code` of nested loops, loops with else (refused), globals, variables first assigned in a loop or one branch, methods, attribute and item assignment, del, tuple assignment, comprehensions, nested returns, `while True` with break, `is None`, `in`, `with` blocks, f-strings, TensorArray loops, bare returns; then their values (and TensorFlow's errors) under tf.function.
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


counter = 0

def nested_loops(n):
    total = 0
    for i in tf.range(n):
        j = 0
        while j < i:
            total += j
            j += 1
    return total

def while_else(n):
    i = 0
    while i < n:
        i += 1
    else:
        i = i * 10
    return i

def for_else(xs):
    s = 0
    for x in xs:
        if x < 0:
            break
        s += x
    else:
        s = -1
    return s

def uses_global(x):
    global counter
    counter += 1
    if x > 0:
        counter = counter + 1
    return x

def defined_in_loop(n):
    for i in tf.range(n):
        y = i * 2
    return y

def undefined_branch(x):
    if x > 0:
        y = 1
    return y

class Model:
    def __init__(self):
        self.w = 2.0

    def call(self, x):
        if x > 0:
            x = x * self.w
        return x

def attr_assign(x):
    m = Model()
    if x > 0:
        m.w = 3.0
    return m.w

def subscript(x):
    d = {}
    for i in range(3):
        d[i] = x * i
    return d[2]

def deleting(x):
    y = x
    del y
    return x

def tuple_assign(x):
    a, b = x, x * 2
    if a > 0:
        a, b = b, a
    return a - b

def comprehension(x):
    ys = [x * k for k in range(3)]
    return tf.add_n(ys)

def multi_return(x):
    if x > 0:
        if x > 10:
            return 2
        return 1
    return 0

def nested_while_break(n):
    i = 0
    while True:
        i += 1
        if i >= n:
            break
    return i

def print_loop(n):
    for i in tf.range(n):
        tf.print('i =', i)
    return n

def not_only(x):
    return not x

def is_none(x, y=None):
    if y is None:
        y = x
    return x + y

def in_operator(x):
    if 'a' in ['a', 'b']:
        x = x + 1
    return x

def with_block(x):
    with tf.name_scope('block'):
        if x > 0:
            x = x + 1
    return x

def fstring(x):
    tf.print(f'value {x}')
    return x

def aug_attr(x):
    m = Model()
    m.w += 1.0
    return x * m.w

def loop_tensor_array(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32))
    return ta.stack()

def return_none(x):
    if x > 0:
        return
    tf.print(x)

def dtype_change(n):
    x = 0
    while x < n:
        x = x + 0.5
    return x


def bool_of_tensor(x):
    return bool(x > 0)


def builtins(x, y):
    n = len(x)
    a = int(y)
    b = float(a)
    c = abs(-y)
    return n, a, b, c


def scalar_len(x):
    return len(x)


class Child(Model):
    def call(self, x):
        names = sorted(k for k in locals() if not k.startswith('ag'))
        if x > 0:
            x = x * 2
        return super().call(x), names


def raises_big(x):
    if x > 100:
        raise ValueError('too big')
    return x


def error_in_branch(x):
    if x > 0:
        y = raises_big(x * 1000.0)
    else:
        y = x
    return y


def name_error_in_loop(n):
    s = 0
    for i in tf.range(n):
        s += undefined_name
    return s


def assert_in_loop(x):
    while x > 0:
        x = x - 1
        assert x != 5, 'five'
    return x


@tf.function
def train(dataset):
    loss = tf.constant(0)
    for x, y in dataset:
        loss += tf.abs(y - x)
    return loss


def rnn_step(inp, state):
    return inp + state


@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_step(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])


@tf.function
def tanh_loop(x):
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x


def graph_ops(f, *args):
    return [n.op for n in f.get_concrete_function(*args).graph.as_graph_def().node]


def loop_options(n):
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(maximum_iterations=3)
        i += 1
    return i


def multiline_doc(x):
    """First line.
    second line
      third"""
    return x


def defaults(x, y=2, *, z=3):
    try:
        return x + y + z
    except TypeError as e:
        return e


def step_2(x):
    return x


def shape_loop(n):
    x = tf.constant([1.0])
    while tf.reduce_sum(x) < n:
        x = tf.concat([x, x], 0)
    return x


def none_loop(n):
    x = None
    for i in tf.range(n):
        x = i
    return x


flag = tf.constant(True)
captured_rows = tf.constant([1.0, 2.0])


def eager_condition(x):
    if flag:
        x = x + 1.0
    return x


def eager_rows(x):
    for v in captured_rows:
        x = x + v
    return x


def rows_with_break(m):
    out = tf.zeros([2])
    for row in m:
        if tf.reduce_sum(row) > 10:
            break
        out += row
    return out


abs_lambda = lambda x: x if x > 0 else -x
pick_lambda = lambda x, y: x + y if x > y and y > 0 else tf.abs(x - y)


FUNCTIONS = [nested_loops, while_else, for_else, uses_global, defined_in_loop, undefined_branch, Model.call,
             attr_assign, subscript, deleting, tuple_assign, comprehension, multi_return, nested_while_break,
             print_loop, not_only, is_none, in_operator, with_block, fstring, aug_attr, loop_tensor_array,
             return_none, dtype_change, builtins, Child.call, loop_options, multiline_doc, defaults, step_2]

for fn in FUNCTIONS:
    cell(f"to_code {fn.__qualname__}", lambda: tf.autograph.to_code(fn))
cell("to_code abs_lambda", lambda: tf.autograph.to_code(abs_lambda))
cell("to_code pick_lambda", lambda: tf.autograph.to_code(pick_lambda))
cell("run abs_lambda(tensor -2.0)", lambda: tf.function(abs_lambda)(tf.constant(-2.0)))
cell("run pick_lambda(tensor 1.0, tensor 2.0)", lambda: tf.function(pick_lambda)(tf.constant(1.0), tf.constant(2.0)))
cell("run pick_lambda(tensor 3.0, tensor 2.0)", lambda: tf.function(pick_lambda)(tf.constant(3.0), tf.constant(2.0)))

model = Model()
RUNS = [
    (nested_loops, (tf.constant(4),)), (nested_loops, (4,)),
    (while_else, (tf.constant(3),)), (while_else, (3,)),
    (for_else, ([1, 2],)), (for_else, ([1, -2],)), (for_else, (tf.constant([1, 2]),)),
    (uses_global, (tf.constant(1.0),)),
    (defined_in_loop, (3,)),
    (undefined_branch, (tf.constant(1.0),)), (undefined_branch, (1.0,)),
    (model.call, (tf.constant(2.0),)), (model.call, (-2.0,)),
    (attr_assign, (tf.constant(1.0),)), (attr_assign, (-1.0,)),
    (subscript, (tf.constant(2.0),)),
    (deleting, (tf.constant(2.0),)),
    (tuple_assign, (tf.constant(2.0),)), (tuple_assign, (-2.0,)),
    (comprehension, (tf.constant(2.0),)),
    (multi_return, (tf.constant(20),)), (multi_return, (tf.constant(5),)), (multi_return, (tf.constant(-5),)),
    (multi_return, (20,)),
    (nested_while_break, (tf.constant(4),)), (nested_while_break, (4,)),
    (print_loop, (tf.constant(2),)),
    (not_only, (tf.constant(True),)), (not_only, (False,)),
    (is_none, (tf.constant(2.0),)), (is_none, (tf.constant(2.0), tf.constant(1.0))),
    (in_operator, (tf.constant(2.0),)),
    (with_block, (tf.constant(2.0),)),
    (fstring, (tf.constant(2.0),)),
    (aug_attr, (tf.constant(2.0),)),
    (loop_tensor_array, (tf.constant(4),)),
    (return_none, (tf.constant(1.0),)), (return_none, (tf.constant(-1.0),)), (return_none, (1.0,)),
    (dtype_change, (tf.constant(2),)), (dtype_change, (2,)),
    (bool_of_tensor, (tf.constant(1.0),)),
    (builtins, (tf.constant([1.0, 2.0, 3.0]), tf.constant(-2.5))), (builtins, ([1.0, 2.0], -2.5)),
    (scalar_len, (tf.constant(1.0),)),
    (Child().call, (tf.constant(2.0),)), (Child().call, (2.0,)),
    (error_in_branch, (tf.constant(1.0),)), (error_in_branch, (1.0,)),
    (name_error_in_loop, (tf.constant(2),)), (assert_in_loop, (tf.constant(3),)),
    (loop_options, (tf.constant(10),)), (loop_options, (10,)),
    (defaults, (tf.constant(1),)), (step_2, (tf.constant(1),)),
    (shape_loop, (tf.constant(5.0),)), (none_loop, (tf.constant(2),)),
    (eager_condition, (tf.constant(1.0),)), (eager_rows, (tf.constant(1.0),)),
    (rows_with_break, (tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),)),
]

for fn, args in RUNS:
    label = ", ".join(f"tensor {a.numpy().tolist()}" if isinstance(a, tf.Tensor) else repr(a) for a in args)
    cell(f"run {fn.__qualname__}({label})", lambda: tf.function(fn)(*args))

cell("guide: graph of a Python-list loop, 3 items", lambda: graph_ops(train, [(1, 1)] * 3))
cell("guide: graph of a Python-list loop, 10 items", lambda: len(graph_ops(train, [(1, 1)] * 10)))
cell("guide: dynamic_rnn", lambda: dynamic_rnn(rnn_step, tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4]),
                                                tf.zeros([2, 4])))
cell("guide: while over reduce_sum", lambda: tanh_loop(tf.constant([1.0, 2.0])))
cell("guide: while over reduce_sum, graph", lambda: graph_ops(tanh_loop, tf.constant([1.0, 2.0])))
cell("to_graph", lambda: (tf.autograph.to_graph(loop_options).__name__, tf.autograph.to_graph(loop_options)(5)))
cell("trace", lambda: tf.autograph.trace('traced', 1, [2]))
cell("graph: if over a captured tensor", lambda: [op for op in graph_ops(tf.function(eager_condition), tf.constant(1.0))
                                                   if op not in ("Const", "Placeholder")])
cell("graph: for over a tensor", lambda: [op for op in graph_ops(tf.function(rows_with_break),
                                                                  tf.constant([[1.0, 2.0], [3.0, 4.0]]))
                                          if op not in ("Const", "Placeholder", "Fill", "Shape", "StridedSlice")])
