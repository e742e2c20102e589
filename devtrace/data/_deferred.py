"""Datasets a traced dataset function makes (``flat_map``'s, ``interleave``'s, ``group_by_window``'s
reduce function): TensorFlow traces such a function once, its Python body seeing graph tensors, and
the dataset it returns is a graph value instantiated per element from the tensors it was made of.

Here the function is traced once too (``DatasetFunction``); a dataset made there from graph tensors
(``from_tensor_slices(x)``, ``range(x)``, ``from_tensors(x)``, the ``window`` a reduce function is
given) is a *template*: its source reads those tensors' values from the binding of the element being
expanded (``value``), which ``iterate`` puts in place around each step of the element's dataset —
so several of them (``interleave``'s cycle) can be open at once. ``recording`` collects, while the
function is traced, the graph tensors the datasets it makes are made of: they become the traced
graph's outputs, computed per element.
"""

from __future__ import annotations

import contextlib
import dataclasses

from ..runtime.graph import func_graph
from ..runtime.graph.tensor import SymbolicTensor


class Unbound(RuntimeError):
    """A template dataset's source read outside an element's binding (a dataset made of a traced
    function's tensors and iterated while the function is traced): the function then runs eagerly."""


_BOUND = [None]  # {id(graph tensor or window marker): its value for the element being expanded}
_MADE_OF = [None]  # while a dataset function is traced: the graph tensors its datasets are made of


def holds_symbolic(structure) -> bool:
    if isinstance(structure, dict):
        return any(holds_symbolic(v) for v in structure.values())
    if isinstance(structure, (list, tuple)):
        return any(holds_symbolic(v) for v in structure)
    return isinstance(structure, SymbolicTensor)


def captured(graph) -> bool:
    """A function traced inside a dataset function that captured the enclosing trace's tensors: they
    join what the enclosing function's datasets are made of (their values bound per element)."""
    outer = [value for value, _ in graph.captures.values() if isinstance(value, SymbolicTensor)]
    if outer and _MADE_OF[0] is not None:
        made_of(outer, source=False)
    return bool(outer)


@dataclasses.dataclass
class Recording:
    """What a dataset function's trace made: the graph tensors its datasets are made of, and how
    many source datasets it made of them (TensorFlow's graph then ends its body with a ``NoOp``)."""
    tensors: list = dataclasses.field(default_factory=list)
    sources: int = 0


def made_of(tensors, source=True) -> None:
    """The graph tensors a dataset being made reads (``source``: a source dataset's); outside a
    dataset function's trace (a dataset made of a ``tf.function``'s tensors) devtrace has no way to
    run it."""
    recorded = _MADE_OF[0]
    if recorded is None:
        raise NotImplementedError("devtrace does not implement a tf.data.Dataset made from a tf.function's "
                                  "tensors yet")
    recorded.sources += bool(source)
    for t in tensors:
        if isinstance(t, SymbolicTensor) and all(t is not r for r in recorded.tensors):
            recorded.tensors.append(t)


@contextlib.contextmanager
def recording():
    """Collect what the datasets made inside are made of (the ``Recording`` yielded)."""
    saved, _MADE_OF[0] = _MADE_OF[0], Recording()
    func_graph.ENCLOSING_CAPTURES[0] += 1
    try:
        yield _MADE_OF[0]
    finally:
        _MADE_OF[0] = saved
        func_graph.ENCLOSING_CAPTURES[0] -= 1


def value(key):
    """The bound value of a graph tensor (a host array) or of a window marker (a dataset)."""
    values = _BOUND[0]
    if values is None or id(key) not in values:
        raise Unbound("a dataset made inside a dataset function was iterated while the function is traced")
    return values[id(key)]


def iterate(source, values):
    """The elements of a template dataset's ``source`` with ``values`` bound around each step (over
    the bindings around this call: a template inside another's expansion reads both)."""
    if _BOUND[0]:
        values = {**_BOUND[0], **values}
    saved, _BOUND[0] = _BOUND[0], values
    try:
        it = iter(source())
    finally:
        _BOUND[0] = saved
    yield from each_with(_BOUND, values, it)


def each_with(slot, value, it):
    """``it``'s elements, ``slot[0]`` set to ``value`` while each one is computed and restored between
    them: a pipeline's generators run only inside ``next``, so its functions see ``value`` and the
    consumer's code between elements does not."""
    while True:
        saved, slot[0] = slot[0], value
        try:
            element = next(it)
        except StopIteration:
            return
        finally:
            slot[0] = saved
        yield element
