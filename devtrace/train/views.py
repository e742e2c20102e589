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
    """A list a module holds, as TensorFlow's tracking wraps it (and prints it)."""

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


def _children(obj) -> dict:
    if isinstance(obj, Module):
        return {k: ListWrapper(v) if isinstance(v, list) else v for k, v in vars(obj).items()
                if k not in Module._IGNORED and _trackable(v)}
    if isinstance(obj, (list, tuple)):
        return {str(i): v for i, v in enumerate(obj) if _trackable(v)}
    if isinstance(obj, dict):
        return {str(k): v for k, v in obj.items() if _trackable(v)}
    if hasattr(obj, "_trackable_children"):
        return dict(obj._trackable_children())
    objects = getattr(obj, "_objects", None)  # a tf.train.Checkpoint
    return dict(objects) if isinstance(objects, dict) else {}


class TrackableView:
    """The trackable children of objects reachable from ``root``, in the order they were set."""

    def __init__(self, root):
        self._root = root

    @property
    def root(self):
        return self._root

    @classmethod
    def children(cls, obj, save_type=None, **kwargs) -> dict:
        return _children(obj)

    def descendants(self) -> list:
        """Every trackable reachable from the root (the root first), breadth first, each once."""
        out, seen, queue = [], set(), [self._root]
        while queue:
            obj = queue.pop(0)
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            out.append(obj)
            queue.extend(_children(obj).values())
        return out


class CheckpointView:
    def __init__(self, save_path):
        raise AttributeError("devtrace does not implement tf.train.CheckpointView yet (devtrace's checkpoints "
                             "keep no object graph)")
