"""Code templates, as AutoGraph's converters write them: a snippet of Python whose placeholder
names are replaced by names, expressions or whole statement lists.

A placeholder's value is a ``str`` (a name), an AST expression (copied, its context set to where
the placeholder stands), a ``tuple`` of names (a tuple target), a ``list`` of statements (spliced
where the placeholder statement stands) or of expressions (spliced into a tuple). The template's
own nodes carry no line numbers: they take those of the statement they replace.
"""

from __future__ import annotations

import ast
import copy
import textwrap

_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def _strip(tree) -> None:
    for node in ast.walk(tree):
        for attr in _LOCATION:
            if attr in node._attributes and hasattr(node, attr):
                delattr(node, attr)


def set_ctx(node, ctx):
    """``node`` (a copy) as a load or store target."""
    node = copy.deepcopy(node)
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript, ast.Starred, ast.Tuple, ast.List)):
            n.ctx = ctx()
        if isinstance(n, (ast.Tuple, ast.List)):
            stack.extend(n.elts)
        elif isinstance(n, ast.Starred):
            stack.append(n.value)
    return node


class _Replacer(ast.NodeTransformer):
    def __init__(self, replacements):
        self.repl = replacements

    def _name(self, node):
        value = self.repl[node.id]
        ctx = type(node.ctx)
        if isinstance(value, str):
            return ast.Name(value, ctx())
        if isinstance(value, tuple):
            elts = [ast.Name(v, ctx()) if isinstance(v, str) else set_ctx(v, ctx) for v in value]
            return ast.Tuple(elts, ctx())
        return set_ctx(value, ctx)

    def visit_Name(self, node):  # noqa: N802 (ast's visitor names)
        return self._name(node) if node.id in self.repl else node

    def visit_Tuple(self, node):  # noqa: N802
        elts = []
        for e in node.elts:
            value = self.repl.get(e.id) if isinstance(e, ast.Name) else None
            if isinstance(value, (list, tuple)):
                elts.extend(ast.Name(v, type(e.ctx)()) if isinstance(v, str) else set_ctx(v, type(e.ctx))
                            for v in value)
            else:
                elts.append(self.visit(e))
        node.elts = elts
        return node

    def visit_FunctionDef(self, node):  # noqa: N802
        node.name = self.repl.get(node.name, node.name)
        for a in node.args.args:
            a.arg = self.repl.get(a.arg, a.arg)
        node.body = self.block(node.body)
        return node

    def visit_Lambda(self, node):  # noqa: N802
        for a in node.args.args:
            a.arg = self.repl.get(a.arg, a.arg)
        node.body = self.visit(node.body)
        return node

    def visit_Expr(self, node):  # noqa: N802
        if isinstance(node.value, ast.Name) and isinstance(self.repl.get(node.value.id), list):
            return self.repl[node.value.id]
        return self.generic_visit(node)

    def block(self, stmts) -> list:
        out: list = []
        for stmt in stmts:
            new = self.visit(stmt)
            out.extend(new if isinstance(new, list) else [new])
        return out

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(node, field, None), list):
                setattr(node, field, self.block(getattr(node, field)))
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody") and isinstance(value, list):
                continue
            if isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v for v in value])
        return node


def replace(template: str, **replacements) -> list:
    """The template's statements with the placeholders replaced."""
    tree = ast.parse(textwrap.dedent(template))
    _strip(tree)
    return _Replacer(replacements).block(tree.body)


def replace_as_expression(template: str, **replacements):
    node, = replace(template, **replacements)
    return node.value


def locate(nodes, origin) -> list:
    """Give the nodes without a line number ``origin``'s first line (where TensorFlow's errors point)."""
    for top in nodes:
        for node in ast.walk(top):
            if "lineno" in node._attributes and not hasattr(node, "lineno"):
                node.lineno = node.end_lineno = origin.lineno
                node.col_offset = node.end_col_offset = origin.col_offset
    return nodes


def located(node, origin):
    """One generated expression placed at ``origin``'s first line."""
    return locate([node], origin)[0]
