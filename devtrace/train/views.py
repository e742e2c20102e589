"""``tf.train.TrackableView`` (an object's trackable children, as a checkpoint sees them) and
``tf.train.CheckpointView`` (which needs the object graph TensorFlow keeps in a checkpoint,
which devtrace's checkpoints do not keep: it says so)."""

from __future__ import annotations

from ..module.module import Module
from ..runtime.eager.variables import Variable


def _trackable(value) -> bool:
    if isinstance(value, (Variable, Module)):
        return True
    if isinstance(value, (list, tuple)):
        return any(_trackable(v) for v in value)
    if isinstance(value, dict):
        return any(_trackable(v) for v in value.values())
    return hasattr(value, "_trackable_children")


class ListWrapper(list):
    """A list a module or checkpoint holds, as TensorFlow's tracking wraps it (and prints it).
    ``_on_add(index, value)`` (a restored checkpoint's) sees what is appended."""

    _on_add = None

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"

    def append(self, value):
        list.append(self, value)
        if self._on_add is not None:
            self._on_add(len(self) - 1, value)

    def extend(self, values):
        for value in values:
            self.append(value)


def _shown(value):
    return ListWrapper(value) if isinstance(value, list) and not isinstance(value, ListWrapper) else value


def _children(obj) -> dict:
    """``{name: child}`` of a trackable, in the order the attributes were set."""
    if hasattr(obj, "_trackable_children"):  # Keras's layers and optimizers, dataset iterators
        return dict(obj._trackable_children())
    if isinstance(obj, Module):
        return {k: v for k, v in vars(obj).items() if k not in Module._IGNORED and _trackable(v)}
    if isinstance(obj, (list, tuple)):
        return {str(i): v for i, v in enumerate(obj) if _trackable(v)}
    if isinstance(obj, dict):
        return {str(k): v for k, v in obj.items() if _trackable(v)}
    return {}


def _bfs(root, children, kids=None) -> list:
    """Every object reachable from ``root`` through ``children``, breadth first, each once (``kids``
    collects each one's children: a layer's view of its children may be a container made per call)."""
    out, seen, queue = [], set(), [root]
    while queue:
        obj = queue.pop(0)
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        out.append(obj)
        own = children(obj)
        if kids is not None:
            kids.append(own)
        queue.extend(own.values())
    return out


class TrackableView:
    """The trackable children of objects reachable from ``root``, in the order they were set."""

    def __init__(self, root):
        self._root = root

    @property
    def root(self):
        return self._root

    @classmethod
    def children(cls, obj, save_type=None, **kwargs) -> dict:
        return {k: _shown(v) for k, v in _children(obj).items()}

    def descendants(self) -> list:
        """Every trackable reachable from the root (the root first), breadth first, each once."""
        return [_shown(v) for v in _bfs(self._root, _children)]


def object_graph(checkpoint) -> list:
    """The object graph TensorFlow writes for ``checkpoint``: per node (numbered breadth first from
    the root, 0), ``[[child name, child node], …]``. ``Checkpoint(root)``'s root is that object,
    which also lists itself as ``root``; else the checkpoint is, with its keyword objects; both end
    with ``save_counter``."""
    objects = checkpoint._objects
    root = objects.get("root", checkpoint)

    def children(obj):
        if obj is root:
            own = _children(root) if root is not checkpoint else {}
            extra = {k: v for k, v in objects.items() if k != "root"}
            counter = checkpoint._save_counter  # none until saved or asked for
            return {**own, **extra, **({"root": root} if root is not checkpoint else {}),
                    **({"save_counter": counter} if counter is not None else {})}
        return _children(obj)

    kids: list = []
    nodes = _bfs(root, children, kids)
    ids = {id(obj): i for i, obj in enumerate(nodes)}
    return [[[name, ids[id(child)]] for name, child in own.items()] for own in kids]


class CheckpointView:
    """The object graph a checkpoint holds: its nodes' children, and how an object's trackables
    match them."""

    def __init__(self, save_path):
        import json

        try:
            with open(f"{save_path}.index", encoding="utf-8") as f:
                graph = json.load(f).get("objects")
        except (OSError, ValueError):
            graph = None
        if graph is None:
            raise AttributeError("devtrace does not implement tf.train.CheckpointView yet for this checkpoint "
                                 "(it keeps no object graph)")
        self._graph = [dict((name, node) for name, node in children) for children in graph]

    def children(self, node_id) -> dict:
        return dict(self._graph[node_id])

    def descendants(self) -> list:
        out, seen, queue = [], set(), [0]
        while queue:
            node = queue.pop(0)
            if node in seen:
                continue
            seen.add(node)
            out.append(node)
            queue.extend(self._graph[node].values())
        return out

    def match(self, obj) -> dict:
        """``{node: trackable}``: the nodes whose path of names reaches a trackable of ``obj``."""
        matched, queue = {0: obj}, [0]
        while queue:
            node = queue.pop(0)
            here = _children(matched[node])
            for name, child in self._graph[node].items():
                if child not in matched and name in here:
                    matched[child] = here[name]
                    queue.append(child)
        return {node: _shown(value) for node, value in sorted(matched.items())}

    def diff(self, obj) -> tuple:
        """``(match, nodes only in the checkpoint, trackables only in obj)``."""
        matched = self.match(obj)
        raw = {0: obj}
        queue = [0]
        while queue:  # the matched objects themselves (match shows lists wrapped)
            node = queue.pop(0)
            here = _children(raw[node])
            for name, child in self._graph[node].items():
                if child not in raw and name in here:
                    raw[child] = here[name]
                    queue.append(child)
        taken = {id(v) for v in raw.values()}
        only_checkpoint = sorted(set(self.descendants()) - set(matched))
        only_obj = [_shown(v) for v in _bfs(obj, _children) if id(v) not in taken]
        return matched, only_checkpoint, only_obj
