"""``tf.data.Options``: a pipeline's options, held and merged as TensorFlow holds them. devtrace's
pipelines run in order on one thread, so the options change no element; they are kept so that a
program that sets and reads them runs."""

from __future__ import annotations

import enum

from ..util.reprs import shown_as

_NESTED = ("autotune", "experimental_distribute", "experimental_optimization", "experimental_service",
           "threading")
_PLAIN = ("dataset_name", "deterministic", "experimental_deterministic", "experimental_external_state_policy",
          "experimental_slack", "experimental_symbolic_checkpoint", "experimental_warm_start", "framework_type")


class AutoShardPolicy(enum.IntEnum):
    """``tf.data.experimental.AutoShardPolicy``."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class AutotuneAlgorithm(enum.Enum):
    """``tf.data.experimental.AutotuneAlgorithm``."""
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class ExternalStatePolicy(enum.Enum):
    """``tf.data.experimental.ExternalStatePolicy``."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


SHARD_HINT = -1  # tf.data.experimental.SHARD_HINT


class _OptionGroup:
    """One of ``Options``' nested groups: its options unset (None) until set; another name raises."""

    _NAMES: tuple = ()

    def __init__(self):
        for name in self._NAMES:
            object.__setattr__(self, name, None)

    def __setattr__(self, name, value):
        if name not in self._NAMES:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        object.__setattr__(self, name, value)

    def __eq__(self, other):
        return type(other) is type(self) and vars(other) == vars(self)

    __hash__ = None


class AutotuneOptions(_OptionGroup):
    _NAMES = ("autotune_algorithm", "cpu_budget", "enabled", "initial_parallelism", "min_parallelism", "ram_budget")


class DistributeOptions(_OptionGroup):
    _NAMES = ("auto_shard_policy", "num_devices")


class OptimizationOptions(_OptionGroup):
    _NAMES = ("apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
              "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization",
              "noop_elimination", "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion")


class ThreadingOptions(_OptionGroup):
    _NAMES = ("max_intra_op_parallelism", "private_threadpool_size")


class ServiceOptions(_OptionGroup):
    _NAMES = ("pinned",)


_GROUPS = {"autotune": AutotuneOptions, "experimental_distribute": DistributeOptions,
           "experimental_optimization": OptimizationOptions, "experimental_service": ServiceOptions,
           "threading": ThreadingOptions}


class Options:
    """Every option unset (None) until a program sets it; setting a name TensorFlow lacks raises."""

    def __init__(self):
        for name in _PLAIN:
            object.__setattr__(self, name, None)
        for name in _NESTED:
            object.__setattr__(self, name, _GROUPS[name]())

    @property
    def experimental_threading(self):
        return self.threading

    def __setattr__(self, name, value):
        if name not in _PLAIN and name not in _NESTED:
            raise AttributeError(f"Cannot set the property {name} on Options.")
        if name == "experimental_deterministic":
            object.__setattr__(self, "deterministic", value)
        object.__setattr__(self, name, value)

    def merge(self, options):
        """These options with ``options``'s set ones on top."""
        out = Options()
        for source in (self, options):
            for name in _PLAIN:
                if getattr(source, name) is not None:
                    object.__setattr__(out, name, getattr(source, name))
            for name in _NESTED:
                getattr(out, name).__dict__.update({k: v for k, v in vars(getattr(source, name)).items()
                                                    if v is not None})
        return out

    def __eq__(self, other):
        return isinstance(other, Options) and all(getattr(self, n) == getattr(other, n) for n in _PLAIN + _NESTED)

    __hash__ = None

shown_as(Options, "tensorflow.python.data.ops.options.Options")
