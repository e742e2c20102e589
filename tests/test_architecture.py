"""The package's shape, read from its source: rooms import one way, no import cycles (module
level or inside functions), only the tool side prints, and a module holds one concept (a warning,
not a failure, above ~600 lines). ARCHITECTURE.md explains the rules."""

from __future__ import annotations

import ast
import pathlib
import warnings

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "devtrace"
ONE_CONCEPT_LINES = 600  # above this, a module is worth a look: does it hold two concepts?


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


def _room(name: str) -> str:
    return "devtrace." + name


LEAVES = ("devtrace.errors", "devtrace.output", "devtrace.hooks")
GENERATED = "devtrace.generated"
UTIL = "devtrace.util"
TOOL = ("devtrace.cli", "devtrace.terminal", "devtrace.cluster")  # the tool: its commands, what it shows while a program runs, its Ray launcher
API = "devtrace.api"  # the public tf surface: it re-exports the rooms below it
# the rooms that implement TensorFlow's API, lowest first (a room imports only rooms before it)
TF_ROOMS = tuple(_room(r) for r in (
    "platform", "ops", "autograph", "backprop", "module", "polymorphic_function", "framework", "summary", "debug",
    "data", "config", "distribute", "train", "saved_model", "test", "keras"))
ABOVE_RUNTIME = TF_ROOMS + (API,) + TOOL


def _after(room: str, *other_rooms: str) -> bool:
    """Whether ``room`` comes after every one of ``other_rooms`` in ``TF_ROOMS``."""
    return all(TF_ROOMS.index(room) > TF_ROOMS.index(r) for r in other_rooms)


RULES = [
    # (room, what it must not import, why)
    (GENERATED, lambda t: True, "generated tables import nothing (their generators live in tests/tf221_oracle)"),
    (UTIL, lambda t: not _in(t, UTIL, GENERATED), "util sits below everything but the generated tables"),
    ("devtrace.devices", lambda t: not _in(t, "devtrace.devices", *LEAVES), "devices imports nothing above it"),
    ("devtrace.trace", lambda t: _in(t, "devtrace.runtime", *ABOVE_RUNTIME),
     "trace is fed events; it never reaches into the runtime, the tf API or the CLI"),
    ("devtrace.runtime", lambda t: _in(t, *ABOVE_RUNTIME) or (_in(t, "devtrace.trace") and t != "devtrace.trace.events"),
     "the runtime emits events: no CLI, no renderers, nothing of the API above it"),
    ("devtrace.errors", lambda t: t != "devtrace.util.namespace", "a leaf (but for the missing-name error of tf.errors.X)"),
    ("devtrace.output", lambda t: t != "devtrace.errors", "a leaf (but for the error classes it raises)"),
    ("devtrace.hooks", lambda t: True, "a leaf"),
    (API, lambda t: _in(t, *TOOL), "the tf surface never imports the tool"),
] + [
    (room, lambda t, room=room: _in(t, *TOOL, API) and not (room == "devtrace.keras" and t == "devtrace"),
     "the rooms of the tf API never import the tool or the surface that re-exports them "
     "(Keras, a user of TensorFlow, imports the tf namespace as Keras imports tensorflow)")
    for room in TF_ROOMS
] + [
    (room, lambda t, room=room: any(_in(t, r) for r in TF_ROOMS if r != room and not _after(room, r)),
     "a room of the tf API imports only the rooms below it (TF_ROOMS, lowest first)")
    for room in TF_ROOMS
]


@pytest.mark.parametrize("room,forbidden,why", RULES, ids=[f"{r[0]}-{i}" for i, r in enumerate(RULES)])
def test_layers_import_one_way(room, forbidden, why):
    bad = sorted(f"{m} -> {t}" for m, deps in IMPORTS.items() if _in(m, room) for t in deps if forbidden(t))
    assert bad == [], why


def test_the_rules_see_a_forbidden_import():
    ops_rule = next(forbidden for room, forbidden, _ in RULES if room == "devtrace.ops")
    assert ops_rule("devtrace.cli.app") and ops_rule("devtrace.api.namespaces") and not ops_rule("devtrace.runtime.tensor")
    order = [forbidden for room, forbidden, why in RULES if room == "devtrace.ops" and "below" in why][0]
    assert order("devtrace.polymorphic_function.function") and not order("devtrace.platform.tf_logging")


# the rooms that never write to the terminal: what a program prints as TensorFlow would (tf.print,
# Keras's progress bars, TensorFlow's warnings) belongs to the rooms of the tf API; devtrace's own
# output to the tool side (cli, terminal), the trace's renderers and ``output``
SILENT = ("devtrace.runtime", "devtrace.devices", UTIL, GENERATED, "devtrace.hooks", "devtrace.framework",
          "devtrace.data", "devtrace.config", "devtrace.distribute", "devtrace.train", "devtrace.saved_model",
          "devtrace.module", API)


def _prints(tree) -> list[int]:
    """Lines that call ``print`` or touch ``sys.stdout``/``sys.stderr``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            out.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr") \
                and isinstance(node.value, ast.Name) and node.value.id == "sys":
            out.append(node.lineno)
    return out


def test_only_the_tool_side_prints():
    loud = [f"{name}:{line}" for name, path in MODULES.items() if _in(name, *SILENT)
            for line in _prints(ast.parse(path.read_text(encoding="utf-8")))]
    assert loud == []


def test_the_print_finder_finds_prints():
    assert _prints(ast.parse("print(1)\nimport sys\nsys.stderr.write('x')\n")) == [1, 3]


def test_a_module_holds_one_concept():
    """Not a cap: a module above ~600 lines is listed as a warning, to be looked at (one concept,
    or two?). Splitting by length alone is what this replaced."""
    big = {name: n for name, path in MODULES.items()
           if (n := len(path.read_text(encoding="utf-8").splitlines())) > ONE_CONCEPT_LINES}
    if big:
        warnings.warn(f"modules above {ONE_CONCEPT_LINES} lines (one concept each?): {big}", stacklevel=1)


def test_no_room_shadows_a_tensorflow_name():
    """``import devtrace as tf``: importing a room sets it as an attribute of the package, so a room
    named as a TensorFlow name must be that namespace (``tf.data``), never a function or another
    object (``tf.function``, ``tf.nest``)."""
    from devtrace.api import LAZY
    from devtrace.generated.tf_api_names import NAMES

    tensorflow = set(NAMES[""][1].split())
    rooms = {path.stem if path.suffix == ".py" else path.name for path in PACKAGE.iterdir()
             if not path.name.startswith("_") and (path.suffix == ".py" or (path / "__init__.py").exists())}
    bad = sorted(r for r in rooms & tensorflow if LAZY.get(r) != (f"devtrace.{r}", None))
    assert bad == []
