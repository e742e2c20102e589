"""The TFRecord file format, as TensorFlow's ``RecordWriter``/``RecordReader`` write and read it:
each record is its length (uint64, little-endian), the masked CRC-32C of those 8 bytes (uint32),
the data, and the masked CRC-32C of the data; a file may be GZIP or ZLIB compressed as a whole.
``tf.io.TFRecordWriter``, ``tf.io.TFRecordOptions`` and ``tf.compat.v1.io.tf_record_iterator``."""

from __future__ import annotations

import gzip
import io
import struct
import zlib

from ...errors import DataLossError, NotFoundError

_POLY = 0x82F63B78  # CRC-32C (Castagnoli), reflected


def _table() -> list[int]:
    out = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        out.append(c)
    return out


_TABLE = _table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    table = _TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """TensorFlow's ``crc32c::Mask``: rotated right by 15 bits plus a constant."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(record: bytes) -> bytes:
    length = struct.pack("<Q", len(record))
    return length + struct.pack("<I", masked_crc(length)) + record + struct.pack("<I", masked_crc(record))


class TFRecordCompressionType:
    NONE, ZLIB, GZIP = 0, 1, 2


class TFRecordOptions:
    """``tf.io.TFRecordOptions``: the compression of a TFRecord file ('' / 'ZLIB' / 'GZIP')."""

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB", TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        self.compression_type = self.get_compression_type_string(compression_type)
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options) -> str:
        if options is None:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        if isinstance(options, int):
            return cls.compression_type_map[options]
        if options not in ("", "ZLIB", "GZIP"):
            raise ValueError(f'Unsupported compression type: {options}')
        return options


def _compression(options) -> str:
    return TFRecordOptions.get_compression_type_string(options)


def open_for_reading(path: str, compression_type=None):
    """A file's bytes, decompressed as ``compression_type`` says."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, f"{path}; No such file or directory") from None
    kind = _compression(compression_type)
    if kind == "GZIP":
        data = gzip.decompress(data)
    elif kind == "ZLIB":
        data = zlib.decompress(data)
    return io.BytesIO(data)


def records(data: bytes, path: str = ""):
    """The records of a TFRecord file's bytes, each CRC checked."""
    at = 0
    while at < len(data):
        if at + 12 > len(data):
            raise DataLossError(None, None, f"truncated record at {at}' failed with Data loss: reading header")
        header = data[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (crc,) = struct.unpack("<I", data[at + 8:at + 12])
        if masked_crc(header) != crc:
            raise DataLossError(None, None, f"corrupted record at {at}")
        body = data[at + 12:at + 12 + length]
        if len(body) < length or at + 16 + length > len(data):
            raise DataLossError(None, None, f"truncated record at {at}' failed with Data loss: reading data")
        (crc,) = struct.unpack("<I", data[at + 12 + length:at + 16 + length])
        if masked_crc(body) != crc:
            raise DataLossError(None, None, f"corrupted record at {at}")
        yield body
        at += 16 + length


def tf_record_iterator(path, options=None):
    with open_for_reading(str(path), options) as f:
        yield from records(f.read(), str(path))


class TFRecordWriter:
    """``tf.io.TFRecordWriter``: records written to ``path`` as TensorFlow writes them."""

    def __init__(self, path, options=None):
        self._path, self._kind = str(path), _compression(options)
        self._buffer = io.BytesIO()
        self._file = open(self._path, "wb")
        self._closed = False

    def write(self, record):
        if hasattr(record, "numpy"):
            record = record.numpy()
        if isinstance(record, str):
            record = record.encode()
        self._buffer.write(frame(bytes(record)))
        if not self._kind:
            self._file.write(self._buffer.getvalue())
            self._buffer = io.BytesIO()

    def flush(self):
        if not self._kind:
            self._file.flush()

    def close(self):
        if self._closed:
            return
        self._closed = True
        data = self._buffer.getvalue()
        if self._kind == "GZIP":
            data = gzip.compress(data)
        elif self._kind == "ZLIB":
            data = zlib.compress(data)
        self._file.write(data)
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
