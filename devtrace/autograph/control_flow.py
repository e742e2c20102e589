"""``if``/``while``/``for`` become calls of ``ag__.if_stmt``/``while_stmt``/``for_stmt``
(TensorFlow's control_flow converter): the branches, the loop's body and test are functions that
share the statement's variables through ``nonlocal``, and ``get_state``/``set_state`` read and
write them. A variable the statement assigns is part of its state when it is live into or out of
the statement; outputs first, then by name; one assigned before the statement only on some paths
is set to ``ag__.Undefined`` first.
"""

from __future__ import annotations

import ast

from . import scopes, templates
from .directives import loop_options
from .loops_canon import Block
from .symbols import Composite, declared, syms


def _guarded(name):
    if not isinstance(name, Composite):
        return ast.Name(str(name), ast.Load())
    return templates.replace_as_expression("ag__.ldu(lambda: var_, name)", var_=_target(name),
                                           name=ast.Constant(str(name)))


def _target(name):
    return str(name) if not isinstance(name, Composite) else ast.parse(str(name), mode="eval").body


class ControlFlowTransformer(Block):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.functions: list = []  # (globals, nonlocals) per function

    def visit_FunctionDef(self, node):  # noqa: N802 (ast's visitor names)
        self.functions.append((declared(node, ast.Global), declared(node, ast.Nonlocal)))
        self.generic_visit(node)
        self.functions.pop()
        return node

    def _nonlocals(self, names) -> list:
        names = set(names)
        globals_ = syms(n for n in names if str(n) in self.functions[-1][0])
        out: list = []
        if globals_:
            out.append(ast.Global([str(v) for v in globals_]))
        rest = [str(v) for v in names if v not in globals_ and not isinstance(v, Composite)]
        if rest:
            out.append(ast.Nonlocal(rest))
        return out

    def _state_functions(self, names, nonlocals, getter, setter) -> list:
        if not names:
            return templates.replace("""
                def getter_name():
                    return ()
                def setter_name(block_vars):
                    pass
                """, getter_name=getter, setter_name=setter)
        return templates.replace("""
            def getter_name():
                return guarded_state_vars,
            def setter_name(vars_):
                nonlocal_declarations
                state_vars, = vars_
            """, getter_name=getter, setter_name=setter, nonlocal_declarations=nonlocals,
                                 guarded_state_vars=[_guarded(n) for n in names],
                                 state_vars=tuple(_target(n) for n in names))

    def _block_vars(self, node, modified: set):
        """``(state names, undefined names, number of outputs)`` of a statement."""
        globals_, nonlocals = self.functions[-1]
        live_in = set(map(str, node.ag_live_in)) | node.ag_functions_in
        live_out = set(map(str, node.ag_live_out)) | node.ag_functions_out
        simple = [s for s in modified if not isinstance(s, Composite)]
        basic = frozenset(s for s in simple if str(s) in live_in | live_out | nonlocals)
        composite = frozenset(s for s in modified if isinstance(s, Composite) and set(s.support) <= live_in)
        possibly = modified - syms(node.ag_defined_in) - syms(globals_) - syms(nonlocals)  # TF's set operations
        undefined = [s for s in possibly if not isinstance(s, Composite)]
        input_only = frozenset(s for s in basic if str(s) in live_in - live_out)
        names = sorted(basic | composite, key=lambda s: (s in input_only, s))
        return names, tuple(undefined), len(names) - len(input_only)

    @staticmethod
    def _undefined_assigns(undefined) -> list:
        out: list = []
        for s in undefined:
            out += templates.replace("var = ag__.Undefined(symbol_name)", var=str(s), symbol_name=ast.Constant(str(s)))
        return out

    def _prologue(self, node, modified, reserved):
        names, undefined, nouts = self._block_vars(node, modified)
        nonlocals = self._nonlocals(names)
        getter = self.ctx.namer.new_symbol("get_state", reserved)
        setter = self.ctx.namer.new_symbol("set_state", reserved)
        state = self._state_functions(names, nonlocals, getter, setter)
        symbol_names = ast.Tuple([ast.Constant(str(s)) for s in names], ast.Load())
        return names, undefined, nouts, nonlocals, getter, setter, state, symbol_names

    def visit_If(self, node):  # noqa: N802
        modified = scopes.bound(node.body) | scopes.bound(node.orelse)
        reserved = self.ctx.reserved
        self.generic_visit(node)
        names, undefined, nouts, nonlocals, getter, setter, state, symbol_names = \
            self._prologue(node, modified, reserved)
        new = templates.replace("""
            state_functions
            def body_name():
                nonlocal_declarations
                body
            def orelse_name():
                nonlocal_declarations
                orelse
            undefined_assigns
            ag__.if_stmt(test, body_name, orelse_name, state_getter_name, state_setter_name, (symbol_names,), nouts)
            """, body=node.body, body_name=self.ctx.namer.new_symbol("if_body", reserved),
                                orelse=node.orelse or [ast.Pass()],
                                orelse_name=self.ctx.namer.new_symbol("else_body", reserved),
                                nonlocal_declarations=nonlocals, nouts=ast.Constant(nouts), state_functions=state,
                                state_getter_name=getter, state_setter_name=setter, symbol_names=symbol_names.elts,
                                test=node.test, undefined_assigns=self._undefined_assigns(undefined))
        return templates.locate(new, node)

    def visit_While(self, node):  # noqa: N802
        reserved = self.ctx.reserved
        modified = scopes.bound(node.body)
        self.generic_visit(node)
        names, undefined, _, nonlocals, getter, setter, state, symbol_names = \
            self._prologue(node, modified, reserved)
        new = templates.replace("""
            state_functions
            def body_name():
                nonlocal_declarations
                body
            def test_name():
                return test
            undefined_assigns
            ag__.while_stmt(test_name, body_name, state_getter_name, state_setter_name, (symbol_names,), opts)
            """, body=node.body, body_name=self.ctx.namer.new_symbol("loop_body", reserved),
                                nonlocal_declarations=nonlocals, opts=loop_options(node), state_functions=state,
                                state_getter_name=getter, state_setter_name=setter, symbol_names=symbol_names.elts,
                                test=node.test, test_name=self.ctx.namer.new_symbol("loop_test", reserved),
                                undefined_assigns=self._undefined_assigns(undefined))
        return templates.locate(new, node)

    def visit_For(self, node):  # noqa: N802
        reserved = self.ctx.reserved
        modified = scopes.bound(node.body) | scopes.iterate_bound(node)
        self.generic_visit(node)
        names, undefined, _, nonlocals, getter, setter, state, symbol_names = self._prologue(node, modified, reserved)
        opts = loop_options(node)
        opts.keys.append(ast.Constant("iterate_names"))
        opts.values.append(ast.Constant(ast.unparse(node.target)))
        extra = getattr(node, "ag_extra_test", None)
        extra_function: list = []
        extra_name = ast.Constant(None)
        if extra is not None:
            extra_name = self.ctx.namer.new_symbol("extra_test", reserved)
            extra_function = templates.replace("def extra_test_name():\n    nonlocal_declarations\n    return extra_test_expr",
                                               extra_test_name=extra_name, nonlocal_declarations=nonlocals,
                                               extra_test_expr=extra)
        itr = self.ctx.namer.new_symbol("itr", reserved)
        expansion = templates.locate(templates.replace("iterates = iterate_arg_name", iterates=node.target,
                                                       iterate_arg_name=itr), node)
        new = templates.replace("""
            state_functions
            def body_name(iterate_arg_name):
                nonlocal_declarations
                iterate_expansion
                body
            extra_test_function
            undefined_assigns
            ag__.for_stmt(iterated, extra_test_name, body_name, state_getter_name, state_setter_name, (symbol_names,), opts)
            """, body=node.body, body_name=self.ctx.namer.new_symbol("loop_body", reserved),
                                extra_test_function=extra_function, extra_test_name=extra_name,
                                iterate_arg_name=itr, iterate_expansion=expansion, iterated=node.iter,
                                nonlocal_declarations=nonlocals, opts=opts, symbol_names=symbol_names.elts,
                                state_functions=state, state_getter_name=getter, state_setter_name=setter,
                                undefined_assigns=self._undefined_assigns(undefined))
        return templates.locate(new, node)

