"""The small part of HDF5 that Keras's weights files use, without h5py: groups of groups whose
leaves are numeric datasets (``layers/dense/vars/0``), written and read as h5py writes them by
default — superblock version 0, groups as symbol tables (a version-1 B-tree, one symbol-table
node, a local heap of names), datasets with contiguous storage, little-endian integers and floats;
string attributes (Keras's ``name``) written fixed-length, and skipped when read.

``write(tree)`` takes ``{name: subtree or numpy array}`` (and ``attrs``: ``{path: {key: str}}``)
and returns the file's bytes; ``read(data)`` returns the same nested dict of arrays. A file using
more of HDF5 (chunked or compressed storage, new-style groups, other types) fails in one line
naming what devtrace does not read."""

from __future__ import annotations

import struct

import numpy as np

SIGNATURE = b"\x89HDF\r\n\x1a\n"
UNDEFINED = 0xFFFFFFFFFFFFFFFF


class HDF5Error(ValueError):
    """A file this reader does not understand."""


def _pad8(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 8)


# -- datatypes ---------------------------------------------------------------------------------------
_FLOATS = {2: (15, 10, 5, 0, 10, 15), 4: (31, 23, 8, 0, 23, 127), 8: (63, 52, 11, 0, 52, 1023)}


def _datatype(dtype: np.dtype) -> bytes:
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        sign, exp_loc, exp_size, mant_loc, mant_size, bias = _FLOATS[dtype.itemsize]
        head = bytes([0x11, 0x20, sign, 0]) + struct.pack("<I", dtype.itemsize)
        return head + struct.pack("<HHBBBBI", 0, dtype.itemsize * 8, exp_loc, exp_size, mant_loc, mant_size, bias)
    if dtype.kind in "iu":
        flags = 0x08 if dtype.kind == "i" else 0
        return bytes([0x10, flags, 0, 0]) + struct.pack("<I", dtype.itemsize) + struct.pack("<HH", 0, dtype.itemsize * 8)
    if dtype.kind == "b":  # h5py's bool: an enum of int8 (FALSE 0, TRUE 1)
        base = _datatype(np.dtype("int8"))
        members = _pad8(b"FALSE\0") + _pad8(b"TRUE\0")
        return bytes([0x18, 2, 0, 0]) + struct.pack("<I", 1) + base + members + b"\0\1"
    raise HDF5Error(f"devtrace does not implement HDF5 datasets of dtype {dtype} yet")


def _string_type(size: int) -> bytes:
    return bytes([0x13, 0, 0, 0]) + struct.pack("<I", size)  # fixed-length, null-terminated, ASCII


def _parse_datatype(raw: bytes) -> np.dtype | None:
    """The NumPy dtype of a datatype message; ``None`` for one a dataset of weights never has."""
    klass, flags, size = raw[0] & 0x0F, raw[1], struct.unpack_from("<I", raw, 4)[0]
    order = ">" if flags & 1 else "<"
    if klass == 0:
        return np.dtype(f"{order}{'i' if flags & 0x08 else 'u'}{size}")
    if klass == 1:
        return np.dtype(f"{order}f{size}")
    if klass == 8:  # an enum: its base type (h5py's bool is an int8 enum)
        base = _parse_datatype(raw[8:])
        return np.dtype(bool) if base is not None and base.itemsize == 1 and size == 1 else base
    return None


# -- writing -----------------------------------------------------------------------------------------
class _Writer:
    def __init__(self, leaf_k: int):
        self.out = bytearray()
        self.leaf_k = leaf_k
        self.cached: dict = {}  # a group's header address -> (its B-tree, its heap)

    def alloc(self, data: bytes) -> int:
        address = len(self.out)
        self.out += _pad8(data)
        return address

    def header(self, messages: list) -> int:
        """A version-1 object header of ``(type, data)`` messages."""
        body = b"".join(struct.pack("<HHB3x", kind, len(_pad8(data)), 0) + _pad8(data) for kind, data in messages)
        prefix = struct.pack("<BBHII", 1, 0, len(messages), 1, len(body)) + b"\0" * 4
        return self.alloc(prefix + body)

    def dataset(self, array: np.ndarray, attrs: dict) -> int:
        array = np.array(array, order="C")  # (ascontiguousarray would make a scalar 1-d)
        if array.dtype.byteorder == ">":
            array = array.astype(array.dtype.newbyteorder("<"))
        raw = array.tobytes()
        address = self.alloc(raw) if raw else UNDEFINED
        space = struct.pack("<BBBB4x", 1, array.ndim, 0, 0) + b"".join(struct.pack("<Q", d) for d in array.shape)
        messages = [(0x0001, space), (0x0003, _datatype(array.dtype)), (0x0005, bytes([2, 2, 2, 0])),
                    (0x0008, struct.pack("<BBQQ", 3, 1, address, len(raw)))]
        return self.header(messages + self.attributes(attrs))

    def attributes(self, attrs: dict) -> list:
        messages = []
        for key, value in attrs.items():
            text = str(value).encode() + b"\0"
            name, dtype, space = key.encode() + b"\0", _string_type(len(text)), struct.pack("<BBBB4x", 1, 0, 0, 0)
            head = struct.pack("<BBHHH", 1, 0, len(name), len(dtype), len(space))
            messages.append((0x000C, head + _pad8(name) + _pad8(dtype) + _pad8(space) + text))
        return messages

    def group(self, children: dict, attrs: dict, path: str) -> int:
        """A symbol-table group: its children written first, then its heap, node, B-tree and header."""
        names = sorted(children)
        if len(names) > 2 * self.leaf_k:
            raise HDF5Error(f"too many children in group {path or '/'}")
        addresses = {}
        for name in names:
            child, child_path = children[name], f"{path}/{name}"
            if isinstance(child, dict):
                addresses[name] = self.group(child, attrs, child_path)
            else:
                addresses[name] = self.dataset(np.asarray(child), attrs.get(child_path.lstrip("/"), {}))
        heap_data, offsets = bytearray(b"\0" * 8), {}
        for name in names:
            offsets[name] = len(heap_data)
            heap_data += _pad8(name.encode() + b"\0")
        free = len(heap_data)  # a free block at the end, as HDF5 leaves one (its next: 1, HDF5's "none")
        heap_data += struct.pack("<QQ", 1, 16)
        data_address = self.alloc(bytes(heap_data))
        heap = self.alloc(b"HEAP" + struct.pack("<B3xQQQ", 0, len(heap_data), free, data_address))
        entries = b"".join(_entry(offsets[n], addresses[n], self.cached.get(addresses[n])) for n in names)
        entries += b"\0" * (40 * (2 * self.leaf_k - len(names)))
        node = self.alloc(b"SNOD" + struct.pack("<BBH", 1, 0, len(names)) + entries)
        internal_k = 16
        keys = [0, offsets[names[-1]] if names else 0]
        tree = b"TREE" + struct.pack("<BBHQQ", 0, 0, 1, UNDEFINED, UNDEFINED)
        tree += struct.pack("<QQQ", keys[0], node, keys[1])
        tree += b"\0" * (8 * (2 * internal_k - 1) + 8 * (2 * internal_k - 1))
        btree = self.alloc(tree)
        messages = [(0x0011, struct.pack("<QQ", btree, heap))]
        address = self.header(messages + self.attributes(attrs.get(path.lstrip("/"), {})))
        self.cached[address] = (btree, heap)
        return address


def _entry(name_offset: int, header: int, cached=None) -> bytes:
    """A symbol-table entry; a group's caches its B-tree and heap (cache type 1), as HDF5 writes it."""
    if cached is None:
        return struct.pack("<QQI4x16x", name_offset, header, 0)
    return struct.pack("<QQI4xQQ", name_offset, header, 1, *cached)


def _largest_group(tree: dict) -> int:
    return max([len(tree)] + [_largest_group(v) for v in tree.values() if isinstance(v, dict)])


def write(tree: dict, attrs: dict | None = None) -> bytes:
    """The bytes of an HDF5 file holding ``tree`` (``attrs``: string attributes by group path)."""
    leaf_k = max(4, -(-_largest_group(tree) // 2))
    w = _Writer(leaf_k)
    w.out += b"\0" * 96  # the superblock, written last
    root = w.group(tree, attrs or {}, "")
    root_entry = _entry(0, root, w.cached[root])
    superblock = SIGNATURE + struct.pack("<BBBBBBBBHHI", 0, 0, 0, 0, 0, 8, 8, 0, leaf_k, 16, 0)
    superblock += struct.pack("<QQQQ", 0, UNDEFINED, len(w.out), UNDEFINED) + root_entry
    w.out[:len(superblock)] = superblock
    return bytes(w.out)


# -- reading -----------------------------------------------------------------------------------------
class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        if data[:8] != SIGNATURE:
            raise HDF5Error("not an HDF5 file")
        version = data[8]
        if version not in (0, 1):
            raise HDF5Error(f"devtrace does not read HDF5 superblock version {version} yet")
        if data[13] != 8 or data[14] != 8:
            raise HDF5Error("devtrace reads HDF5 files with 8-byte offsets and lengths only")
        entry = 24 + 32 + (4 if version == 1 else 0)  # the root group's symbol-table entry
        self.root = struct.unpack_from("<Q", data, entry + 8)[0]

    def messages(self, address: int) -> list:
        """``(type, data)`` of a version-1 object header, its continuation blocks followed."""
        data = self.data
        if data[address] != 1:
            raise HDF5Error(f"devtrace does not read version-{data[address]} HDF5 object headers yet")
        count, size = struct.unpack_from("<H", data, address + 2)[0], struct.unpack_from("<I", data, address + 8)[0]
        blocks, found = [(address + 16, size)], []
        while blocks and len(found) < count:
            start, length = blocks.pop(0)
            at = start
            while at + 8 <= start + length and len(found) < count:
                kind, msg_size = struct.unpack_from("<HH", data, at)
                body = data[at + 8:at + 8 + msg_size]
                if kind == 0x0010:  # continuation: more messages elsewhere
                    blocks.append(struct.unpack_from("<QQ", body))
                found.append((kind, body))
                at += 8 + msg_size
        return found

    def node(self, address: int):
        messages = dict((k, v) for k, v in reversed(self.messages(address)))
        if 0x0011 in messages:
            btree, heap = struct.unpack_from("<QQ", messages[0x0011])
            return {name: self.node(child) for name, child in self.group_entries(btree, heap)}
        if 0x0002 in messages or 0x0006 in messages:
            raise HDF5Error("devtrace does not read new-style HDF5 groups (link messages) yet")
        if 0x0008 in messages:
            return self.dataset(messages)
        raise HDF5Error("an HDF5 object devtrace does not read (neither a group nor a dataset)")

    def group_entries(self, btree: int, heap: int) -> list:
        data = self.data
        if data[heap:heap + 4] != b"HEAP":
            raise HDF5Error("a corrupt HDF5 local heap")
        heap_data = struct.unpack_from("<Q", data, heap + 24)[0]
        entries = []
        self._walk(btree, heap_data, entries)
        return entries

    def _walk(self, address, heap_data, entries) -> None:
        data = self.data
        if data[address:address + 4] == b"SNOD":
            count = struct.unpack_from("<H", data, address + 6)[0]
            for i in range(count):
                name_offset, header = struct.unpack_from("<QQ", data, address + 8 + 40 * i)
                end = data.index(b"\0", heap_data + name_offset)
                entries.append((data[heap_data + name_offset:end].decode(), header))
            return
        if data[address:address + 4] != b"TREE":
            raise HDF5Error("a corrupt HDF5 group B-tree")
        used = struct.unpack_from("<H", data, address + 6)[0]
        for i in range(used):
            child = struct.unpack_from("<Q", data, address + 24 + 8 + 16 * i)[0]
            self._walk(child, heap_data, entries)

    def dataset(self, messages: dict) -> np.ndarray:
        space, dtype_raw, layout = messages.get(0x0001), messages.get(0x0003), messages[0x0008]
        if space is None or dtype_raw is None:
            raise HDF5Error("an HDF5 dataset without a dataspace or datatype")
        version, rank = space[0], space[1]
        dims_at = 8 if version == 1 else 4
        shape = tuple(struct.unpack_from("<Q", space, dims_at + 8 * i)[0] for i in range(rank))
        if version == 2 and space[3] == 2:  # a null dataspace
            shape = (0,)
        dtype = _parse_datatype(dtype_raw)
        if dtype is None:
            raise HDF5Error(f"devtrace does not read HDF5 datasets of datatype class {dtype_raw[0] & 0x0F} yet")
        if 0x000B in messages:
            raise HDF5Error("devtrace does not read compressed HDF5 datasets yet")
        count = int(np.prod(shape)) if shape else 1
        if layout[0] == 3 and layout[1] == 1:  # contiguous
            address, size = struct.unpack_from("<QQ", layout, 2)
            raw = b"" if address == UNDEFINED else self.data[address:address + count * dtype.itemsize]
        elif layout[0] == 3 and layout[1] == 0:  # compact: the data in the header
            size = struct.unpack_from("<H", layout, 2)[0]
            raw = layout[4:4 + size]
        else:
            raise HDF5Error(f"devtrace does not read HDF5 dataset layout {layout[:2].hex()} (chunked storage) yet")
        if len(raw) < count * dtype.itemsize:  # allocated late and never written: the fill value, zeros
            raw = b"\0" * (count * dtype.itemsize)
        return np.frombuffer(raw, dtype=dtype, count=count).reshape(shape).astype(dtype.newbyteorder("="))


def read(data: bytes) -> dict:
    """``{name: subtree or array}`` of an HDF5 file's groups and datasets."""
    reader = _Reader(data)
    return reader.node(reader.root)


def flatten(tree: dict, prefix: str = "") -> dict:
    """``{"layers/dense/vars/0": array, …}``."""
    out = {}
    for name, value in tree.items():
        path = f"{prefix}{name}"
        if isinstance(value, dict):
            out.update(flatten(value, path + "/"))
        else:
            out[path] = value
    return out


def nest(flat: dict) -> dict:
    tree: dict = {}
    for path, value in flat.items():
        node = tree
        parts = path.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return tree
