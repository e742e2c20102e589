"""Reading checkpoints as ``tf.train`` does: ``load_checkpoint`` (a ``CheckpointReader``),
``list_variables``, ``load_variable``, ``get_checkpoint_state``, ``checkpoints_iterator``.

devtrace's checkpoints key a variable by its attribute path (``model/dense/w``); the reader
answers with TensorFlow's keys for the same object graph (``model/dense/w/.ATTRIBUTES/
VARIABLE_VALUE``; a root object given as ``Checkpoint(root)`` adds no prefix) and lists the
object-graph entry TensorFlow writes (``_CHECKPOINTABLE_OBJECT_GRAPH``) too."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import NotFoundError
from ..runtime import dtypes

DATA_SUFFIX = ".data-00000-of-00001"
OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"
SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
ITERATOR_STATE = "/.ATTRIBUTES/ITERATOR_STATE"  # a dataset iterator's position (data's Iterator names it)


def read_values(save_path) -> dict:
    """``{path: array}`` of a checkpoint; TensorFlow's ``NotFoundError`` when there is none."""
    save_path = os.fspath(save_path)
    try:
        with open(save_path + ".index", encoding="utf-8") as f:
            index = json.load(f)
        with np.load(save_path + DATA_SUFFIX) as data:
            arrays = [data[f"v{i}"] for i in range(len(index["variables"]))]
    except (OSError, ValueError, KeyError):
        raise NotFoundError(f"Error when restoring from checkpoint or SavedModel at {save_path}: Unsuccessful "
                            f"TensorSliceReader constructor: Failed to find any matching files for "
                            f"{save_path}") from None
    return dict(zip(index["variables"], arrays))


def read_names(save_path) -> dict:
    """``{path: the variable's name when saved}`` of a devtrace checkpoint (empty for older ones)."""
    try:
        with open(os.fspath(save_path) + ".index", encoding="utf-8") as f:
            variables = json.load(f).get("variables", {})
    except (OSError, ValueError):
        return {}
    return {path: entry["name"] for path, entry in variables.items() if isinstance(entry, dict) and "name" in entry}


def read_object_graph(save_path):
    """The object graph a devtrace checkpoint's index keeps (``views.object_graph``), or ``None``."""
    try:
        with open(os.fspath(save_path) + ".index", encoding="utf-8") as f:
            return json.load(f).get("objects")
    except (OSError, ValueError):
        return None


def latest_checkpoint(checkpoint_dir) -> str | None:
    """The newest checkpoint the directory's ``checkpoint`` state file names, or ``None``."""
    try:
        with open(os.path.join(os.fspath(checkpoint_dir), "checkpoint"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r'^model_checkpoint_path: "(.*)"$', text, re.M)
    if m is None:
        return None
    path = os.path.join(os.fspath(checkpoint_dir), m.group(1))
    return path if os.path.exists(path + ".index") else None


def tensorflow_key(path: str) -> str:
    """TensorFlow's checkpoint key of the variable devtrace saved under ``path`` (a dataset iterator's
    position is its ``.ATTRIBUTES/ITERATOR_STATE``)."""
    path = path[len("root/"):] if path.startswith("root/") else path
    return path if path.endswith(ITERATOR_STATE) else path + SUFFIX


@dataclass
class CheckpointState:
    """The directory's ``checkpoint`` file (``CheckpointState`` in TensorFlow's text format)."""

    model_checkpoint_path: str = ""
    all_model_checkpoint_paths: list = field(default_factory=list)
    all_model_checkpoint_timestamps: list = field(default_factory=list)
    last_preserved_timestamp: float = 0.0

    def __str__(self):
        text = f'model_checkpoint_path: "{self.model_checkpoint_path}"\n'
        text += "".join(f'all_model_checkpoint_paths: "{p}"\n' for p in self.all_model_checkpoint_paths)
        text += "".join(f"all_model_checkpoint_timestamps: {t!r}\n" for t in self.all_model_checkpoint_timestamps)
        if self.last_preserved_timestamp:
            text += f"last_preserved_timestamp: {self.last_preserved_timestamp!r}\n"
        return text

    __repr__ = __str__


def get_checkpoint_state(checkpoint_dir, latest_filename=None) -> CheckpointState | None:
    """The state the directory's ``checkpoint`` file holds (relative paths made absolute), or ``None``."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    try:
        with open(os.path.join(checkpoint_dir, latest_filename or "checkpoint"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None

    def absolute(p):
        return p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)

    state = CheckpointState()
    for key, value in re.findall(r"^(\w+): (.*)$", text, re.M):
        if key == "model_checkpoint_path":
            state.model_checkpoint_path = absolute(value.strip('"'))
        elif key == "all_model_checkpoint_paths":
            state.all_model_checkpoint_paths.append(absolute(value.strip('"')))
        elif key == "all_model_checkpoint_timestamps":
            state.all_model_checkpoint_timestamps.append(float(value))
        elif key == "last_preserved_timestamp":
            state.last_preserved_timestamp = float(value)
    return state


def _prefix(ckpt_dir_or_file) -> str:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        state = get_checkpoint_state(path)
        if state is None or not state.model_checkpoint_path:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return state.model_checkpoint_path
    return path


class CheckpointReader:
    """``tf.train.load_checkpoint``'s reader: the saved values by TensorFlow's keys."""

    def __init__(self, prefix: str):
        try:
            saved = read_values(prefix)
        except NotFoundError:
            raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files "
                                f"for {prefix}") from None
        self._values = {tensorflow_key(path): value for path, value in saved.items()}

    def get_variable_to_shape_map(self) -> dict:
        return {OBJECT_GRAPH: [], **{k: list(v.shape) for k, v in self._values.items()}}

    def get_variable_to_dtype_map(self) -> dict:
        return {OBJECT_GRAPH: dtypes.string, **{k: dtypes.as_dtype(v.dtype) for k, v in self._values.items()}}

    def has_tensor(self, name) -> bool:
        return name in self._values or name == OBJECT_GRAPH

    def get_tensor(self, name):
        if name == OBJECT_GRAPH:
            raise AttributeError(f"devtrace does not implement tf.train.load_checkpoint(...).get_tensor"
                                 f"('{OBJECT_GRAPH}') yet (its checkpoints keep no TrackableObjectGraph proto)")
        if name not in self._values:
            raise NotFoundError(f"Key {name} not found in checkpoint")
        value = self._values[name]
        return value[()] if value.ndim == 0 else value


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file) -> list:
    """``[(key, shape)]`` sorted by key."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Each new checkpoint of the directory as it appears; stops after ``timeout`` seconds with
    none (unless ``timeout_fn`` says to go on)."""
    checkpoint_path = None
    while True:
        deadline = None if timeout is None else time.time() + timeout
        while True:
            new = latest_checkpoint(checkpoint_dir)
            if new is not None and new != checkpoint_path:
                break
            if deadline is not None and time.time() + 1 > deadline:
                new = None
                break
            time.sleep(1)
        if new is None:
            if not timeout_fn or timeout_fn():
                return
            continue
        start = time.time()
        checkpoint_path = new
        yield checkpoint_path
        wait = start + min_interval_secs - time.time()
        if wait > 0:
            time.sleep(wait)


class CheckpointOptions:
    """``tf.train.CheckpointOptions``: devtrace writes one file, synchronously; the options that
    change that say so when given."""

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint", "experimental_write_callbacks",
                 "enable_async", "experimental_sharding_callback", "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_sharding_callback=None,
                 experimental_skip_slot_variables=False):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = enable_async
        self.experimental_sharding_callback = experimental_sharding_callback
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
