"""``return`` becomes two variables (TensorFlow's return_statements converter): ``do_return`` and
``retval_`` are set in a ``try`` (reset if the value raises), the statements after a ``return``
run under ``if not do_return:``, loops test ``not do_return``, and the function ends with
``return fscope.ret(retval_, do_return)``. First, when one branch of an ``if`` always returns, the
statements after the ``if`` move into the other branch (the conditional-return rewrite).
"""

from __future__ import annotations

import ast

from . import templates
from .loops_canon import Block


class ConditionalReturnRewriter(Block):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.returns: list = []  # per block: definitely returns

    def visit_Return(self, node):  # noqa: N802 (ast's visitor names)
        self.returns[-1] = True
        return node

    def _after(self, node):
        if getattr(node, "ag_stmt_returns", False):
            self.returns[-1] = True
        if isinstance(node, ast.If) and getattr(node, "ag_body_returns", False):
            return node, node.orelse
        if isinstance(node, ast.If) and getattr(node, "ag_orelse_returns", False):
            return node, node.body
        return node, None

    def block(self, nodes):
        self.returns.append(False)
        nodes = self.visit_block(nodes, self._after)
        return nodes, self.returns.pop()

    def visit_If(self, node):  # noqa: N802
        node.body, node.ag_body_returns = self.block(node.body)
        node.orelse, node.ag_orelse_returns = self.block(node.orelse)
        if node.ag_body_returns and node.ag_orelse_returns:
            self.returns[-1] = True
        return node

    def _loop(self, node):
        node.body, _ = self.block(node.body)
        node.orelse, _ = self.block(node.orelse)
        return node

    visit_While = visit_For = _loop  # noqa: N815

    def visit_With(self, node):  # noqa: N802
        node.body, node.ag_stmt_returns = self.block(node.body)
        return node

    def visit_Try(self, node):  # noqa: N802
        for field in ("body", "orelse", "finalbody"):
            setattr(node, field, self.block(getattr(node, field))[0])
        for h in node.handlers:
            h.body, _ = self.block(h.body)
        return node

    def visit_FunctionDef(self, node):  # noqa: N802
        node.body, _ = self.block(node.body)
        return node


class _ReturnBlock:
    def __init__(self, is_function=False):
        self.is_function = is_function
        self.used = False
        self.guard_next = False
        self.guard_now = False


class ReturnStatementsTransformer(Block):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.blocks: list = []
        self.names: list = []  # per function: (do_return, retval_)

    def visit_Return(self, node):  # noqa: N802
        for block in reversed(self.blocks):
            block.used = True
            block.guard_next = True
            if block.is_function:
                break
        do_return, retval = self.names[-1]
        value = node.value if node.value is not None else ast.Constant(None)
        new = templates.replace("""
            try:
                do_return_var_name = True
                retval_var_name = retval
            except:
                do_return_var_name = False
                raise
            """, do_return_var_name=do_return, retval_var_name=retval, retval=value)
        return templates.locate(new, node)

    def _after(self, node):
        state = self.blocks[-1]
        if not state.used:
            return node, None
        target = None
        if state.guard_now:
            cond, = templates.replace("if not do_return_var_name:\n    original_node",
                                      do_return_var_name=self.names[-1][0],
                                      original_node=node if isinstance(node, list) else [node])
            templates.locate([cond], node[0] if isinstance(node, list) else node)
            node, target = cond, cond.body
        state.guard_now, state.guard_next = state.guard_next, False
        return node, target

    def block(self, nodes):
        self.blocks.append(_ReturnBlock())
        nodes = self.visit_block(nodes, self._after)
        self.blocks.pop()
        return nodes

    def _not_returned(self, test):
        return templates.replace_as_expression("not control_var and test", control_var=self.names[-1][0], test=test)

    def visit_While(self, node):  # noqa: N802
        node.body = self.block(node.body)
        if self.blocks[-1].used:
            node.test = self._not_returned(node.test)
        node.orelse = self.block(node.orelse)
        return node

    def visit_For(self, node):  # noqa: N802
        node.body = self.block(node.body)
        if self.blocks[-1].used:
            extra = getattr(node, "ag_extra_test", None)
            node.ag_extra_test = self._not_returned(extra) if extra is not None else \
                templates.replace_as_expression("not control_var", control_var=self.names[-1][0])
        node.orelse = self.block(node.orelse)
        return node

    def visit_If(self, node):  # noqa: N802
        node.body = self.block(node.body)
        node.orelse = self.block(node.orelse)
        return node

    def visit_With(self, node):  # noqa: N802
        node.body = self.block(node.body)
        return node

    def visit_Try(self, node):  # noqa: N802
        for field in ("body", "orelse", "finalbody"):
            setattr(node, field, self.block(getattr(node, field)))
        for h in node.handlers:
            h.body = self.block(h.body)
        return node

    def visit_FunctionDef(self, node):  # noqa: N802
        block = _ReturnBlock(is_function=True)
        self.blocks.append(block)
        reserved = self.ctx.reserved
        self.names.append((self.ctx.namer.new_symbol("do_return", reserved),
                           self.ctx.namer.new_symbol("retval_", reserved)))
        node.body = self.block(node.body)
        do_return, retval = self.names.pop()
        self.blocks.pop()
        if block.used:
            wrapper = node.body[-1]
            wrapper.body = templates.locate(templates.replace("""
                do_return_var_name = False
                retval_var_name = ag__.UndefinedReturnValue()
                body
                return function_context.ret(retval_var_name, do_return_var_name)
                """, body=wrapper.body, do_return_var_name=do_return, retval_var_name=retval,
                                                              function_context=node.ag_fscope), wrapper)
        return node
