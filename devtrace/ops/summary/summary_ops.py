"""``tf.summary``'s ops, CPU-only as in TensorFlow: ``SummaryWriter`` (the writer resource),
``CreateSummaryFileWriter`` (opens ``events.out.tfevents.<seconds>.<host>.<pid>.<n><suffix>``
in the log directory and writes its first event, the file version), ``WriteSummary`` (one
``Event`` of a tensor with its tag, step and metadata), ``WriteRawProtoSummary`` (serialised
``Summary`` protos as they are), ``FlushSummaryWriter``, ``CloseSummaryWriter``; and
``EncodeWav`` (16-bit PCM), which ``tf.summary.audio`` encodes with. Each record is framed as
TensorFlow's TFRecord writer frames it (``ops.io.tfrecord``). The writer lives in ``WRITERS``
under its name, which the ops carry as their ``writer`` attribute (the role of TensorFlow's
resource handle)."""

from __future__ import annotations

import atexit
import itertools
import os
import socket
import struct
import time

import numpy as np

from ...errors import NotFoundError
from ...runtime import dtypes
from ...runtime.registry import CPU
from ..declare import on_host, op
from ..io import tfrecord
from . import event_pb

WRITERS: dict = {}
_FILES = itertools.count()


class EventFile:
    """An open event file: records appended as they are written, flushed on ``flush``/``close``."""

    def __init__(self, logdir: str, suffix: str):
        os.makedirs(logdir, exist_ok=True)
        seconds = int(time.time())
        self.path = os.path.join(logdir, f"events.out.tfevents.{seconds:010d}.{socket.gethostname()}."
                                         f"{os.getpid()}.{next(_FILES)}{suffix}")
        self._file = open(self.path, "wb")
        self.add(event_pb.event(float(seconds), file_version=True))

    def add(self, record: bytes) -> None:
        if self._file is not None:
            self._file.write(tfrecord.frame(record))

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def release(writer: str) -> None:
    """Close a writer's file and forget it (its Python object is gone)."""
    found = WRITERS.pop(writer, None)
    if found is not None:
        found.close()


@atexit.register
def _close_all() -> None:
    for writer in WRITERS.values():
        if writer is not None:
            writer.close()


def _nothing():
    return np.zeros((0,), np.float32)


def _writer_kernel(xp, writer=""):
    WRITERS.setdefault(writer, None)
    return np.asarray(writer.encode(), dtype=object)


def _bytes(x) -> bytes:
    value = np.asarray(x, dtype=object).reshape(-1)[0]
    return value if isinstance(value, bytes) else str(value).encode()


def _create_file_writer(xp, logdir, max_queue, flush_millis, filename_suffix, writer=""):
    if WRITERS.get(writer) is None:
        WRITERS[writer] = EventFile(_bytes(logdir).decode(), _bytes(filename_suffix).decode())
    return _nothing()


def _file(writer: str) -> EventFile:
    found = WRITERS.get(writer)
    if found is None:
        raise NotFoundError(f"Resource localhost/{writer} does not exist.")
    return found


def _write_summary(xp, step, tensor, tag, metadata, writer="", dtype_name="float32"):
    value = on_host(xp, tensor)
    summary = event_pb.summary_value(_bytes(tag), event_pb.tensor_proto(value, dtypes.as_dtype(dtype_name)),
                                     _bytes(metadata))
    _file(writer).add(event_pb.event(time.time(), int(on_host(xp, step)), summary))
    return _nothing()


def _write_raw_proto(xp, step, tensor, writer=""):
    for proto in np.asarray(tensor, dtype=object).reshape(-1).tolist():
        _file(writer).add(event_pb.event(time.time(), int(on_host(xp, step)), proto))
    return _nothing()


def _flush(xp, writer=""):
    _file(writer).flush()
    return _nothing()


def _close(xp, writer=""):
    found = WRITERS.get(writer)
    if found is not None:
        found.close()
    return _nothing()


def _encode_wav(xp, audio, sample_rate):
    """``EncodeWav``: samples (frames × channels, in [-1, 1]) as a 16-bit PCM WAV file."""
    samples = on_host(xp, audio).astype(np.float64)
    frames, channels = samples.shape
    rate = int(on_host(xp, sample_rate))
    scaled = np.clip(samples, -1.0, 1.0) * 32767.0
    pcm = (np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)).astype("<i2").tobytes()
    fmt = struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2, channels * 2, 16)
    header = b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt " + fmt + b"data" + struct.pack("<I", len(pcm))
    return np.asarray(header + pcm, dtype=object)


def _none(name, shapes_, attrs, dtype):
    return dtypes.float32, (0,)


op("SummaryWriter", _writer_kernel, None, devices=(CPU,), stateful=True, shape=lambda n, s, a, d: (dtypes.resource, ()))
op("CreateSummaryFileWriter", _create_file_writer, None, devices=(CPU,), stateful=True, shape=_none, mixed_dtypes=True)
op("WriteSummary", _write_summary, None, devices=(CPU,), stateful=True, shape=_none, mixed_dtypes=True)
op("WriteRawProtoSummary", _write_raw_proto, None, devices=(CPU,), stateful=True, shape=_none, mixed_dtypes=True)
op("FlushSummaryWriter", _flush, None, devices=(CPU,), stateful=True, shape=_none)
op("CloseSummaryWriter", _close, None, devices=(CPU,), stateful=True, shape=_none)
op("EncodeWav", _encode_wav, {CPU: {"float32"}}, devices=(CPU,), shape=lambda n, s, a, d: (dtypes.string, ()),
   mixed_dtypes=True)
