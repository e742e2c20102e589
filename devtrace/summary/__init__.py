"""``tf.summary``: TensorBoard event files, as TensorFlow 2.21 with TensorBoard writes them.

``create_file_writer`` runs ``SummaryWriter``/``CreateSummaryFileWriter``; every summary is one
``WriteSummary`` op (``ops.summary``), whose event carries the tensor, the tag (the name inside
the current name scope) and TensorBoard's plugin metadata. ``scalar``, ``histogram`` (its 30
buckets computed by TensorBoard's ops), ``text``, ``image`` (PNG-encoded) and ``audio`` (WAV) are
TensorBoard's functions, which TensorFlow re-exports; the files open in TensorBoard and read
back with TensorFlow's ``summary_iterator``. A summary is written only with a default writer, a
step (given, the writer's ``as_default(step)`` or ``experimental.set_step``) and ``record_if``'s
condition true; else the function returns ``False``.
"""

from __future__ import annotations

import abc
import contextlib
import functools
import itertools
import re
import weakref
from dataclasses import dataclass, field

import numpy as np

from ..module.module import name_scope
from ..ops import API
from ..ops.summary import event_pb, summary_ops
from ..runtime import dtypes
from ..runtime.context import context
from ..runtime.eager.executor import execute
from ..runtime.graph.tensor import SymbolicTensor
from ..runtime.scopes import device
from ..runtime.values import constant
from ..util.namespace import Namespace, missing
from ..util.reprs import shown_as

_NAMES = itertools.count()


@dataclass
class _State:
    writer: object = None
    step: object = None
    record: list = field(default_factory=list)  # record_if's conditions, innermost last
    trace: bool = False


_STATE = _State()


class SummaryWriter(abc.ABC):
    """``tf.summary.SummaryWriter``: what a writer can do."""

    def set_as_default(self, step=None):
        _STATE.writer = self
        if step is not None:
            _STATE.step = step

    @contextlib.contextmanager
    def as_default(self, step=None):
        """The default writer (and step) inside the block; the old ones after it."""
        old_writer, old_step = _STATE.writer, _STATE.step
        _STATE.writer = self
        if step is not None:
            _STATE.step = step
        try:
            yield self
        finally:
            _STATE.writer = old_writer
            if step is not None:
                _STATE.step = old_step
            self.flush()

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass


class _ResourceSummaryWriter(SummaryWriter):
    """A writer to an event file in ``logdir``."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix, name):
        self._name = f"{name or 'logdir:' + str(logdir)}_{next(_NAMES)}"
        self._closed = False
        weakref.finalize(self, summary_ops.release, self._name)  # its file closes when the writer goes
        self._resource = execute("SummaryWriter", (), {"writer": self._name}, dtype=dtypes.string)
        execute("CreateSummaryFileWriter", (
            constant(str(logdir), dtypes.string), constant(10 if max_queue is None else int(max_queue), dtypes.int32),
            constant(120000 if flush_millis is None else int(flush_millis), dtypes.int32),
            constant(".v2" if filename_suffix is None else filename_suffix, dtypes.string)),
            {"writer": self._name}, dtype=dtypes.string)

    def flush(self):
        if not self._closed:
            execute("FlushSummaryWriter", (), {"writer": self._name}, dtype=dtypes.string)

    def close(self):
        if not self._closed:
            self.flush()
            execute("CloseSummaryWriter", (), {"writer": self._name}, dtype=dtypes.string)
            self._closed = True

    def _write(self, tag, tensor, step, metadata):
        execute("WriteSummary", (step, tensor, constant(tag, dtypes.string), constant(metadata, dtypes.string)),
                {"writer": self._name, "dtype_name": tensor.dtype.name}, dtype=tensor.dtype)

    def _write_raw(self, tensor, step):
        execute("WriteRawProtoSummary", (step, tensor), {"writer": self._name}, dtype=dtypes.string)


class _NoopSummaryWriter(SummaryWriter):
    """A writer that writes nothing (summaries under it return ``False``)."""


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None):
    if logdir is None:
        raise ValueError("Expected logdir to be a path, but got None")
    return _ResourceSummaryWriter(logdir, max_queue, flush_millis, filename_suffix, name)


def create_noop_writer():
    return _NoopSummaryWriter()


def _recording():
    """Whether a summary is written now: a bool, or (a ``record_if`` condition a function's tensor)
    a bool graph tensor that decides when the function runs."""
    if not isinstance(_STATE.writer, _ResourceSummaryWriter) or _STATE.writer._closed:
        return False
    symbolic = []
    for condition in _STATE.record:
        value = condition() if callable(condition) else condition
        if isinstance(value, SymbolicTensor):
            symbolic.append(value)
        elif not bool(value.numpy() if hasattr(value, "numpy") else value):
            return False
    return functools.reduce(API["logical_and"], symbolic) if symbolic else True


def should_record_summaries():
    """Whether a summary written now would be (a default writer, ``record_if`` true)."""
    recording = _recording()
    return recording if isinstance(recording, SymbolicTensor) else constant(recording, dtypes.bool_)


@contextlib.contextmanager
def record_if(condition):
    """Summaries inside are written only while ``condition`` (a bool, tensor or callable) is true."""
    _STATE.record.append(condition)
    try:
        yield
    finally:
        _STATE.record.pop()


def get_step():
    return _STATE.step


def set_step(step):
    _STATE.step = step


def flush(writer=None, name=None):
    writer = _STATE.writer if writer is None else writer
    if writer is not None:
        writer.flush()


def _scope_name() -> str:
    ctx = context()
    if ctx.eager:
        return ctx.name_scope.rstrip("/")
    from ..runtime.graph.graph import get_default_graph

    return getattr(get_default_graph(), "_name_stack", "") or ""


_INVALID = re.compile(r"[^-/\w\.]")


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """``(tag, scope)``: the tag is the name under the current name scope; the scope, a name
    scope named after it (characters a scope may not have left out)."""
    name = name or default_name
    current = _scope_name()
    tag = f"{current}/{name}" if current else name
    with name_scope(_INVALID.sub("", name) or "summary") as scope:
        yield tag, scope


def _step_tensor(step):
    step = _STATE.step if step is None else step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    if hasattr(step, "read_value"):
        step = step.read_value()
    return API["cast"](step, dtypes.int64) if hasattr(step, "_dtype") else constant(int(step), dtypes.int64)


def _as_tensor(value):
    return value if hasattr(value, "_dtype") else API["convert_to_tensor"](value)


def _should_record():
    """TensorFlow's condition, eagerly as its ops (the recording state and the writer's); in a
    function, decided as it is traced unless a ``record_if`` condition is a graph tensor (then
    that tensor, for a ``tf.cond``)."""
    if not context().eager:
        return _recording()
    return bool(API["logical_and"](constant(True, dtypes.bool_), constant(_recording(), dtypes.bool_)).numpy())


def _when_recording(record, fn):
    """``fn()`` (which writes) and True where the summary is recorded, else False: in a function whose
    ``record_if`` condition is a graph tensor, a ``tf.cond`` on it (as TensorFlow's ``smart_cond``)."""
    if isinstance(record, SymbolicTensor):
        return API["cond"](record, lambda: (fn(), constant(True, dtypes.bool_))[1],
                           lambda: constant(False, dtypes.bool_))
    if not record:
        return constant(False, dtypes.bool_)
    fn()
    return constant(True, dtypes.bool_)


def write(tag, tensor, step=None, metadata=None, name=None):
    """Write ``tensor`` under ``tag``: ``True`` if written (a callable tensor is called only then)."""
    if not isinstance(_STATE.writer, _ResourceSummaryWriter):
        return constant(False, dtypes.bool_)
    step = _step_tensor(step)
    meta = metadata if isinstance(metadata, bytes) else (b"" if metadata is None else metadata.SerializeToString())

    def record():
        with device("cpu:0"):  # as TensorFlow's: the tensor (a callable's ops too) is made on the host
            value = _as_tensor(tensor()) if callable(tensor) else API["identity"](_as_tensor(tensor))
            _STATE.writer._write(tag, value, step, meta)
    return _when_recording(_should_record(), record)


def write_raw_pb(tensor, step=None, name=None):
    """Write serialised ``Summary`` protos as they are."""
    if not isinstance(_STATE.writer, _ResourceSummaryWriter):
        return constant(False, dtypes.bool_)
    step = _step_tensor(step)

    def record():
        with device("cpu:0"):
            _STATE.writer._write_raw(API["identity"](_as_tensor(tensor)), step)
    return _when_recording(_should_record(), record)


def scalar(name, data, step=None, description=None):
    """TensorBoard's ``scalar``: ``data`` as a float32 scalar (plugin ``scalars``)."""
    meta = event_pb.metadata("scalars", description=description or "")
    with summary_scope(name, "scalar_summary", values=[data, step]) as (tag, _):
        data = _as_tensor(data)
        if data.shape.rank not in (0, None):
            raise ValueError(f"Expected scalar shape, saw shape: {data.shape}.")
        return write(tag, API["cast"](data, dtypes.float32), step, meta)


def text(name, data, step=None, description=None):
    """TensorBoard's ``text``: a string tensor (plugin ``text``)."""
    meta = event_pb.metadata("text", description=description or "")
    with summary_scope(name, "text_summary", values=[data, step]) as (tag, _):
        data = _as_tensor(data)
        if data.dtype != dtypes.string:
            raise TypeError(f"{data} must be of type <dtype: 'string'>")
        return write(tag, data, step, meta)


def _buckets(data, bucket_count=None):
    """TensorBoard's histogram buckets: ``[k, 3]`` float64 rows ``[left, right, count]``."""
    bucket_count = 30 if bucket_count is None else int(bucket_count)
    bucket_count = max(0, bucket_count)
    data = API["cast"](API["reshape"](data, [-1]), dtypes.float64)
    data_size = int(API["size"](data).numpy())
    if data_size == 0 or bucket_count <= 0:
        return API["zeros"]((bucket_count, 3), dtype=dtypes.float64)
    min_, max_ = API["reduce_min"](data), API["reduce_max"](data)
    range_ = API["subtract"](max_, min_)
    if float(range_.numpy()) == 0:
        edges = API["fill"]([bucket_count], max_)
        counts = np.zeros(bucket_count, np.float64)
        counts[-1] = data_size
        return API["transpose"](API["stack"]([edges, edges, constant(counts, dtypes.float64)]))
    width = API["divide"](range_, API["cast"](constant(bucket_count), dtypes.float64))
    indices = API["cast"](API["floor"](API["divide"](API["subtract"](data, min_), width)), dtypes.int32)
    clamped = API["minimum"](indices, constant(bucket_count - 1))
    counts = API["cast"](API["reduce_sum"](API["one_hot"](clamped, depth=bucket_count, dtype=dtypes.float64), axis=0),
                         dtypes.float64)
    edges = API["linspace"](min_, max_, bucket_count + 1)
    edges = API["concat"]([edges[:-1], API["reshape"](max_, [1])], 0)
    return API["transpose"](API["stack"]([edges[:-1], edges[1:], counts]))


def histogram(name, data, step=None, buckets=None, description=None):
    """TensorBoard's ``histogram`` (plugin ``histograms``)."""
    meta = event_pb.metadata("histograms", description=description or "")
    with summary_scope(name, "histogram_summary", values=[data, buckets, step]) as (tag, _):
        data = API["stop_gradient"](_as_tensor(data))
        return write(tag, lambda: _buckets(data, buckets), step, meta)


def image(name, data, step=None, max_outputs=3, description=None):
    """TensorBoard's ``image``: ``[width, height, PNG…]`` strings (plugin ``images``)."""
    meta = event_pb.metadata("images", description=description or "")
    with summary_scope(name, "image_summary", values=[data, max_outputs, step]) as (tag, _):
        def lazy():
            images = _as_tensor(data)
            if images.shape.rank != 4:
                raise ValueError(f"Tensor {images.name if hasattr(images, 'name') else ''} must have rank 4. "
                                 f"Received rank {images.shape.rank}, shape {images.shape}")
            images = API["image.convert_image_dtype"](images, dtypes.uint8, saturate=True)
            limited = images[:max_outputs]
            encoded = [API["image.encode_png"](limited[i]) for i in range(int(limited.shape[0]))]
            shape = images.shape
            dimensions = [constant(str(shape[i]).encode(), dtypes.string) for i in (2, 1)]  # width, height
            return API["stack"](dimensions + encoded)
        return write(tag, lazy, step, meta)


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """TensorBoard's ``audio``: ``[k, 2]`` strings, each a WAV file and its (empty) label."""
    encoding = "wav" if encoding is None else encoding
    if encoding != "wav":
        raise ValueError(f"Unknown encoding: {encoding!r}")
    meta = event_pb.metadata("audio", content=b"\x10\x0b", description=description or "")  # encoding: WAV (11)
    with summary_scope(name, "audio_summary", values=[data, sample_rate, max_outputs, step]) as (tag, _):
        def lazy():
            clips = _as_tensor(data)
            if clips.shape.rank != 3:
                raise ValueError(f"Tensor must have rank 3. Received rank {clips.shape.rank}, shape {clips.shape}")
            limited = clips[:max_outputs]
            rate = constant(int(sample_rate.numpy() if hasattr(sample_rate, "numpy") else sample_rate), dtypes.int32)
            rows = [[execute("EncodeWav", (limited[i], rate), None, dtype=dtypes.float32),
                     constant(b"", dtypes.string)] for i in range(int(limited.shape[0]))]
            if not rows:
                return constant(np.zeros((0, 2), object), dtypes.string)
            return API["stack"]([API["stack"](row) for row in rows])
        return write(tag, lazy, step, meta)


def graph(graph_data):
    raise AttributeError("devtrace does not implement tf.summary.graph yet")


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start recording the graphs of the ``tf.function``s called (devtrace keeps no trace of its own
    here: ``trace_export`` says so)."""
    if profiler:
        raise AttributeError("devtrace does not implement tf.summary.trace_on(profiler=True) yet")
    _STATE.trace = True


def trace_off():
    _STATE.trace = False


def trace_export(name, step=None, profiler_outdir=None):
    if not _STATE.trace:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    raise AttributeError("devtrace does not implement tf.summary.trace_export yet")


experimental = Namespace(_prefix="summary.experimental", get_step=get_step, set_step=set_step,
                         summary_scope=summary_scope, write_raw_pb=write_raw_pb)

__getattr__ = missing("summary")  # a name devtrace lacks says so (util.namespace)

shown_as(_ResourceSummaryWriter, "tensorflow.python.ops.summary_ops_v2._ResourceSummaryWriter")
