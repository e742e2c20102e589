"""The op registry: one :class:`OpDef` per op type, read by the public op functions, the eager
executor, the graph builder, both placers and the session.

Each op type (TensorFlow's name: ``MatMul``, ``AddV2`` …) declares, once, in a module of
:mod:`devtrace.ops`: its kernel, the device types that have one and the dtypes each accepts
(an op without a GPU kernel is visible here: it falls back to the CPU), its host-memory
arguments, its shape function and its gradient. A kernel is ``fn(xp, *arrays, **attrs)`` where
``xp`` is the array module of the device (NumPy on the CPU and on simulated GPUs, CuPy on real
ones), so one function serves every device where the array API is shared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from .. import hooks
from ..errors import InvalidArgumentError, NotFoundError
from . import dtypes

CPU, GPU = "CPU", "GPU"
# TensorFlow's device-type priorities (device_factory.h): GPU 210 over GPUCompatibleCPU 70.
PRIORITY = {GPU: 210, CPU: 70}

ALL_TYPES = frozenset(d.name for d in dtypes.ALL) | {"variant"}  # variant: TensorLists
NUMERIC = dtypes.NUMERIC
STRINGS = frozenset(("string",))
DEVICE_SAFE = ALL_TYPES - STRINGS  # strings never live on a GPU


@dataclass(slots=True)
class OpDef:
    name: str
    fn: Callable
    # device type -> dtype names its kernel accepts
    kernels: dict[str, frozenset] = field(default_factory=dict)
    stateful: bool = False
    # shape(node_name, input_shapes, attrs, dtype) -> (output DType, static shape or None);
    # None: the output has the kernel's dtype and an unknown shape (custom ops)
    shape: Callable | None = None
    # attrs TensorFlow keeps in host memory on every device (shapes, axes): never copied
    host_args: tuple = ()
    # ((attr, TensorFlow's input arg), …): the host args that are TensorFlow op inputs, which a graph
    # builds as Const nodes named ``<op>/<arg>`` (``Reshape/shape``; ``graph/host_consts.py``)
    const_inputs: tuple = ()
    # the gradient function (TensorFlow's RegisterGradient; see ops/*_grad.py)
    grad: Callable | None = None
    # inputs of different dtypes are fine (StringFormat): no "expected to be a float tensor" check
    mixed_dtypes: bool = False
    # the kernel returns a tuple of arrays (Unpack, Split, Svd …); ``shape`` then returns
    # ([(dtype, shape) per output], None)
    multi: bool = False
    # the attr that counts a list input or output (ConcatV2's N, Split's num_split): TensorFlow
    # names the function an eager kernel error comes from after it (__wrapped__ConcatV2_N_2); or
    # attrs -> that name's tail, for an op with several (ParseExampleV2's ``_Tdense_1_num_sparse_0…``)
    number_attr: str | None = None
    # TensorFlow's OpDef summary (``Op<name=Sqrt; signature=x:T -> y:T; attr=T:type,allowed=[…]>``)
    # for an op whose ``T`` attr restricts its dtypes: one outside the list is an InvalidArgumentError
    # before any kernel is looked for
    signature: str | None = None
    allowed: frozenset | None = None
    # TensorFlow's OpDef arg names (inputs, outputs, CPU host-memory args; ``ops/arg_names.py``):
    # the nodes of the one-op function an eager op runs as
    arg_names: tuple | None = None
    # the NumPy ufunc the kernel computes for two ndarrays (``np.add`` for ``a + b``): the eager hot
    # path calls it without the kernel's frame (executor.execute_binary)
    ufunc: Callable | None = None
    # compat mode ("tf1") -> the kernels the op had in that TensorFlow (Cast: CPU only), where they differ
    compat_kernels: dict = field(default_factory=dict)
    # a GPU kernel that computes otherwise than ``fn`` (TensorFlow's GPU GatherV2: zeros for indices
    # out of range where the CPU kernel raises); ``None``: ``fn`` on every device type
    gpu_fn: Callable | None = None
    # attrs -> the length of each list output, in OpDef order, for an op with several list outputs
    # (ParseExampleV2's sparse_indices*, …, dense_values*): the one-op function's ``_Retval`` nodes
    output_lists: Callable | None = None
    # TensorFlow's generated function always runs the op down its eager fallback (ParseExampleV2):
    # an eager kernel error ends `` [Op:X]``, naming no name
    eager_fallback: bool = False

    def kernel(self, device_type: str) -> Callable:
        """The kernel this op runs on a device of ``device_type``."""
        return self.gpu_fn if device_type == "GPU" and self.gpu_fn is not None else self.fn

    def kernels_for(self, compat: str = "tf2") -> dict[str, frozenset]:
        """The kernels under a compat mode (``--compat``): ``kernels`` unless the op declared others."""
        return self.compat_kernels.get(compat, self.kernels) if self.compat_kernels else self.kernels

    def supported_types(self, dtype_name: str | None, compat: str = "tf2") -> tuple[str, ...]:
        """Device types with a kernel for this dtype, highest priority first."""
        types = [t for t, ok in self.kernels_for(compat).items() if dtype_name is None or dtype_name in ok]
        return tuple(sorted(types, key=lambda t: -PRIORITY.get(t, 50)))

    def kernel_list(self, compat: str = "tf2") -> str:
        """TensorFlow's ``All kernels registered for op`` listing."""
        kernels = self.kernels_for(compat)
        if not kernels:
            return "  <no registered kernels>"
        lines = []
        for t, ok in kernels.items():
            names = ", ".join(dtypes.as_dtype(n).enum_name for n in sorted(ok))
            lines.append(f"  device='{t}'; T in [{names}]")
        return "\n".join(lines)


REGISTRY: dict[str, OpDef] = {}
# ops.declare.quiet's wrappers: {wrapper: the kernel it runs under NumPy's errstate(all="ignore")}
QUIET: dict = {}


def register(name: str, fn: Callable, device_types=(CPU, GPU), dtypes_=None, stateful=False, shape=None,
             host_args=(), grad=None, mixed_dtypes=False, multi=False, number_attr=None, signature=None) -> OpDef:
    """Register (or replace) an op. ``dtypes_`` = dtype names accepted on every device type,
    or a dict per device type; ``None`` means every dtype. ``host_args``: the attrs that are host
    arguments; a dict ``{attr: TensorFlow's input arg}`` for those TensorFlow takes as inputs
    (``{"axis": "reduction_indices"}``: a graph's Const node ``Sum/reduction_indices``)."""
    if isinstance(dtypes_, dict):
        kernels = {t: frozenset(v) for t, v in dtypes_.items()}
    else:
        accepted = ALL_TYPES if dtypes_ is None else frozenset(dtypes_)
        kernels = {t: accepted for t in device_types}
    unknown = set(kernels) - {CPU, GPU}
    if unknown:
        raise ValueError(f"Unknown device type(s) {sorted(unknown)} for op {name}; use 'CPU' and/or 'GPU'")
    op = OpDef(name, fn, kernels, stateful, shape, tuple(host_args),
               tuple(host_args.items()) if isinstance(host_args, dict) else (), grad, mixed_dtypes, multi,
               number_attr, signature, None if signature is None else _allowed(signature))
    REGISTRY[name] = op
    return op


# the type attr an OpDef summary restricts: T, or the first input's own (OneHot's indices:TI)
_ALLOWED = re.compile(r"attr=(T|TI):type(?:,default=\w+)?,allowed=\[([^\]]*)\]")


def _allowed(signature: str) -> frozenset:
    """The dtype names (devtrace's: ``float32``) an OpDef summary's checked type attr allows."""
    by_enum = {d.enum_name: d.name for d in dtypes.ALL}
    enums = _ALLOWED.search(signature).group(2).split(", ")
    return frozenset(by_enum.get(e, e[3:].lower()) for e in enums)


def not_allowed(opdef: OpDef, dtype_name: str, suffix: str) -> InvalidArgumentError:
    """TensorFlow's error for a dtype outside the op's type list (checked before kernels);
    ``suffix``: how the eager op error ends (`` [Op:X] name: …``)."""
    attr, allowed = _ALLOWED.search(opdef.signature).groups()
    return InvalidArgumentError(
        f"Value for attr '{attr}' of {dtypes.as_dtype(dtype_name).c_name} is not in the list of allowed values: "
        f"{', '.join(e[3:].lower() for e in allowed.split(', '))}\n\t; NodeDef: {{{{node {opdef.name}}}}}; "
        f"{opdef.signature}{suffix}", op=opdef.name)


_loaded = []


def lookup(name: str) -> OpDef:
    """The op named ``name``; TensorFlow's ``NotFoundError`` when none is registered. The first
    miss loads the op declarations (``hooks.LOAD_OPS``) and looks again."""
    opdef = REGISTRY.get(name)
    if opdef is None and not _loaded:
        _loaded.append(True)
        for load in hooks.LOAD_OPS:
            load()
        opdef = REGISTRY.get(name)
    if opdef is None:
        raise NotFoundError(f"Op type not registered '{name}' in binary running on devtrace. [Op:{name}]")
    return opdef
