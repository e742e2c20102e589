"""tfdbg2's dump (``tf.debugging.experimental.enable_dump_debug_info``): every eager op and
``tf.function`` call, every op a called function's graph ran and the function's graph itself are
written as ``DebugEvent`` records in TFRecord framing under the dump root — the ``.metadata``,
``.source_files``, ``.stack_frames``, ``.graphs``, ``.execution`` and ``.graph_execution_traces``
files TensorFlow's ``DebugDataReader`` reads. Tensor values are kept as the ``tensor_debug_mode``
says: the ``DebugNumericSummaryV2`` op's summary (run eagerly on the output's device, as TensorFlow
runs it), the whole tensor, or nothing.

What differs from TensorFlow: a function's graph is recorded when it is first called with the dump
on (TensorFlow instruments graphs traced while it is on), its ops in the order the graph holds them,
and tensor ids are devtrace's (an eager tensor's is the trace number of the op that made it)."""

from __future__ import annotations

import atexit
import collections
import linecache
import os
import re
import socket
import sys
import threading
import time
import uuid

import numpy as np

from ..ops import debug_ops
from ..ops.io.tfrecord import frame
from ..ops.summary.event_pb import tensor_proto
from ..runtime import dtypes
from ..runtime.context import context
from ..runtime.eager.executor import execute
from ..runtime.tensor import Tensor
from ..util import nest
from . import debug_event as pb

MODES = ["UNSPECIFIED", "NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH", "SHAPE", "FULL_NUMERICS",
         "FULL_TENSOR", "REDUCE_INF_NAN_THREE_SLOTS"]
SUPPORTED = ("NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH", "SHAPE", "FULL_TENSOR")
SUFFIXES = ("metadata", "source_files", "stack_frames", "graphs", "execution", "graph_execution_traces")
# what tfdbg2's callbacks skip (op_callbacks_common.OP_CALLBACK_SKIP_OPS), and devtrace's eager constants
SKIP_OPS = frozenset(("Enter", "Exit", "Identity", "If", "LoopCond", "Merge", "NextIteration", "StatelessIf",
                      "StatefulPartitionedCall", "Switch", "While", "RemoteCall", "DestroyResourceOp",
                      "_EagerConst", "DebugNumericSummaryV2", "DebugIdentityV2"))
_DEVTRACE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_WRITERS: dict = {}  # dump root -> its DebugEventsWriter (TensorFlow keeps one per root)


class DebugEventsWriter:
    """The files of one dump root. Execution events (eager ops, function calls, graph traces) are
    held in circular buffers of ``circular_buffer_size`` (<= 0: written at once) until
    ``FlushExecutionFiles``; the others go to their files as they come."""

    def __init__(self, dump_root: str, tfdbg_run_id: str, circular_buffer_size: int = 1000):
        os.makedirs(dump_root, exist_ok=True)
        prefix = os.path.join(dump_root, f"tfdbg_events.{int(time.time())}.{socket.gethostname()}")
        self._files = {suffix: open(f"{prefix}.{suffix}", "ab") for suffix in SUFFIXES}
        size = circular_buffer_size
        self._buffers = {s: collections.deque(maxlen=size) if size > 0 else None
                         for s in ("execution", "graph_execution_traces")}
        self._devices: dict = {}
        self._lock = threading.Lock()
        self._write("metadata", pb.DEBUG_METADATA, pb.debug_metadata("2.21.0", tfdbg_run_id))
        self.FlushNonExecutionFiles()

    def _write(self, suffix: str, field: int, payload: bytes) -> None:
        record = frame(pb.event(time.time(), field, payload))
        with self._lock:
            buffer = self._buffers.get(suffix)
            if buffer is not None:
                buffer.append(record)
            elif not self._files[suffix].closed:
                self._files[suffix].write(record)

    def RegisterDeviceAndGetId(self, device_name: str) -> int:
        """The device's id in this dump (1 for the first), recorded in ``.graphs`` when new."""
        device_id = self._devices.get(device_name)
        if device_id is None:
            device_id = self._devices[device_name] = len(self._devices) + 1
            self._write("graphs", pb.DEBUGGED_DEVICE, pb.debugged_device(device_name, device_id))
        return device_id

    def FlushNonExecutionFiles(self) -> None:
        with self._lock:
            for suffix in ("metadata", "source_files", "stack_frames", "graphs"):
                if not self._files[suffix].closed:
                    self._files[suffix].flush()

    def FlushExecutionFiles(self) -> None:
        with self._lock:
            for suffix, buffer in self._buffers.items():
                out = self._files[suffix]
                if out.closed:
                    continue
                if buffer is not None:
                    out.writelines(buffer)
                    buffer.clear()
                out.flush()

    def Close(self) -> None:
        self.FlushNonExecutionFiles()
        self.FlushExecutionFiles()
        with self._lock:
            for out in self._files.values():
                out.close()


class _DumpingCallback:
    """What sees every op while the dump is on (``Context.op_callbacks``)."""

    def __init__(self, dump_root: str, mode: str, circular_buffer_size: int, op_regex, tensor_dtypes):
        self.dump_root = dump_root
        self.mode_name = mode
        self.mode = MODES.index(mode)
        self.circular_buffer_size = circular_buffer_size
        self.op_regex = op_regex
        self.tensor_dtypes = tensor_dtypes
        self.tfdbg_run_id = uuid.uuid4().hex[:8]
        self.host = socket.gethostname()
        self.writer = DebugEventsWriter(dump_root, self.tfdbg_run_id, circular_buffer_size)
        _WRITERS[dump_root] = self.writer
        self._frames: dict = {}  # (path, line, func) -> stack frame id
        self._files: list = []  # the source files written, by index
        self._graphs: dict = {}  # id(graph) -> (graph id, {op id: its symbolic tensor ids})
        self._outer_id = None  # the eager context's id, the outer context of every function graph
        self._symbolic = 0

    # -- where the program is ------------------------------------------------------------------
    def _location(self) -> bytes:
        ids = []
        for f in _program_stack():
            key = (os.path.abspath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
            frame_id = self._frames.get(key)
            if frame_id is None:
                frame_id = self._frames[key] = str(uuid.uuid4())
                self.writer._write("stack_frames", pb.STACK_FRAME,
                                   pb.stack_frame(frame_id, self._file_index(key[0]), key[1], key[2]))
            ids.append(frame_id)
        return pb.code_location(self.host, ids)

    def _file_index(self, path: str) -> int:
        if path not in self._files:
            lines = [line.rstrip("\n") for line in linecache.getlines(path)] if path.endswith(".py") else []
            self.writer._write("source_files", pb.SOURCE_FILE, pb.source_file(path, self.host, lines))
            self._files.append(path)
        return self._files.index(path)

    # -- tensor values -------------------------------------------------------------------------
    def _dumped(self, op_type: str, dtype) -> bool:
        if self.op_regex and not re.match(self.op_regex, op_type):
            return False
        if self.tensor_dtypes is None:
            return True
        if callable(self.tensor_dtypes):
            return bool(self.tensor_dtypes(dtype))
        return any(dtype == d for d in self.tensor_dtypes)

    def _value(self, tensor, tensor_id: int = -1, eager: bool = True) -> bytes | None:
        """The ``TensorProto`` the mode keeps of ``tensor`` (``b""``: the placeholder TensorFlow keeps
        for an output its mode does not summarise; ``None``: nothing)."""
        dtype = tensor._dtype
        mode = self.mode
        if mode == debug_ops.FULL_TENSOR:
            return tensor_proto(tensor.numpy(), dtype)
        health = mode in (debug_ops.CURT_HEALTH, debug_ops.CONCISE_HEALTH, debug_ops.FULL_HEALTH)
        if not (dtype.is_floating if health else dtype.is_floating or dtype.is_integer or dtype is dtypes.bool_):
            return b"" if eager else None
        attrs = {"tensor_debug_mode": mode, "tensor_id": tensor_id, "output_dtype": "float64"}
        if eager:
            summary = execute("DebugNumericSummaryV2", (tensor,), attrs).numpy()
        else:
            summary = np.array(debug_ops.summary(tensor.numpy(), mode, tensor_id), np.float64)
        return tensor_proto(summary, dtypes.float64)

    def _execution(self, op_type: str, inputs, outputs, graph_id: str | None) -> None:
        outputs = [t for t in outputs if isinstance(t, Tensor)]
        device_ids = [self.writer.RegisterDeviceAndGetId(t._device.name) for t in outputs]
        tensors = []
        if self.mode != debug_ops.NO_TENSOR:
            for t in outputs:
                if _numpy_compatible(t._dtype) and self._dumped(op_type, t._dtype):
                    value = self._value(t)
                    if value is not None and (value or self.mode != debug_ops.FULL_TENSOR):
                        tensors.append(value)
        self.writer._write("execution", pb.EXECUTION, pb.execution(
            op_type, len(outputs), graph_id, [t._seq for t in inputs if isinstance(t, Tensor)],
            [t._seq for t in outputs], self.mode, tensors, self._location(), device_ids))

    # -- the op callbacks ----------------------------------------------------------------------
    def eager(self, op_type, inputs, attrs, out, name) -> None:
        if op_type in SKIP_OPS:
            return
        self._execution(op_type, inputs, out if type(out) is tuple else (out,), None)

    def function(self, placed, args, values) -> None:
        graph = placed.graph
        graph_id, tensor_ids = self._graph(graph)
        by_id = {op._id: op for op in graph._ops}
        for node_id, value in values.items():
            op = by_id.get(node_id)
            if op is None or op.type in SKIP_OPS or op.type in ("Placeholder", "NoOp") or value is None:
                continue
            for slot, t in enumerate(value if type(value) is tuple else (value,)):
                if not isinstance(t, Tensor) or not _numpy_compatible(t._dtype) or not self._dumped(op.type, t._dtype):
                    continue
                if self.mode == debug_ops.NO_TENSOR:
                    tensor = tensor_proto(np.zeros(0, np.float32), dtypes.float32)
                else:
                    tensor = self._value(t, tensor_ids[node_id][slot], eager=False)
                    if tensor is None:
                        continue
                self.writer._write("graph_execution_traces", pb.GRAPH_EXECUTION_TRACE, pb.graph_execution_trace(
                    graph_id, op.name, slot, self.mode, tensor, placed.devices[node_id].name))
        outputs = [values.get(t._op._id) if isinstance(t, Tensor) and t._device is None else t
                   for t in nest.flatten(graph.outputs)]
        self._execution(placed.call_name, args, outputs, graph_id)

    def _graph(self, graph) -> tuple:
        """The graph's id in the dump and its tensors' ids; a graph seen for the first time is
        recorded (``DebuggedGraph``, then one ``GraphOpCreation`` per op)."""
        known = self._graphs.get(id(graph))
        if known is not None:
            return known
        if self._outer_id is None:
            self._outer_id = str(uuid.uuid4())
            self.writer._write("graphs", pb.DEBUGGED_GRAPH, pb.debugged_graph(self._outer_id, None, None))
        graph_id = str(uuid.uuid4())
        name = _function_name(graph.name)
        self.writer._write("graphs", pb.DEBUGGED_GRAPH, pb.debugged_graph(graph_id, name, self._outer_id))
        location = self._location()
        tensor_ids = {}
        for op in graph._ops:
            ids = tensor_ids[op._id] = list(range(self._symbolic + 1, self._symbolic + 1 + len(op._outputs)))
            self._symbolic += len(op._outputs)
            self.writer._write("graphs", pb.GRAPH_OP_CREATION, pb.graph_op_creation(
                op.type, op.name, name, graph_id, [t.name for t in op._inputs], len(op._outputs), location, ids))
        self._graphs[id(graph)] = known = (graph_id, tensor_ids)
        self.writer.FlushNonExecutionFiles()
        return known


def _numpy_compatible(dtype) -> bool:
    return dtype.name not in ("resource", "variant")


def _function_name(graph_name: str) -> str:
    """A function graph's name as tfdbg2 records it: the Python function's (``__inference_f_12`` → ``f``)."""
    match = re.fullmatch(r"__inference_(.*)_\d+", graph_name)
    return match.group(1) if match else graph_name


def _program_stack() -> list:
    """The program's frames (devtrace's own left out), outermost first."""
    frames = []
    f = sys._getframe(1)
    while f is not None:
        if not f.f_code.co_filename.startswith(_DEVTRACE):
            frames.append(f)
        f = f.f_back
    return frames[::-1]


_state = threading.local()


def enable_dump_debug_info(dump_root, tensor_debug_mode="NO_TENSOR", circular_buffer_size=1000, op_regex=None,
                           tensor_dtypes=None):
    """TensorFlow's ``tf.debugging.experimental.enable_dump_debug_info``: returns the writer, whose
    ``FlushNonExecutionFiles``/``FlushExecutionFiles`` write what is held."""
    if tensor_debug_mode not in MODES:
        raise ValueError(f"Invalid value in tensor_debug_mode ('{tensor_debug_mode}'). Valid options are: {MODES}")
    if tensor_debug_mode not in SUPPORTED:
        raise NotImplementedError(
            f"tfdbg dumping: support for tensor debug mode {tensor_debug_mode} is not implemented yet")
    if tensor_dtypes is not None:
        if not isinstance(tensor_dtypes, (list, tuple)) and not callable(tensor_dtypes):
            raise ValueError("If specified, tensor_dtypes is expected to be a list, a tuple, or a callable that "
                             f"takes a DType argument and returns a boolean, but received {tensor_dtypes}")
        if isinstance(tensor_dtypes, (list, tuple)):
            tensor_dtypes = [dtypes.as_dtype(d) for d in tensor_dtypes]
    current = getattr(_state, "dumping_callback", None)
    if current is not None:
        if current.circular_buffer_size != circular_buffer_size:
            raise ValueError(
                "There is already a dumping callback configured with a different circular-buffer size "
                f"({current.circular_buffer_size}). Therefore the newly request circular-buffer size "
                f"({circular_buffer_size}) will not be honored.")
        if current.mode_name != tensor_debug_mode:
            raise ValueError(
                f"There is already a dumping callback configured for dump root {current.dump_root} with a "
                f"different tensor-debug mode ({current.mode_name}). Therefore the newly request tensor-debug "
                f"mode ({tensor_debug_mode}) size will not be honored.")
        if current.dump_root != dump_root:
            current.writer.Close()
            current.dump_root = dump_root
            current.writer = _WRITERS[dump_root] = DebugEventsWriter(dump_root, current.tfdbg_run_id,
                                                                     circular_buffer_size)
        return current.writer
    callback = _state.dumping_callback = _DumpingCallback(dump_root, tensor_debug_mode, circular_buffer_size,
                                                          op_regex, tensor_dtypes)
    context().op_callbacks.append(callback)
    atexit.register(disable_dump_debug_info)
    return callback.writer


def disable_dump_debug_info():
    """TensorFlow's ``tf.debugging.experimental.disable_dump_debug_info``: writes what is held and
    closes the files; a no-op when the dump is off."""
    callback = getattr(_state, "dumping_callback", None)
    if callback is None:
        return
    callback.writer.Close()
    _WRITERS.pop(callback.dump_root, None)
    callbacks = context().op_callbacks
    if callback in callbacks:
        callbacks.remove(callback)
    del _state.dumping_callback
