"""The static analyses AutoGraph's control-flow conversion reads, on the function's statements
(after ``break``, ``continue`` and ``return`` became flags, so blocks are structured): for each
``if``/``while``/``for``, the names live into it (``ag_live_in``), live after it
(``ag_live_out``) and possibly defined before it (``ag_defined_in``).

Liveness follows TensorFlow's statement-level graph: an ``if`` is live-in at its test, a loop at
its test (``while``) or its iterate (``for``), whose back edge makes the loop a fixed point; a
function defined inside counts as reading its free names where it is defined. Definitions reach
a loop only from before it (its own body's come back through the back edge).
"""

from __future__ import annotations

import ast

from .symbols import block_writes, function_free_reads, params, reads_writes

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _header(stmt):
    """What a compound statement's header reads and binds: ``(reads, writes)``."""
    if isinstance(stmt, (ast.If, ast.While)):
        return reads_writes(stmt.test)
    if isinstance(stmt, ast.For):
        reads, _ = reads_writes(stmt.iter)
        return reads, reads_writes(stmt.target)[1]
    if isinstance(stmt, ast.With):
        reads: list = []
        writes: list = []
        for item in stmt.items:
            r, w = reads_writes(item)
            reads += r
            writes += w
        return reads, writes
    return [], []


def live(stmts, out: set, raised: frozenset = frozenset()) -> set:
    """The names live into ``stmts`` when ``out`` is live after them (and ``raised`` after each of
    them: what a ``try``'s handlers read, which any statement of its body may raise into)."""
    for stmt in reversed(stmts):
        out = _live_stmt(stmt, out | raised)
    return out


def _ends_in_raise(stmts) -> bool:
    return bool(stmts) and isinstance(stmts[-1], ast.Raise)


def _live_loop(stmt, out: set) -> set:
    exit_ = live(stmt.orelse, out)
    reads, writes = _header(stmt)
    head: set = set()
    while True:
        body_in = live(stmt.body, head)
        if isinstance(stmt, ast.For):
            new = set(reads) | ((body_in | exit_) - set(writes))
        else:
            new = set(reads) | body_in | exit_
        if new == head:
            break
        head = new
    stmt.ag_live_out, stmt.ag_live_in = frozenset(exit_), frozenset(head)
    return head


def _live_stmt(stmt, out: set) -> set:
    if isinstance(stmt, ast.If):
        live_in = set(_header(stmt)[0]) | live(stmt.body, out) | live(stmt.orelse, out)
        stmt.ag_live_out, stmt.ag_live_in = frozenset(out), frozenset(live_in)
        return live_in
    if isinstance(stmt, (ast.While, ast.For)):
        return _live_loop(stmt, out)
    if isinstance(stmt, ast.Try):  # any statement of the body may raise into the handlers
        after = live(stmt.finalbody, out)
        handlers: set = set()
        for h in stmt.handlers:
            handlers |= live(h.body, set() if _ends_in_raise(h.body) else after) - {h.name}
        return live(stmt.body, live(stmt.orelse, after), frozenset(handlers))
    if isinstance(stmt, ast.With):
        reads, writes = _header(stmt)
        return set(reads) | (live(stmt.body, out) - set(writes))
    if isinstance(stmt, _FUNCTIONS):
        live(stmt.body, set())
    reads, writes = reads_writes(stmt)
    if isinstance(stmt, (ast.Return, ast.Raise)):
        return set(reads)
    return set(reads) | (out - set(writes))


def defined(stmts, before: set) -> set:
    """The names possibly defined after ``stmts`` when ``before`` are defined before them (none
    after a ``raise`` or ``return``: nothing flows on from it)."""
    for stmt in stmts:
        before = _defined_stmt(stmt, before)
        if isinstance(stmt, (ast.Raise, ast.Return)):
            return set()
    return before


def _defined_stmt(stmt, before: set) -> set:
    if isinstance(stmt, ast.If):
        stmt.ag_defined_in = frozenset(before)
        return defined(stmt.body, before) | defined(stmt.orelse, before)
    if isinstance(stmt, (ast.While, ast.For)):
        stmt.ag_defined_in = frozenset(before)
        entry = before | set(_header(stmt)[1])
        inner = defined(stmt.body, entry)
        inner = defined(stmt.body, entry | inner)  # the back edge
        return defined(stmt.orelse, before | inner)
    if isinstance(stmt, ast.Try):  # a handler may start after any statement of the body
        after = defined(stmt.orelse, defined(stmt.body, before))
        raised = before | set(block_writes(stmt.body))
        for h in stmt.handlers:
            after |= defined(h.body, raised | ({h.name} if h.name else set()))
        return defined(stmt.finalbody, after)
    if isinstance(stmt, ast.With):
        return defined(stmt.body, before | set(_header(stmt)[1]))
    if isinstance(stmt, _FUNCTIONS):
        _annotate(stmt, before)
        return before | {stmt.name}
    return before | set(reads_writes(stmt)[1])


def _reaching_functions(function) -> None:
    """Mark each ``if``/``while``/``for`` with the free names of the functions that reach it: they are
    live there (a call of the function may read them). Those defined before it reach its entry; those
    defined inside it too reach what follows it (and a loop's head, through its back edge)."""
    reads: set = set()
    stack = list(reversed(function.body))
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):  # the end of a statement's block: what was defined inside reaches on
            node[0].ag_functions_out = frozenset(reads)
            if not isinstance(node[0], ast.If):
                node[0].ag_functions_in = node[0].ag_functions_out
            continue
        if isinstance(node, _FUNCTIONS):
            reads |= set(function_free_reads(node))
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, (ast.If, ast.While, ast.For)):
            node.ag_functions_in = frozenset(reads)
            stack.append((node,))
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _annotate(function, outer: set) -> None:
    defined(function.body, set(outer) | set(params(function)))
    live(function.body, set())
    _reaching_functions(function)


def annotate(function) -> None:
    """Annotate the function's (and its nested functions') ``if``/``while``/``for`` statements."""
    _annotate(function, set())

