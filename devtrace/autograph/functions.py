"""Function bodies run inside ``with ag__.FunctionScope(name, 'fscope', options) as fscope:``
(TensorFlow's functions converter); functions and lambdas defined inside are marked
``ag__.autograph_artifact`` (already converted) and their scopes take ``ag__.STD``.
"""

from __future__ import annotations

import ast

from . import templates

USER_OPTIONS = ("ag__.ConversionOptions(recursive=True, user_requested={}, optional_features=(), "
                "internal_convert_user_code=True)")


class FunctionTransformer(ast.NodeTransformer):
    def __init__(self, ctx, user_requested=True):
        self.ctx = ctx
        self.level = 1
        self.options = USER_OPTIONS.format(user_requested)

    def visit_Lambda(self, node):  # noqa: N802 (ast's visitor names)
        self.level += 1
        self.generic_visit(node)
        self.level -= 1
        if self.level > 1:
            return templates.located(templates.replace_as_expression("ag__.autograph_artifact(l)", l=node), node)
        name = node.ag_fscope = self.ctx.namer.new_symbol("lscope", self.ctx.reserved)
        node.body = templates.replace_as_expression(
            "ag__.with_function_scope(lambda function_context: body, function_context_name, options)",
            function_context=name, function_context_name=ast.Constant(name), body=node.body,
            options=ast.parse(self.options, mode="eval").body)
        return node

    def visit_FunctionDef(self, node):  # noqa: N802
        self.level += 1
        name = self.ctx.namer.new_symbol("fscope", self.ctx.reserved)
        node.ag_fscope = name
        self.generic_visit(node)
        top = self.level == 2
        self.level -= 1
        if top:
            node.decorator_list = []
        else:
            node.decorator_list.append(ast.parse("ag__.autograph_artifact", mode="eval").body)
        docstring = []
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            docstring, node.body = node.body[:1], node.body[1:]
        options = ast.parse(self.options if top else "ag__.STD", mode="eval").body
        wrapped = templates.replace("with ag__.FunctionScope(function_name, context_name, options) as "
                                    "function_context:\n    body", function_name=ast.Constant(node.name),
                                    context_name=ast.Constant(name), options=options, function_context=name,
                                    body=node.body or [ast.Pass()])
        node.body = docstring + templates.locate(wrapped, node)
        return node
