"""``tf.train``: ``Checkpoint``, ``CheckpointManager`` and ``latest_checkpoint``.

A checkpoint saves every variable reachable from the objects given to ``Checkpoint(...)``
(modules, variables, nested checkpoints, lists and dicts of them), keyed by its attribute path
(``model/dense_1/w``), and restores them by the same paths. The files have TensorFlow's names —
``PREFIX.index``, ``PREFIX.data-00000-of-00001`` and the directory's ``checkpoint`` state file —
in devtrace's own format: the index is JSON (``{"format": "devtrace-checkpoint", "version": 1,
"variables": {path: {"dtype", "shape"}}, "objects": [[[child name, child node], …] per node]}``,
the objects being the object graph TensorFlow keeps too: ``views.object_graph``), the data a
NumPy ``.npz`` archive of the values by path. Both are written atomically; a restore is exact
(same dtype, shape and bytes).
"""

from __future__ import annotations

import io
import json
import os
import time

import numpy as np

from ..module.module import Module
from ..runtime.eager.variables import Variable
from ..ops.io.example_proto import (BytesList, Example, Feature, FeatureList, FeatureLists, Features,  # noqa: F401
                                    FloatList, Int64List, SequenceExample)
from ..util.namespace import Namespace, missing
from ..util.reprs import shown_as

from .views import ListWrapper, object_graph
# tf.train.latest_checkpoint; saved_model reads values
from .checkpoint_reading import (DATA_SUFFIX, latest_checkpoint, read_names, read_object_graph, read_values,  # noqa: F401
                                 tensorflow_key)


def _children(obj):
    """``(name, child)`` pairs of a trackable object, in a stable order."""
    if isinstance(obj, Checkpoint):
        return sorted(obj._objects.items())
    if isinstance(obj, dict):
        return sorted((str(k), v) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj)]
    if hasattr(obj, "_trackable_children"):  # Keras's layers and optimizers; a dataset iterator: its position
        return obj._trackable_children()
    if isinstance(obj, Module):
        return sorted((k, v) for k, v in vars(obj).items() if k not in Module._IGNORED)
    return []


def _walk(root) -> list:
    """``(path, object)`` for every object reachable from ``root`` (each one once, depth first)."""
    out, seen = [], {}  # id -> object, held: a layer's view of its children may be a container made per call

    def walk(obj, path):
        if id(obj) in seen:
            return
        seen[id(obj)] = obj
        out.append((path, obj))
        if not isinstance(obj, Variable):
            for name, child in _children(obj):
                walk(child, f"{path}/{name}" if path else name)

    walk(root, "")
    return out


def _variables(root) -> dict:
    """``{path: variable}`` for every variable reachable from ``root`` (each one once)."""
    return {path: obj for path, obj in _walk(root) if isinstance(obj, Variable)}


def _tracked(value):
    """A list given to a checkpoint is tracked as TensorFlow's ``ListWrapper``."""
    return ListWrapper(value) if isinstance(value, list) and not isinstance(value, ListWrapper) else value


class _Saved:
    """A checkpoint's values found by any path to them in its object graph (``mapped/two`` finds the
    value saved as ``listed/1`` when both name one variable), as TensorFlow matches objects."""

    def __init__(self, values: dict, objects):
        self.values, self.objects = values, objects or []
        self.key_of_node = {}
        for key in values:
            node = self._node(key)
            if node is not None:
                self.key_of_node.setdefault(node, key)

    def _node(self, path: str):
        node = 0
        for name in path.split("/"):
            if node >= len(self.objects):
                return None
            node = dict(self.objects[node]).get(name)
            if node is None:
                return None
        return node

    def key(self, path: str):
        """The saved key of the value at ``path``, or ``None``."""
        if path in self.values:
            return path
        return self.key_of_node.get(self._node(path)) if self.objects else None

    def restore(self, obj, prefix: str) -> list:
        """Assign every variable under ``obj`` (at ``prefix``) its saved value; later additions to the
        checkpoints and lists under it are restored when they are added (deferred restoration).
        Returns the saved keys used."""
        used = []
        for path, node in _walk(obj):
            full = f"{prefix}/{path}" if prefix and path else prefix or path
            if isinstance(node, Variable):
                key = self.key(full)
                if key is not None:
                    node.assign(self.values[key])
                    used.append(key)
            elif isinstance(node, Checkpoint):
                object.__setattr__(node, "_deferred", (self, full))
            elif isinstance(node, ListWrapper):
                node._on_add = lambda i, v, full=full: self.restore(v, f"{full}/{i}" if full else str(i))
            elif hasattr(node, "_trackable_children"):  # a Keras layer or optimizer: its variables when it makes them
                object.__setattr__(node, "_deferred_restore", (self, full))
        return used


def _write_atomic_bytes(path: str, data: bytes) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _one_file(options) -> None:
    """devtrace writes one file, synchronously: the options that ask otherwise say so."""
    if options is None:
        return
    for name in ("experimental_sharding_callback", "experimental_enable_async_checkpoint", "enable_async"):
        if getattr(options, name, None):
            raise AttributeError(f"devtrace does not implement tf.train.CheckpointOptions({name}=...) yet")


class CheckpointLoadStatus:
    """What ``restore`` returns: which saved values found a variable."""

    def __init__(self, unused: list, missing: list, names=None, variables=None):
        self._unused, self._missing = unused, missing
        self._names = names or {}  # saved path -> the variable's name when saved (TensorFlow's full_name)
        self._variables = variables or {}  # path -> the variable that found no saved value

    def assert_consumed(self):
        """TensorFlow's texts: the objects no saved value matched, else the first saved value no object
        took (its ``CheckpointPosition``)."""
        self.assert_existing_objects_matched()
        if self._unused:
            path = self._unused[0]
            shown = path[len("root/"):] if path.startswith("root/") else path
            raise AssertionError(
                f"Unresolved object in checkpoint (root).{shown.replace('/', '.')}: attributes {{\n"
                f"  name: \"VARIABLE_VALUE\"\n  full_name: \"{self._names.get(path, shown)}\"\n"
                f"  checkpoint_key: \"{tensorflow_key(path)}\"\n}}\nhas_checkpoint_values {{\n  value: true\n}}\n")
        return self

    def assert_existing_objects_matched(self):
        if self._missing:
            unmatched = [self._variables.get(path, path) for path in self._missing]
            raise AssertionError(f"Found {len(unmatched)} Python objects that were not bound to checkpointed values, "
                                 f"likely due to changes in the Python program. Showing {min(len(unmatched), 10)} of "
                                 f"{len(unmatched)} unmatched objects: {unmatched[:10]}")
        return self

    def expect_partial(self):
        return self


class InitializationOnlyStatus:
    """What ``restore(None)`` returns: nothing was restored; the variables keep their initial values."""

    def _nothing(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    assert_consumed = assert_existing_objects_matched = assert_nontrivial_match = _nothing

    def expect_partial(self):
        return self

    def initialize_or_restore(self, session=None):
        return None

    def run_restore_ops(self, session=None):
        return None


def _full_name(variable) -> str:
    """A variable's name as TensorFlow's object graph keeps it (``full_name``: no ``:0``)."""
    name = getattr(variable, "name", "") or ""
    return name[:-2] if name.endswith(":0") else name


class Checkpoint:
    """``tf.train.Checkpoint(model=..., optimizer=...)``."""

    def __init__(self, root=None, **kwargs):
        objects = {k: _tracked(v) for k, v in kwargs.items()}
        if root is not None:
            objects["root"] = root
        self._objects = objects
        self._deferred = None  # (the restored checkpoint, this one's path in it): restores what is added later
        self._save_counter = None

    @property
    def save_counter(self):
        """Made when first needed (``save``, or read), as TensorFlow's: a ``write`` before has none to save."""
        if self._save_counter is None:
            self._save_counter = Variable(0, name="save_counter", dtype="int64", trainable=False)
        return self._save_counter

    def __setattr__(self, name, value):
        """An attribute is a tracked object (``ckpt.listed = [...]``), restored at once from a
        checkpoint this one was restored from (TensorFlow's deferred restoration)."""
        if name.startswith("_") or name == "save_counter":
            object.__setattr__(self, name, value)
            return
        value = self._objects[name] = _tracked(value)
        if self._deferred is not None:
            saved, path = self._deferred
            saved.restore(value, f"{path}/{name}" if path else name)

    def __getattr__(self, name):
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    def _paths(self) -> dict:
        found = _variables(self)
        if self._save_counter is not None:
            found["save_counter"] = self._save_counter
        return found

    def write(self, file_prefix, options=None) -> str:
        """Write the variables' values to ``file_prefix`` (no numbering, no state file)."""
        _one_file(options)
        file_prefix = os.fspath(file_prefix)
        os.makedirs(os.path.dirname(os.path.abspath(file_prefix)), exist_ok=True)
        variables = self._paths()
        values = {path: v.numpy() for path, v in variables.items()}
        index = {"format": "devtrace-checkpoint", "version": 1,
                 "variables": {p: {"dtype": str(np.asarray(a).dtype), "shape": list(np.shape(a)),
                                   "name": _full_name(variables[p])} for p, a in values.items()},
                 "objects": object_graph(self)}
        buffer = io.BytesIO()
        np.savez(buffer, **{f"v{i}": np.asarray(a) for i, a in enumerate(values.values())})
        _write_atomic_bytes(file_prefix + DATA_SUFFIX, buffer.getvalue())
        _write_atomic_bytes(file_prefix + ".index", json.dumps(index, indent=1).encode())
        return file_prefix

    def save(self, file_prefix, options=None) -> str:
        """``write`` to ``file_prefix-N`` (N: the save counter, incremented) and record it in the
        directory's ``checkpoint`` state file."""
        self.save_counter.assign(self.save_counter.numpy() + 1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter.numpy())}", options)
        _write_state(os.path.dirname(os.path.abspath(path)), [path])
        return path

    def read(self, save_path, options=None) -> CheckpointLoadStatus:
        if save_path is None:
            return InitializationOnlyStatus()
        saved = _Saved(read_values(save_path), read_object_graph(save_path))
        targets = self._paths()
        used = set(saved.restore(self, ""))
        if "save_counter" in saved.values:  # the checkpoint's own counter: numbering goes on from it
            self.save_counter.assign(saved.values["save_counter"])
            used.add("save_counter")
        else:  # made now, as TensorFlow's restore makes it: one more object no saved value matched
            targets["save_counter"] = self.save_counter
        missing = [path for path in targets if saved.key(path) is None]
        return CheckpointLoadStatus(sorted(set(saved.values) - used), sorted(missing), read_names(save_path),
                                    {path: targets[path] for path in missing})

    restore = read


def _write_state(directory: str, paths: list, timestamps=None, preserved=None) -> None:
    """The ``checkpoint`` state file, in TensorFlow's text format (``CheckpointState``)."""
    names = [os.path.relpath(p, directory) for p in paths]
    text = f'model_checkpoint_path: "{names[-1]}"\n' + "".join(f'all_model_checkpoint_paths: "{n}"\n' for n in names)
    text += "".join(f"all_model_checkpoint_timestamps: {t!r}\n" for t in timestamps or ())
    if preserved is not None:
        text += f"last_preserved_timestamp: {preserved!r}\n"
    _write_atomic_bytes(os.path.join(directory, "checkpoint"), text.encode())


def _step_value(step_counter) -> int:
    return int(step_counter.numpy() if hasattr(step_counter, "numpy") else step_counter)


class CheckpointManager:
    """Numbered saves of a checkpoint in a directory, keeping the newest ``max_to_keep``."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None, checkpoint_name="ckpt",
                 step_counter=None, checkpoint_interval=None, init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
        self.checkpoint_interval = checkpoint_interval
        self._step_counter, self._last_checkpoint_step = step_counter, None
        self._keep_hours = keep_checkpoint_every_n_hours
        self._init_fn = init_fn
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._checkpoints: list[str] = []
        self._timestamps: list[float] = []
        self._created = now = time.time()
        from .checkpoint_reading import get_checkpoint_state

        state = get_checkpoint_state(self._directory)
        if state is not None:  # TensorFlow's: a directory's earlier saves are this manager's to keep or delete
            self._created = state.last_preserved_timestamp or now - 1.0
            paths = state.all_model_checkpoint_paths
            stamps = state.all_model_checkpoint_timestamps or [self._created] * len(paths)
            for path, stamp in zip(paths, stamps):
                if min(stamp, now) > self._created:
                    self._checkpoints.append(path)
                    self._timestamps.append(min(stamp, now))

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoints(self) -> list:
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self) -> str | None:
        return self._checkpoints[-1] if self._checkpoints else latest_checkpoint(self._directory)

    def restore_or_initialize(self):
        """Restore the newest checkpoint and return its path; with none, call ``init_fn`` (``None``)."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            if self.checkpoint_interval is not None:
                self._last_checkpoint_step = _step_value(self._step_counter)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def save(self, checkpoint_number=None, check_interval=True, options=None) -> str | None:
        """A numbered save (None when ``checkpoint_interval`` steps have not passed since the last, or
        this step was saved); the oldest beyond ``max_to_keep`` deleted unless
        ``keep_checkpoint_every_n_hours`` preserves it."""
        if self.checkpoint_interval is not None:
            step = _step_value(self._step_counter)
            if self._last_checkpoint_step is not None and (step == self._last_checkpoint_step or check_interval and (
                    step < self._last_checkpoint_step + self.checkpoint_interval)):
                return None
            self._last_checkpoint_step = step
        if checkpoint_number is not None:
            self._checkpoint.save_counter.assign(int(checkpoint_number) - 1)
        path = self._checkpoint.save(self._prefix, options)
        self._checkpoints.append(path)
        self._timestamps.append(time.time())
        while self._max_to_keep is not None and len(self._checkpoints) > self._max_to_keep:
            old = self._checkpoints.pop(0)
            stamp = self._timestamps.pop(0)
            if self._keep_hours and stamp - self._keep_hours * 3600.0 >= self._created:
                self._created = stamp  # TensorFlow's last preserved timestamp: this one is kept on disk
                continue
            for suffix in (".index", DATA_SUFFIX):
                if os.path.exists(old + suffix):
                    os.unlink(old + suffix)
        _write_state(self._directory, self._checkpoints, self._timestamps, self._created)
        return path


from .checkpoint_reading import (CheckpointOptions, checkpoints_iterator, get_checkpoint_state,  # noqa: E402,F401
                                 list_variables, load_checkpoint, load_variable)
from ..distribute.cluster_spec import ClusterDef, ClusterSpec, JobDef, ServerDef  # noqa: E402,F401
from .coordinator import Coordinator  # noqa: E402,F401
from .moving_averages import ExponentialMovingAverage  # noqa: E402,F401
from .views import CheckpointView, TrackableView  # noqa: E402,F401
from . import experimental_api as _experimental  # noqa: E402

experimental = Namespace(_prefix="train.experimental", PythonState=_experimental.PythonState,
                         ShardableTensor=_experimental.ShardableTensor,
                         ShardingCallback=_experimental.ShardingCallback,
                         ShardByTaskPolicy=_experimental.ShardByTaskPolicy,
                         MaxShardSizePolicy=_experimental.MaxShardSizePolicy)

__getattr__ = missing("train")  # a name devtrace lacks says so (util.namespace)

for _cls, _path in ((Checkpoint, "checkpoint.Checkpoint"), (CheckpointLoadStatus, "checkpoint.CheckpointLoadStatus"),
                    (InitializationOnlyStatus, "checkpoint.InitializationOnlyStatus"),
                    (CheckpointManager, "checkpoint_management.CheckpointManager")):
    shown_as(_cls, f"tensorflow.python.checkpoint.{_path}")
