"""``tf.test``'s GPU questions and ``tensorflow.python.client.device_lib``, answered from the
machine devtrace sees (simulated GPUs included): a program's own "is there a GPU?" checks take
the branch they would take on that machine. devtrace stands for TensorFlow's CUDA build on a
machine with GPUs and for tensorflow-cpu on a machine without any (``Context.cuda_build``):
``is_built_with_cuda()`` and ``sysconfig.get_build_info()`` answer as that build does."""

from __future__ import annotations

import collections
import random

from ..util.namespace import Namespace
from ..runtime.context import context
from .tf_logging import deprecated

_CPU_MEMORY_LIMIT = 268435456  # what TensorFlow's device_lib reports for the host CPU


class DeviceAttributes:
    """A ``DeviceAttributes`` record, printed in protobuf text format as TensorFlow prints it."""

    def __init__(self, name, device_type, memory_limit, physical_device_desc=""):
        self.name, self.device_type, self.memory_limit = name, device_type, memory_limit
        self.physical_device_desc = physical_device_desc
        self.incarnation = random.getrandbits(63)
        self.locality = {}

    def __repr__(self):
        lines = [f'name: "{self.name}"', f'device_type: "{self.device_type}"', f"memory_limit: {self.memory_limit}",
                 "locality {", "}", f"incarnation: {self.incarnation}"]
        if self.physical_device_desc:
            lines.append(f'physical_device_desc: "{self.physical_device_desc}"')
        lines.append("xla_global_id: -1")
        return "\n".join(lines) + "\n"

    __str__ = __repr__


def list_local_devices(session_config=None) -> list:
    ctx = context()
    ctx.ensure_initialized("device_lib.list_local_devices()")
    out = []
    for d in ctx.devices:
        if d.device_type == "CPU" and d.index == 0:  # a new session's devices: virtual CPUs are the eager context's
            out.append(DeviceAttributes(d.short_name, "CPU", _CPU_MEMORY_LIMIT))
        elif d.device_type != "CPU":
            out.append(DeviceAttributes(d.short_name, d.device_type, int(d.memory.limit or 0),
                                        d.gpu.short_description(d.platform_id) if d.gpu else ""))
    return out


def gpu_device_name() -> str:
    gpus = [d for d in context_devices() if d.device_type == "GPU"]
    return gpus[0].short_name if gpus else ""


def context_devices():
    ctx = context()
    ctx.ensure_initialized("tf.test.gpu_device_name()")
    return ctx.devices


@deprecated("tensorflow.python.framework.test_util", "Use `tf.config.list_physical_devices('GPU')` instead.")
def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None) -> bool:
    for d in context_devices():
        if d.device_type == "GPU" and (min_cuda_compute_capability is None or d.gpu is None or
                                       d.gpu.compute_capability >= tuple(min_cuda_compute_capability)):
            return True
    return False


def is_built_with_cuda() -> bool:
    return context().cuda_build


def get_build_info() -> collections.OrderedDict:
    return collections.OrderedDict(is_cuda_build=is_built_with_cuda(), is_rocm_build=False, is_tensorrt_build=False)


def is_built_with_rocm() -> bool:
    return False


def is_built_with_xla() -> bool:
    return True


python = Namespace(_prefix="python", client=Namespace(_prefix="python.client", device_lib=Namespace(
    _prefix="python.client.device_lib", list_local_devices=list_local_devices)))
def _package_dir() -> str:
    """The directory of the package that answers ``import tensorflow`` (devtrace's)."""
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def get_include() -> str:
    import os

    return os.path.join(_package_dir(), "include")


def get_lib() -> str:
    return _package_dir()


def get_compile_flags() -> list:
    """As TensorFlow 2.21's Linux build answers (its C++ ABI, standard and Eigen alignment)."""
    return [f"-I{get_include()}", "-D_GLIBCXX_USE_CXX11_ABI=1", "--std=c++17", "-DEIGEN_MAX_ALIGN_BYTES=64"]


def get_link_flags() -> list:
    return [f"-L{get_lib()}", "-l:libtensorflow_framework.so.2"]


sysconfig = Namespace(_prefix="sysconfig", get_build_info=get_build_info, get_include=get_include, get_lib=get_lib,
                      get_compile_flags=get_compile_flags, get_link_flags=get_link_flags,
                      CXX11_ABI_FLAG=1, CXX_VERSION=201703, MONOLITHIC_BUILD=0)
