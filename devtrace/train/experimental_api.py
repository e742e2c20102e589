"""``tf.train.experimental``: ``PythonState`` (Python state saved in a checkpoint as a string)
and the sharding callbacks of ``CheckpointOptions`` (devtrace writes one shard: a callback says
so when it is called)."""

from __future__ import annotations

import abc
from dataclasses import dataclass


class PythonState(abc.ABC):
    """A Python object whose state a checkpoint keeps as the string ``serialize`` returns."""

    @abc.abstractmethod
    def serialize(self):
        """The state as a string (or a string tensor)."""

    @abc.abstractmethod
    def deserialize(self, string_value):
        """Set the state from what ``serialize`` returned."""


@dataclass
class ShardableTensor:
    """A tensor a sharding callback places in a shard, with what the checkpoint knows of it."""

    _tensor_save_spec: object
    tensor: object
    dtype: object
    device: object
    name: str
    shape: object
    slice_spec: object
    checkpoint_key: str
    trackable: object


class ShardingCallback(abc.ABC):
    """Splits a checkpoint's tensors into shards."""

    @property
    @abc.abstractmethod
    def description(self) -> str:
        """What the callback does."""

    def __call__(self, shardable_tensors):
        raise AttributeError(f"devtrace does not implement tf.train.experimental.{type(self).__name__} yet "
                             f"(its checkpoints are one shard)")


class ShardByTaskPolicy(ShardingCallback):
    @property
    def description(self) -> str:
        return "Split tensors into shards based on their device spec task."


class MaxShardSizePolicy(ShardingCallback):
    def __init__(self, max_shard_size: int):
        self.max_shard_size = max_shard_size

    @property
    def description(self) -> str:
        return "Split tensors into shards with a max shard size."
