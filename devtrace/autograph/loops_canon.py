"""``break`` and ``continue`` become flags (TensorFlow's break_statements and continue_statements
converters): ``break`` sets ``break_`` (and continues), ``continue`` sets ``continue_``, and the
statements after one run under ``if not continue_:``; a ``while`` with a ``break`` tests
``not break_ and …``, a ``for`` gets ``not break_`` as its extra test. Every loop draws its names
from the namer, used or not, as TensorFlow's converters do.
"""

from __future__ import annotations

import ast

from . import templates


class Block(ast.NodeTransformer):
    """A transformer with TensorFlow's ``visit_block``: a statement's post-processing may move the
    statements after it into a block of its own (``after(node) -> (node, destination)``)."""

    def __init__(self, ctx):
        self.ctx = ctx

    def visit_block(self, nodes, after=None) -> list:
        results: list = []
        destination = results
        for node in nodes:
            new = self.visit(node)
            target = None
            if after is not None and new:
                new, target = after(new)
            if new:
                destination.extend(new if isinstance(new, list) else [new])
            if target is not None:
                destination = target
        return results


def _keep_options(old, new) -> None:
    if hasattr(old, "ag_loop_options"):
        new.ag_loop_options = old.ag_loop_options


class BreakTransformer(Block):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.stack: list = []  # [used, flag name] per loop

    def visit_Break(self, node):  # noqa: N802 (ast's visitor names)
        self.stack[-1][0] = True
        return templates.locate(templates.replace("var_name = True\ncontinue", var_name=self.stack[-1][1]), node)

    def visit_FunctionDef(self, node):  # noqa: N802
        saved, self.stack = self.stack, []
        node.body = self.visit_block(node.body)
        self.stack = saved
        return node

    def _body(self, nodes, flag):
        self.stack.append([False, flag])
        nodes = self.visit_block(nodes)
        return nodes, self.stack.pop()[0]

    def _guard(self, block, flag):
        if not block:
            return block
        return templates.replace("if not var_name:\n    block", var_name=flag, block=block)

    def visit_While(self, node):  # noqa: N802
        flag = self.ctx.namer.new_symbol("break_", self.ctx.reserved)
        node.test = self.visit(node.test)
        node.body, used = self._body(node.body, flag)
        node.orelse = self.visit_block(node.orelse)
        if not used:
            return node
        new = templates.replace("var_name = False\nwhile not var_name and test:\n    body\norelse", var_name=flag,
                                test=node.test, body=node.body, orelse=self._guard(node.orelse, flag))
        _keep_options(node, new[1])
        return templates.locate(new, node)

    def visit_For(self, node):  # noqa: N802
        flag = self.ctx.namer.new_symbol("break_", self.ctx.reserved)
        node.target = self.visit(node.target)
        node.iter = self.visit(node.iter)
        node.body, used = self._body(node.body, flag)
        node.orelse = self.visit_block(node.orelse)
        if not used:
            return node
        new = templates.replace("var_name = False\nfor target in iter_:\n    (var_name,)\n    body\norelse",
                                var_name=flag, iter_=node.iter, target=node.target, body=node.body,
                                orelse=self._guard(node.orelse, flag))
        new[1].ag_extra_test = templates.replace_as_expression("not var_name", var_name=flag)
        _keep_options(node, new[1])
        return templates.locate(new, node)


class _Guards:
    def __init__(self, is_loop=False):
        self.is_loop = is_loop
        self.now = False
        self.next = False


class ContinueTransformer(Block):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.used: list = []  # per loop: [used, flag]
        self.blocks: list = []

    def visit_Continue(self, node):  # noqa: N802
        self.used[-1][0] = True
        for block in reversed(self.blocks):
            block.next = True
            if block.is_loop:
                break
        return templates.locate(templates.replace("var_name = True", var_name=self.used[-1][1]), node)

    def _after(self, node):
        if not (self.used and self.used[-1][0]):
            return node, None
        block = self.blocks[-1]
        wrap, block.now, block.next = block.now, block.next, False
        if wrap:
            cond, = templates.replace("if not var_name:\n    original_node", var_name=self.used[-1][1],
                                      original_node=[node] if not isinstance(node, list) else node)
            templates.locate([cond], node[0] if isinstance(node, list) else node)
            return cond, cond.body
        return node, None

    def _loop_body(self, node, nodes):
        flag = self.ctx.namer.new_symbol("continue_", self.ctx.reserved)
        self.used.append([False, flag])
        self.blocks.append(_Guards(is_loop=True))
        nodes = self.visit_block(nodes, self._after)
        if self.used[-1][0]:
            nodes = templates.locate(templates.replace("var_name = False", var_name=flag), node) + nodes
        self.blocks.pop()
        self.used.pop()
        return nodes

    def _plain(self, nodes):
        self.blocks.append(_Guards())
        nodes = self.visit_block(nodes, self._after)
        self.blocks.pop()
        return nodes

    def visit_FunctionDef(self, node):  # noqa: N802
        saved = self.used, self.blocks
        self.used, self.blocks = [], []
        node.body = self.visit_block(node.body)
        self.used, self.blocks = saved
        return node

    def visit_While(self, node):  # noqa: N802
        node.test = self.visit(node.test)
        node.body = self._loop_body(node, node.body)
        node.orelse = self._plain(node.orelse)
        return node

    def visit_For(self, node):  # noqa: N802
        node.body = self._loop_body(node, node.body)
        node.orelse = self._plain(node.orelse)
        return node

    def visit_If(self, node):  # noqa: N802
        node.body = self._plain(node.body)
        node.orelse = self._plain(node.orelse)
        return node

    def visit_With(self, node):  # noqa: N802
        node.body = self._plain(node.body)
        return node

    def visit_Try(self, node):  # noqa: N802
        node.body = self._plain(node.body)
        node.orelse = self._plain(node.orelse)
        node.finalbody = self._plain(node.finalbody)
        for h in node.handlers:
            h.body = self._plain(h.body)
        return node
