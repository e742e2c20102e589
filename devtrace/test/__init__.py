"""``tf.test``: ``TestCase``, ``Benchmark``, ``main``, ``compute_gradient`` and the build and
device queries (those are :mod:`devtrace.platform.device_lib`'s, answered from the machine
devtrace sees)."""

from __future__ import annotations

from ..platform.device_lib import (gpu_device_name, is_built_with_cuda, is_gpu_available,  # noqa: F401
                                   is_built_with_rocm, is_built_with_xla)
from ..runtime.graph.config_proto import ConfigProto
from ..util.namespace import Namespace, missing
from .gradient_checker import compute_gradient  # noqa: F401
from .test_case import (Benchmark, TestCase, assert_equal_graph_def, create_local_cluster,  # noqa: F401
                        disable_with_predicate, is_cpu_target_available, main, sync_devices,
                        with_eager_op_as_function)

is_built_with_gpu_support = is_built_with_cuda
experimental = Namespace(_prefix="test.experimental", sync_devices=sync_devices)


class _BenchmarkConfig(ConfigProto):
    """A ``ConfigProto`` with Grappler's dependency optimization off (devtrace runs no Grappler)."""

    def __str__(self):
        return "graph_options {\n  rewrite_options {\n    dependency_optimization: OFF\n  }\n}\n" + super().__str__()

    __repr__ = __str__


def benchmark_config():
    """The ``ConfigProto`` TensorFlow's benchmarks run with."""
    return _BenchmarkConfig()


__getattr__ = missing("test")  # a name devtrace lacks says so (util.namespace)
