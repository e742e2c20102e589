"""The package's shape, read from its source: layers import one way, no import cycles (module
level or inside functions), small modules and functions. ARCHITECTURE.md explains the rules."""

from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "devtrace"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _targets(module: str, node) -> list[str]:
    """The devtrace modules an import statement loads (a submodule when it names one)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        package = module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]
        base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module
    return [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target for a in node.names]


def _imports() -> dict[str, set[str]]:
    graph = {}
    for module, path in MODULES.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps.update(t for t in _targets(module, node) if t in MODULES and t != module)
        graph[module] = deps
    return graph


IMPORTS = _imports()


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def _in(module: str, *rooms: str) -> bool:
    return any(module == room or module.startswith(room + ".") for room in rooms)


def test_the_import_reader_sees_imports_inside_functions():
    assert "devtrace.runtime.backends" in IMPORTS["devtrace.runtime.devices"]  # imported in Device.backend
    assert "devtrace.terminal.console" in IMPORTS["devtrace.cli._program"]


def test_no_import_cycles():
    assert _cycles(IMPORTS) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


LEAVES = ("devtrace.errors", "devtrace.output", "devtrace.hooks")

RULES = [
    # (room, what it must not import, why)
    ("devtrace.devices", lambda t: not _in(t, "devtrace.devices", *LEAVES), "devices imports nothing above it"),
    ("devtrace.trace", lambda t: _in(t, "devtrace.cli", "devtrace.runtime", "devtrace.ops", "devtrace.terminal.console"),
     "trace is fed events; it never reaches into the runtime or the CLI"),
    ("devtrace.runtime", lambda t: _in(t, "devtrace.cli", "devtrace.terminal.console", "devtrace.ops", "devtrace.api.namespaces",
                                       "devtrace.config", "devtrace.api.namespaces.compat", "devtrace.distribute")
     or (_in(t, "devtrace.trace") and t != "devtrace.trace.events"),
     "the runtime emits events: no CLI, no renderers, nothing of the API above it"),
    ("devtrace.ops", lambda t: _in(t, "devtrace.cli", "devtrace.terminal.console", "devtrace.api.namespaces"), "ops sit below the API"),
    ("devtrace.errors", lambda t: True, "a leaf"),
    ("devtrace.output", lambda t: t != "devtrace.errors", "a leaf (but for the error classes it raises)"),
    ("devtrace.hooks", lambda t: True, "a leaf"),
]


@pytest.mark.parametrize("room,forbidden,why", RULES, ids=[r[0] for r in RULES])
def test_layers_import_one_way(room, forbidden, why):
    bad = sorted(f"{m} -> {t}" for m, deps in IMPORTS.items() if _in(m, room) for t in deps if forbidden(t))
    assert bad == [], why


def test_modules_are_small():
    big = {name: n for name, path in MODULES.items()
           if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert big == {}


def test_functions_are_short():
    long = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long.append(f"{name}.{node.name}: {n} lines")
    assert long == []
