"""The Python features AutoGraph refuses before converting (TensorFlow's
unsupported_features_checker): ``for``/``while`` with ``else``, generators, mangled names.
``tf.autograph.to_code`` raises the error; ``tf.function`` warns and runs the function as written.
"""

from __future__ import annotations

import ast


class UnsupportedLanguageElementError(NotImplementedError):
    """Raised for code patterns that AutoGraph does not support."""


class _Checker(ast.NodeVisitor):
    def visit_Attribute(self, node):  # noqa: N802 (ast's visitor names)
        if node.attr.startswith("__") and not node.attr.endswith("__"):
            raise UnsupportedLanguageElementError("mangled names are not yet supported")
        self.generic_visit(node)

    def visit_For(self, node):  # noqa: N802
        if node.orelse:
            raise UnsupportedLanguageElementError("for/else statement not yet supported")
        self.generic_visit(node)

    def visit_While(self, node):  # noqa: N802
        if node.orelse:
            raise UnsupportedLanguageElementError("while/else statement not yet supported")
        self.generic_visit(node)

    def visit_Yield(self, node):  # noqa: N802
        raise UnsupportedLanguageElementError("generators are not supported")

    visit_YieldFrom = visit_Yield  # noqa: N815


def verify(node) -> None:
    _Checker().visit(node)
