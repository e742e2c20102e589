"""``tf.autograph.experimental.set_loop_options`` (TensorFlow's directives converter): the call,
first statement of a loop body, is removed and its arguments become the loop's options
(``{'maximum_iterations': 3}``), which ``while_stmt``/``for_stmt`` pass to ``tf.while_loop``.
"""

from __future__ import annotations

import ast
import inspect
import types

UNSPECIFIED = object()


def set_loop_options(parallel_iterations=UNSPECIFIED, swap_memory=UNSPECIFIED, maximum_iterations=UNSPECIFIED,
                     shape_invariants=UNSPECIFIED):
    """Specifies additional arguments to be passed to the enclosing while_loop (outside converted
    code: nothing)."""
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants


def _static_value(node, namespace, local_names):
    """What a ``name`` or ``module.attr`` chain refers to, when it is not a local variable."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id) if node.id not in local_names else None
    if isinstance(node, ast.Attribute):
        parent = _static_value(node.value, namespace, local_names)
        if isinstance(parent, (types.ModuleType, types.SimpleNamespace)):
            return getattr(parent, node.attr, None)
    return None


class DirectivesTransformer(ast.NodeTransformer):
    def __init__(self, namespace, local_names):
        self.namespace = namespace
        self.local_names = local_names
        self.loops: list = []  # [loop node, statements visited]

    def _loop(self, node):
        self.loops.append([node, 0])
        self.generic_visit(node)
        self.loops.pop()
        if not node.body:
            node.body = [ast.Pass()]
        return node

    visit_While = visit_For = _loop  # noqa: N815 (ast's visitor names)

    def _count(self, node):
        if self.loops:
            self.loops[-1][1] += 1
        return self.generic_visit(node)

    visit_Assign = visit_AugAssign = _count  # noqa: N815

    def visit_Expr(self, node):  # noqa: N802
        node = self._count(node)
        call = node.value
        if not isinstance(call, ast.Call) or _static_value(call.func, self.namespace, self.local_names) \
                is not set_loop_options:
            return node
        if not self.loops or self.loops[-1][1] > 1:
            raise ValueError('"set_loop_options" must be the first statement in the loop block')
        bound = inspect.signature(set_loop_options).bind(*call.args, **{k.arg: k.value for k in call.keywords})
        self.loops[-1][0].ag_loop_options = dict(bound.arguments)
        return None


def loop_options(node) -> ast.Dict:
    """The ``opts`` dict a loop's ``while_stmt``/``for_stmt`` call receives."""
    options = getattr(node, "ag_loop_options", {})
    return ast.Dict([ast.Constant(k) for k in options], list(options.values()))
