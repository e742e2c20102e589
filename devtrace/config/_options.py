"""``tf.config``'s process options that change nothing devtrace computes but that programs set
and read back: ``tf.config.threading``, ``tf.config.optimizer``, synchronous execution,
TensorFloat-32, op determinism and the MLIR bridge — stored, validated and frozen as
TensorFlow 2.21 does (thread counts cannot change once the runtime is initialised)."""

from __future__ import annotations

import operator

from ..util.namespace import Namespace
from ..runtime.context import context

# RewriterConfig's options in the order get_experimental_options lists them; True: a toggle
# (listed only once set), False: a bool (always listed)
_REWRITER = (("layout_optimizer", True), ("constant_folding", True), ("shape_optimization", True),
             ("remapping", True), ("arithmetic_optimization", True), ("dependency_optimization", True),
             ("loop_optimization", True), ("function_optimization", True), ("debug_stripper", True),
             ("disable_model_pruning", False), ("scoped_allocator_optimization", True),
             ("pin_to_host_optimization", True), ("implementation_selector", True), ("auto_mixed_precision", True),
             ("use_plugin_optimizers", True), ("disable_meta_optimizer", False),
             ("auto_mixed_precision_onednn_bfloat16", True), ("auto_mixed_precision_mkl", True))
_process = {"tensor_float_32": True, "op_determinism": False, "mlir_bridge": False}


def _set_threads(key: str, what: str, num_threads) -> None:
    ctx = context()
    if ctx.options.get(key) == num_threads:
        return
    if ctx.initialized:
        raise RuntimeError(f"{what} op parallelism cannot be modified after initialization.")
    ctx.options[key] = num_threads


def _get_threads(key: str) -> int:
    value = context().options.get(key)
    return 0 if value is None else operator.index(value)  # the ConfigProto field's own check


def get_intra_op_parallelism_threads() -> int:
    return _get_threads("intra_op")


def set_intra_op_parallelism_threads(num_threads) -> None:
    _set_threads("intra_op", "Intra", num_threads)


def get_inter_op_parallelism_threads() -> int:
    return _get_threads("inter_op")


def set_inter_op_parallelism_threads(num_threads) -> None:
    _set_threads("inter_op", "Inter", num_threads)


def get_synchronous_execution() -> bool:
    return context().options.get("synchronous", True)


def set_synchronous_execution(enable) -> None:
    """``None`` is the default (synchronous); devtrace runs every op synchronously either way."""
    context().options["synchronous"] = enable is None or bool(enable)


def get_jit() -> str:
    return "autoclustering" if context().options.get("jit") else ""


def set_jit(enabled) -> None:
    context().options["jit"] = enabled in (True, "autoclustering")


def get_experimental_options() -> dict:
    chosen = context().options.get("optimizer", {})
    out = {name: bool(chosen.get(name, False)) for name, toggle in _REWRITER if not toggle or name in chosen}
    if chosen.get("min_graph_nodes"):
        out["min_graph_nodes"] = chosen["min_graph_nodes"]
    return out


def set_experimental_options(options) -> None:
    context().options.setdefault("optimizer", {}).update(options)


def tensor_float_32_execution_enabled() -> bool:
    return _process["tensor_float_32"]


def enable_tensor_float_32_execution(enabled) -> None:
    _process["tensor_float_32"] = bool(enabled)


def enable_op_determinism() -> None:
    _process["op_determinism"] = True


def enable_mlir_bridge() -> None:
    _process["mlir_bridge"] = True


def disable_mlir_bridge() -> None:
    _process["mlir_bridge"] = False


threading = Namespace(_prefix="config.threading", get_intra_op_parallelism_threads=get_intra_op_parallelism_threads,
                      set_intra_op_parallelism_threads=set_intra_op_parallelism_threads,
                      get_inter_op_parallelism_threads=get_inter_op_parallelism_threads,
                      set_inter_op_parallelism_threads=set_inter_op_parallelism_threads)
optimizer = Namespace(_prefix="config.optimizer", get_jit=get_jit, set_jit=set_jit,
                      get_experimental_options=get_experimental_options,
                      set_experimental_options=set_experimental_options)
