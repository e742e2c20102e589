"""The names a block binds, as the set TensorFlow's activity analysis builds: the same insertions,
copies and unions of sets of ``Sym``/``Composite`` (which hash as its qualified names), so that
iterating it — the ``ag__.Undefined`` lines of a statement — gives TensorFlow's order.

A simple statement binds into a scope of its own, merged into its block's (``update(child - set())``);
an ``if``/``while``/``for`` runs its body and ``else`` from copies of the scope around them and merges
the copies back, as TensorFlow's ``_process_parallel_blocks`` does.
"""

from __future__ import annotations

import ast
import copy

from .symbols import Sym, composite

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


def _bind(node, into: set) -> None:
    """Add the names ``node`` binds, in TensorFlow's visiting order (children first)."""
    if isinstance(node, _NESTED):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            into.add(Sym(node.name))
        return
    for child in ast.iter_child_nodes(node):
        _bind(child, into)
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        into.add(Sym(node.id))
    elif isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load):
        c = composite(node)
        if c is not None:
            into.add(c)
    elif isinstance(node, ast.alias):
        into.add(Sym((node.asname or node.name).split(".")[0]))


def _simple(node, scope: list) -> None:
    child: set = set()
    _bind(node, child)
    scope[0].update(child - set())


def _parallel(scope: list, blocks) -> None:
    before = copy.copy(scope[0])
    afters = []
    for block in blocks:
        scope[0] = copy.copy(before)
        scope[0].update(bound(block) - set())
        afters.append(copy.copy(scope[0]))
    for after in afters:
        scope[0].update(after)


def _statement(stmt, scope: list) -> None:
    if isinstance(stmt, (ast.If, ast.While)):
        _simple(stmt.test, scope)
        _parallel(scope, [stmt.body, stmt.orelse])
    elif isinstance(stmt, ast.For):
        first: set = set()
        _bind(stmt.target, first)
        _bind(stmt.iter, first)
        scope[0].update(first - set())
        scope[0].update(iterate_bound(stmt) - set())
        _parallel(scope, [stmt.body, stmt.orelse])
    elif isinstance(stmt, ast.With):
        inner = [set()]
        for item in stmt.items:
            _simple(item, inner)
        for s in stmt.body:
            _statement(s, inner)
        scope[0].update(inner[0] - set())
    elif isinstance(stmt, ast.Try):
        for s in stmt.body:
            _statement(s, scope)
        for h in stmt.handlers:
            inner = [{Sym(h.name)} if h.name else set()]
            for s in h.body:
                _statement(s, inner)
            scope[0].update(inner[0] - ({Sym(h.name)} if h.name else set()))
        for s in stmt.orelse + stmt.finalbody:
            _statement(s, scope)
    else:
        _simple(stmt, scope)


def bound(stmts) -> set:
    """A block's bound names (its scope's ``bound`` set)."""
    scope = [set()]
    for stmt in stmts:
        _statement(stmt, scope)
    return scope[0]


def iterate_bound(node) -> set:
    """A ``for``'s iterate scope: the names its target binds."""
    out: set = set()
    _bind(node.target, out)
    return out
