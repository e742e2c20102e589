"""``tf.data``'s file readers: ``TextLineDataset`` (lines without their ``\\n``/``\\r\\n``),
``FixedLengthRecordDataset`` (records of ``record_bytes`` between a header and a footer) and
``TFRecordDataset`` (TFRecord files, their CRCs checked). Files are opened when a pass over the
dataset reaches them, as TensorFlow's readers open them; elements are scalar strings."""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..ops.io import tfrecord


def filenames_of(filenames) -> list[bytes]:
    from ..runtime.values import host_array

    names = host_array(filenames)[0] if not isinstance(filenames, (str, bytes)) else np.asarray([filenames], object)
    return [n if isinstance(n, bytes) else str(n).encode() for n in np.asarray(names, object).reshape(-1)]


def _scalar(data: bytes):
    return np.asarray(data, dtype=object)


def text_line_source(filenames, compression_type):
    def source():
        for name in filenames:
            with tfrecord.open_for_reading(name.decode(), compression_type) as f:
                data = f.read()
            lines = data.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()
            for line in lines:
                yield _scalar(line[:-1] if line.endswith(b"\r") else line)
    return source


def fixed_length_source(filenames, record_bytes, header_bytes, footer_bytes, compression_type):
    def source():
        for name in filenames:
            with tfrecord.open_for_reading(name.decode(), compression_type) as f:
                data = f.read()
            body = data[header_bytes:len(data) - footer_bytes]
            if len(body) % record_bytes:
                raise InvalidArgumentError(
                    f"Excluding the header ({header_bytes} bytes) and footer ({footer_bytes} bytes), input file "
                    f"\"{name.decode()}\" has body length {len(body)} bytes, which is not an exact multiple of the "
                    f"record length ({record_bytes} bytes). [Op:IteratorGetNext] name: ")
            for start in range(0, len(body) - record_bytes + 1, record_bytes):
                yield _scalar(body[start:start + record_bytes])
    return source


def tfrecord_source(filenames, compression_type):
    def source():
        for name in filenames:
            for record in tfrecord.tf_record_iterator(name.decode(), compression_type):
                yield _scalar(record)
    return source
