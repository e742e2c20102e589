"""The expression converters, in TensorFlow's order: calls become ``ag__.converted_call`` (before
control flow), then conditional expressions ``ag__.if_exp``, logical operators ``ag__.and_`` /
``or_`` / ``not_`` over lambdas, and last every read of a program variable ``ag__.ld(x)``.
"""

from __future__ import annotations

import ast

from . import templates

_SKIPPED_CALLS = ("pdb.set_trace", "ipdb.set_trace", "breakpoint", "print")


def dotted(node) -> str:
    """The qualified name of ``a.b.c`` ('' for anything else)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


class CallTreeTransformer(ast.NodeTransformer):
    def __init__(self):
        self.scopes: list = []

    def visit_FunctionDef(self, node):  # noqa: N802 (ast's visitor names)
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args.defaults = [self.visit(d) for d in node.args.defaults]
        node.args.kw_defaults = [self.visit(d) if d is not None else None for d in node.args.kw_defaults]
        self.scopes.append(node.ag_fscope)
        node.body = [self.visit(s) for s in node.body]
        self.scopes.pop()
        return node

    def visit_With(self, node):  # noqa: N802
        node.body = [self.visit(s) for s in node.body]
        return node

    def visit_Lambda(self, node):  # noqa: N802
        if not hasattr(node, "ag_fscope"):
            return self.generic_visit(node)
        self.scopes.append(node.ag_fscope)
        self.generic_visit(node)
        self.scopes.pop()
        return node

    @staticmethod
    def _args(node):
        parts: list = []
        pending: list = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                if pending:
                    parts.append(ast.Tuple(pending, ast.Load()))
                    pending = []
                parts.append(ast.Call(ast.Name("tuple", ast.Load()), [a.value], []))
            else:
                pending.append(a)
        if pending:
            parts.append(ast.Tuple(pending, ast.Load()))
        if not parts:
            return ast.Tuple([], ast.Load())
        result = parts[0]
        for p in parts[1:]:
            result = ast.BinOp(result, ast.Add(), p)
        return result

    def visit_Call(self, node):  # noqa: N802
        name = dotted(node.func)
        self.generic_visit(node)
        scope = self.scopes[-1]
        if name.startswith("ag__.") or name.startswith(scope + ".") or name in _SKIPPED_CALLS:
            return node
        kwargs = ast.Call(ast.Name("dict", ast.Load()), [], node.keywords) if node.keywords else ast.Constant(None)
        new = templates.replace_as_expression("ag__.converted_call(func, args, kwargs, function_ctx)", func=node.func,
                                              args=self._args(node), kwargs=kwargs, function_ctx=scope)
        return templates.located(new, node)


class ConditionalExpressionTransformer(ast.NodeTransformer):
    def visit_IfExp(self, node):  # noqa: N802 (TensorFlow converts the outermost one only)
        new = templates.replace_as_expression("ag__.if_exp(test, lambda: true_expr, lambda: false_expr, expr_repr)",
                                              test=node.test, true_expr=node.body, false_expr=node.orelse,
                                              expr_repr=ast.Constant(ast.unparse(node.test)))
        return templates.located(new, node)


_LOGICAL = {ast.And: "ag__.and_", ast.Or: "ag__.or_", ast.Not: "ag__.not_"}


def _lambda(expr):
    return templates.replace_as_expression("lambda: expr", expr=expr)


def _binary(name, left, right):
    return templates.replace_as_expression(f"{name}(arg1, arg2)", arg1=left, arg2=right)


class LogicalExpressionTransformer(ast.NodeTransformer):
    def visit_Compare(self, node):  # noqa: N802
        self.generic_visit(node)
        left, tree = node.left, None
        for op, right in zip(node.ops, node.comparators):
            comparison = ast.Compare(left, [op], [right])
            tree = comparison if tree is None else _binary("ag__.and_", _lambda(tree), _lambda(comparison))
            left = right
        return templates.located(tree, node)

    def visit_UnaryOp(self, node):  # noqa: N802
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return templates.located(templates.replace_as_expression("ag__.not_(arg)", arg=node.operand), node)

    def visit_BoolOp(self, node):  # noqa: N802
        self.generic_visit(node)
        values = list(node.values)
        right = values.pop()
        while values:
            right = _binary(_LOGICAL[type(node.op)], _lambda(values.pop()), _lambda(right))
        return templates.located(right, node)


class VariableAccessTransformer(ast.NodeTransformer):
    def visit_Name(self, node):  # noqa: N802
        if not getattr(node, "ag_ld", False) or not isinstance(node.ctx, ast.Load):
            return node
        return templates.located(templates.replace_as_expression("ag__.ld(var_)", var_=node), node)

    def visit_Delete(self, node):  # noqa: N802
        self.generic_visit(node)
        names = [t for t in node.targets if isinstance(t, ast.Name)]
        if not names:
            return node
        out: list = []
        for t in names:
            out += templates.replace("var_ = ag__.Undefined(var_name)", var_=t, var_name=ast.Constant(t.id))
        rest = [t for t in node.targets if t not in names]
        if rest:
            out.append(ast.Delete(rest))
        return templates.locate(out, node)

    def visit_AugAssign(self, node):  # noqa: N802
        if not isinstance(node.target, ast.Name):
            return self.generic_visit(node)
        return templates.locate(templates.replace("var_ = ag__.ld(var_)\noriginal", var_=node.target,
                                                  original=[node]), node)


def mark_loads(function) -> None:
    """Mark the program's own variable reads (``ag__.ld`` wraps these, and only these)."""
    stack = [function.args] + list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            node.ag_ld = True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.append(node.args)
            stack.extend(node.body)
        elif isinstance(node, ast.arg):  # annotations are not variable reads
            continue
        elif isinstance(node, ast.ExceptHandler):  # TensorFlow's analyses visit a handler's body only
            stack.extend(node.body)
        else:
            stack.extend(ast.iter_child_nodes(node))
