"""Names as AutoGraph's analyses see them: what a statement reads and binds, and the generator
of fresh names (``if_body_1``, ``fscope_1``, ``retval__1`` …).

``Sym`` hashes as TensorFlow's qualified names do (``hash((name, False, False))``), so the sets
AutoGraph iterates (the names of a ``nonlocal`` line, the ``ag__.Undefined`` assignments) come out
in the order TensorFlow prints them.
"""

from __future__ import annotations

import ast

_LOCAL_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class Sym(str):
    """A simple name, hashed like TensorFlow's ``QN`` of it."""

    __slots__ = ()

    def __hash__(self):
        return hash((str(self), False, False))

    __eq__ = str.__eq__


def syms(names) -> set:
    """A set of ``Sym`` built in ``names``' order (the order decides iteration on collisions)."""
    out: set = set()
    for n in names:
        out.add(Sym(n))
    return out


class Namer:
    """Fresh names: ``root``, then ``root_1``, ``root_2`` … avoiding the namespace, the names a
    block references and every name already generated."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.generated: set = set()

    def new_symbol(self, root: str, reserved) -> str:
        pieces = root.split("_")
        n = 0
        if pieces[-1].isdigit():
            root, n = "_".join(pieces[:-1]), int(pieces[-1])
        name = root
        while name in self.namespace or name in reserved or name in self.generated:
            n += 1
            name = f"{root}_{n}"
        self.generated.add(name)
        return name


def _arg_names(args: ast.arguments) -> list:
    every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
    return [a.arg for a in every]


def function_free_reads(node) -> list:
    """The names a nested function (or lambda) reads from around it."""
    reads: list = []
    writes: list = []
    body = node.body if isinstance(node.body, list) else [node.body]
    for stmt in body:
        collect(stmt, reads, writes)
    local = set(writes) | set(_arg_names(node.args))
    return [n for n in reads if n not in local]


def collect(node, reads: list, writes: list) -> None:
    """Append the names ``node`` reads and binds (in source order), not entering nested scopes
    except for what they read from around them."""
    if isinstance(node, ast.Name):
        (reads if isinstance(node.ctx, ast.Load) else writes).append(node.id)
    elif isinstance(node, _DEFS):
        for d in node.decorator_list:
            collect(d, reads, writes)
        if not isinstance(node, ast.ClassDef):
            for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                collect(d, reads, writes)
            reads.extend(function_free_reads(node))
        writes.append(node.name)
    elif isinstance(node, ast.Lambda):
        for d in node.args.defaults:
            collect(d, reads, writes)
        reads.extend(function_free_reads(node))
    elif isinstance(node, _LOCAL_SCOPES):
        inner_reads: list = []
        inner_writes: list = []
        for child in ast.iter_child_nodes(node):
            collect(child, inner_reads, inner_writes)
        reads.extend(n for n in inner_reads if n not in inner_writes)
    elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        reads.append(node.target.id)
        writes.append(node.target.id)
        collect(node.value, reads, writes)
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        return
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        writes.extend((a.asname or a.name).split(".")[0] for a in node.names)
    else:
        for child in ast.iter_child_nodes(node):
            collect(child, reads, writes)


def reads_writes(node) -> tuple:
    reads: list = []
    writes: list = []
    collect(node, reads, writes)
    return reads, writes


def block_writes(stmts) -> list:
    """The names a block binds, first binding first."""
    writes: list = []
    for stmt in stmts:
        collect(stmt, [], writes)
    return list(dict.fromkeys(writes))


class Composite(str):
    """An attribute or item a block assigns (``m.w``, ``d[i]``), hashed like TensorFlow's ``QN``;
    ``support`` holds the names it is made of."""

    __slots__ = ("support", "key")

    def __hash__(self):
        return hash(self.key)

    __eq__ = str.__eq__


class _Composite:
    """The hash of TensorFlow's ``QN`` of ``a.b`` / ``a[i]``: ``(base, attr, True, False)`` or
    ``(base, index, False, True)``, a simple name hashing as its ``Sym``."""

    def __init__(self, key):
        self.key = key

    def __hash__(self):
        return hash(self.key)


def _qn(node):
    if isinstance(node, ast.Name):
        return Sym(node.id)
    if isinstance(node, ast.Attribute):
        return _Composite((_qn(node.value), node.attr, True, False))
    index = node.slice.value if isinstance(node.slice, ast.Constant) else _qn(node.slice)
    return _Composite((_qn(node.value), index, False, True))


def _support(node):
    """The names an assignable ``a.b`` / ``a[i]`` is made of (``None``: not a qualified name)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return _support(node.value)
    if isinstance(node, ast.Subscript):
        base = _support(node.value)
        index = node.slice
        if base is None:
            return None
        if isinstance(index, ast.Constant):
            return base
        inner = _support(index)
        return None if inner is None else base + inner
    return None


def composite(node):
    """The ``Composite`` an assigned ``a.b`` / ``a[i]`` is (``None``: not a qualified name)."""
    support = _support(node)
    if support is None:
        return None
    c = Composite(ast.unparse(node))
    c.support, c.key = support, _qn(node).key
    return c


def reads(function) -> set:
    """The names a function reads, and the attribute names of the qualified names it reads: what
    TensorFlow's namer keeps clear of (a scope's ``referenced``, its reads and its parents')."""
    names: set = set()
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and _support(n) is not None:
            names.add(n.attr)
    return names


def declared(function, kind) -> set:
    """The names ``function`` declares ``global`` (kind ``ast.Global``) or ``nonlocal``."""
    out: set = set()
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, kind):
            out.update(node.names)
        if not isinstance(node, _DEFS + _LOCAL_SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return out


def params(function) -> list:
    return _arg_names(function.args)
