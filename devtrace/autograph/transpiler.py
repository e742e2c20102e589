"""A function's source through AutoGraph's converters, in TensorFlow's order, to the function
``tf__<name>`` that tracing calls, and the text ``tf.autograph.to_code`` prints.

The generated function is compiled from the converted tree itself, so the program's statements
keep their own file and line numbers (errors point at them, as TensorFlow's source maps make
its errors do).
"""

from __future__ import annotations

import ast
import inspect
import linecache
import textwrap
import types

from . import analysis, expressions, symbols, templates, unsupported
from .directives import DirectivesTransformer
from .control_flow import ControlFlowTransformer
from .functions import FunctionTransformer
from .loops_canon import BreakTransformer, ContinueTransformer
from .returns import ConditionalReturnRewriter, ReturnStatementsTransformer
from .symbols import Namer, block_writes, params
from .unsupported import UnsupportedLanguageElementError


class Context:
    def __init__(self, namespace):
        self.namer = Namer(namespace)
        self.reserved: set = set()  # the names the function reads when a converter starts


def _pass(transformer, node):
    """One converter over the function, its namer clear of the names the function reads now."""
    transformer.ctx.reserved = symbols.reads(node)
    return transformer.visit(node)


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


def _span(node) -> tuple:
    lines = [n.lineno for n in ast.walk(node) if hasattr(n, "lineno")]
    ends = [n.end_lineno for n in ast.walk(node) if getattr(n, "end_lineno", None) is not None]
    return min(lines), max(lines + ends)


def parse_lambda(fn):
    """The lambda's node in its file (TensorFlow's search: the lambdas whose lines hold the code's
    first line, then those with its arguments)."""
    filename, line = fn.__code__.co_filename, fn.__code__.co_firstlineno
    module = inspect.getmodule(fn)
    try:
        tree = ast.parse("".join(linecache.getlines(filename, module.__dict__ if module else None)))
    except (SyntaxError, ValueError):
        return None
    candidates = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and _span(n)[0] <= line <= _span(n)[1]]
    if len(candidates) > 1:
        names = list(fn.__code__.co_varnames[:fn.__code__.co_argcount + fn.__code__.co_kwonlyargcount])
        candidates = [n for n in candidates if [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs]
                      == names]
    if len(candidates) != 1:
        raise UnsupportedLanguageElementError(f"could not parse the source code of {fn}: found multiple definitions "
                                              "with identical signatures at the location. This error may be avoided "
                                              "by defining each lambda on a single line and with unique argument "
                                              "names." if candidates else f"could not parse the source code of {fn}")
    return candidates[0]


def convert_lambda(node, namespace, user_requested=True):
    """A lambda's conversion: ``tf__lam = lambda …: ag__.with_function_scope(…)``."""
    unsupported.verify(node)
    ctx = Context(namespace)
    node = _pass(FunctionTransformer(ctx, user_requested), node)
    node = expressions.CallTreeTransformer().visit(node)
    node = expressions.ConditionalExpressionTransformer().visit(node)
    node = expressions.LogicalExpressionTransformer().visit(node)
    assign = ast.Assign([ast.Name("tf__lam", ast.Store())], node)
    assign.name = "tf__lam"
    return ast.fix_missing_locations(templates.located(assign, node))


def convert_tree(node, namespace, user_requested=True):
    unsupported.verify(node)
    ctx = Context(namespace)
    name = ctx.namer.new_symbol(f"tf__{node.name}", ())
    node.args.defaults = [ast.Constant(None) for _ in node.args.defaults]  # the function keeps its own
    node.args.kw_defaults = [None if d is None else ast.Constant(None) for d in node.args.kw_defaults]
    expressions.mark_loads(node)
    node = _pass(FunctionTransformer(ctx, user_requested), node)
    node = DirectivesTransformer(namespace, set(block_writes(node.body)) | set(params(node))).visit(node)
    node = _pass(BreakTransformer(ctx), node)
    node = _pass(ContinueTransformer(ctx), node)
    node = _pass(ConditionalReturnRewriter(ctx), node)
    node = _pass(ReturnStatementsTransformer(ctx), node)
    node = expressions.CallTreeTransformer().visit(node)
    analysis.annotate(node)
    node = _pass(ControlFlowTransformer(ctx), node)
    node = expressions.ConditionalExpressionTransformer().visit(node)
    node = expressions.LogicalExpressionTransformer().visit(node)
    node = expressions.VariableAccessTransformer().visit(node)
    node.name = name
    return ast.fix_missing_locations(node)


def source(node) -> str:
    """The converted function's source as ``to_code`` prints it: TensorFlow writes it inside two
    factory functions and dedents its lines (a docstring's own lines can stop the dedent)."""
    inner = ast.FunctionDef("inner_factory", ast.arguments(posonlyargs=[], args=[ast.arg("ag__")], kwonlyargs=[],
                                                           kw_defaults=[], defaults=[]),
                            [node, ast.Return(ast.Name(node.name, ast.Load()))], [], None, type_params=[])
    outer = ast.FunctionDef("outer_factory", ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                           defaults=[]),
                            [inner, ast.Return(ast.Name("inner_factory", ast.Load()))], [], None, type_params=[])
    lines = ast.unparse(ast.fix_missing_locations(ast.Module([outer], []))).splitlines(keepends=True)
    start = next(k for k, line in enumerate(lines) if line.startswith(f"        def {node.name}(")
                 or line.startswith(f"        {node.name} = "))
    end = max(k for k, line in enumerate(lines) if line == f"        return {node.name}\n")
    return textwrap.dedent("".join(lines[start:end]))


def compile_function(fn, node, ag_module):
    """The converted ``node`` as a function with ``fn``'s globals, closure and defaults."""
    free = list(fn.__code__.co_freevars)
    args = ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in ["ag__"] + free], kwonlyargs=[],
                         kw_defaults=[], defaults=[])
    factory = ast.FunctionDef("inner_factory", args, [node, ast.Return(ast.Name(node.name, ast.Load()))], [], None,
                              type_params=[])
    lambda_ = isinstance(node, ast.Assign)
    module = ast.fix_missing_locations(ast.Module([factory], []))
    code = compile(module, fn.__code__.co_filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType)
                 and c.co_name == ("<lambda>" if lambda_ else node.name))
    cells = dict(zip(free, fn.__closure__ or ()), ag__=types.CellType(ag_module))
    closure = tuple(cells[n] for n in inner.co_freevars)
    return types.FunctionType(inner, fn.__globals__, node.name, fn.__defaults__, closure)
