"""A function's source through AutoGraph's converters, in TensorFlow's order, to the function
``tf__<name>`` that tracing calls, and the text ``tf.autograph.to_code`` prints.

The generated function is compiled from the converted tree itself, so the program's statements
keep their own file and line numbers (errors point at them, as TensorFlow's source maps make
its errors do).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types

from . import analysis, expressions, unsupported
from .directives import DirectivesTransformer
from .control_flow import ControlFlowTransformer
from .functions import FunctionTransformer
from .loops_canon import BreakTransformer, ContinueTransformer
from .returns import ConditionalReturnRewriter, ReturnStatementsTransformer
from .symbols import Namer, block_writes, params


class Context:
    def __init__(self, namespace):
        self.namer = Namer(namespace)


def parse(fn):
    """The function's definition (``None``: no source, or not a ``def``)."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.FunctionDef) or node.name != fn.__name__:
        return None
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno  # co_firstlineno's line
    ast.increment_lineno(node, fn.__code__.co_firstlineno - first)
    return node


def convert_tree(node, namespace, user_requested=True):
    unsupported.verify(node)
    ctx = Context(namespace)
    expressions.mark_loads(node)
    node = FunctionTransformer(ctx, user_requested).visit(node)
    node = DirectivesTransformer(namespace, set(block_writes(node.body)) | set(params(node))).visit(node)
    node = BreakTransformer(ctx).visit(node)
    node = ContinueTransformer(ctx).visit(node)
    node = ConditionalReturnRewriter(ctx).visit(node)
    node = ReturnStatementsTransformer(ctx).visit(node)
    node = expressions.CallTreeTransformer().visit(node)
    analysis.annotate(node)
    node = ControlFlowTransformer(ctx).visit(node)
    node = expressions.ConditionalExpressionTransformer().visit(node)
    node = expressions.LogicalExpressionTransformer().visit(node)
    node = expressions.VariableAccessTransformer().visit(node)
    node.name = f"tf__{node.name}"
    return ast.fix_missing_locations(node)


def source(node) -> str:
    return ast.unparse(node) + "\n"


def compile_function(fn, node, ag_module):
    """The converted ``node`` as a function with ``fn``'s globals, closure and defaults."""
    free = list(fn.__code__.co_freevars)
    args = ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in ["ag__"] + free], kwonlyargs=[],
                         kw_defaults=[], defaults=[])
    factory = ast.FunctionDef("inner_factory", args, [node, ast.Return(ast.Name(node.name, ast.Load()))], [], None,
                              type_params=[])
    module = ast.fix_missing_locations(ast.Module([factory], []))
    code = compile(module, fn.__code__.co_filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == node.name)
    cells = dict(zip(free, fn.__closure__ or ()), ag__=types.CellType(ag_module))
    closure = tuple(cells[n] for n in inner.co_freevars)
    return types.FunctionType(inner, fn.__globals__, node.name, fn.__defaults__, closure)
