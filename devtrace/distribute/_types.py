"""``tf.distribute``'s abstract types and option records: ``Strategy``/``StrategyExtended``
(devtrace's strategies registered as theirs), ``DistributedDataset``/``DistributedIterator``,
``InputOptions``, ``InputReplicationMode``, ``RunOptions``."""

from __future__ import annotations

import abc
import dataclasses
import enum

from . import _input as inputs


class Strategy(abc.ABC):  # noqa: B024 (an abstract type for isinstance)
    """``tf.distribute.Strategy``."""


class StrategyExtended(abc.ABC):  # noqa: B024
    """``tf.distribute.StrategyExtended``."""


class DistributedDataset(abc.ABC):  # noqa: B024
    """``tf.distribute.DistributedDataset``."""


class DistributedIterator(abc.ABC):  # noqa: B024
    """``tf.distribute.DistributedIterator``."""


DistributedDataset.register(inputs.DistributedDataset)
DistributedIterator.register(inputs.DistributedIterator)


class InputReplicationMode(enum.Enum):
    """``tf.distribute.InputReplicationMode``."""
    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


@dataclasses.dataclass
class InputOptions:
    """``tf.distribute.InputOptions``: how a distributed dataset feeds the replicas."""
    experimental_fetch_to_device: bool | None = None
    experimental_replication_mode: InputReplicationMode = InputReplicationMode.PER_WORKER
    experimental_place_dataset_on_device: bool = False
    experimental_per_replica_buffer_size: int = 1


@dataclasses.dataclass
class RunOptions:
    """``tf.distribute.RunOptions``."""
    experimental_enable_dynamic_batch_size: bool = True
    experimental_bucketizing_dynamic_shape: bool = False
    experimental_xla_options: object = None
