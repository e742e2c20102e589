"""``tf.lookup``'s tables, run as TensorFlow's ops (``HashTableV2``, ``LookupTableImportV2``,
``LookupTableFindV2``, ``LookupTableSizeV2``, ``LookupTableInsertV2``/``RemoveV2``/``ExportV2``,
``MutableHashTableV2``, ``MutableDenseHashTableV2``, ``InitializeTableFromTextFileV2``), each
CPU-only as in TensorFlow (no lookup op has a GPU kernel), placed and logged like every op.

A table lives in ``TABLES`` under its name; the ops name it by the ``table_handle`` attribute
(the role of TensorFlow's resource handle), so a table built eagerly is found by ops a
``tf.function`` traced; a table a function makes is made anew each time the function runs (its
``HashTableV2`` node runs again), as TensorFlow's function-local tables are. An eager table's
entry goes with its Python object. The attribute is named as TensorFlow's handle input, so that
the placement log's kernel cache (``runtime.eager.kernel_graph``) keys on it as TensorFlow does:
not at all. Keys are kept as Python values (bytes for strings) in a dict.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field

import numpy as np

from ...errors import NotFoundError
from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.values import constant
from ..declare import as_tensor, on_host, op, public


@dataclass
class Table:
    key_dtype: object
    value_dtype: object
    value_shape: tuple = ()
    data: dict = field(default_factory=dict)
    initialized: bool = False
    reserved: tuple = ()  # a dense table's empty and deleted keys


TABLES: dict = {}
_NUMBERS = itertools.count(1)


def _key(v):
    return v if isinstance(v, bytes) else v.item() if hasattr(v, "item") else v


def _table(name) -> Table:
    table = TABLES.get(name)
    if table is None:
        raise NotFoundError(f"Resource localhost/{name} does not exist.")
    return table


def _create(xp, table_handle="", key_dtype="string", value_dtype="int64", value_shape=()):
    TABLES[table_handle] = Table(dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype), tuple(value_shape))
    return np.asarray(table_handle.encode(), dtype=object)


def _create_dense(xp, empty_key, deleted_key, **attrs):
    handle = _create(xp, **attrs)
    reserved = (empty_key, deleted_key)
    TABLES[attrs["table_handle"]].reserved = tuple(_key(on_host(xp, k).reshape(-1)[0]) for k in reserved)
    return handle


def _import(xp, keys, values, table_handle=""):
    t = _table(table_handle)
    keys, values = on_host(xp, keys), on_host(xp, values)
    if t.initialized:
        raise ValueError("Table already initialized.")
    if keys.shape[:1] != values.shape[:1]:
        raise ValueError(f"Expected shape {list(keys.shape)} for value, got {list(values.shape)}")
    t.data = {_key(k): v for k, v in zip(keys.reshape(-1), values.reshape(len(keys.reshape(-1)), *t.value_shape))}
    t.initialized = True
    return np.zeros((0,), np.float32)


def _reserved(keys, table: Table) -> None:
    """A dense table's empty and deleted keys may not be used (``MutableDenseHashTableV2``)."""
    for which, reserved in zip(("empty_key", "deleted_key"), table.reserved):
        if any(_key(k) == reserved for k in keys.reshape(-1)):
            raise ValueError(f"Using the {which} as a table key is not allowed")  # InvalidArgumentError, wrapped


def _find(xp, keys, default, table_handle="", value_dtype=None):
    t = _table(table_handle)
    keys, default = on_host(xp, keys), on_host(xp, default)
    _reserved(keys, t)
    out = np.empty(keys.shape + t.value_shape, dtype=t.value_dtype.np)
    flat = out.reshape((keys.size,) + t.value_shape)
    default = np.broadcast_to(default, t.value_shape) if default.size <= max(1, int(np.prod(t.value_shape))) \
        else default.reshape((keys.size,) + t.value_shape)
    shared = default[()] if default.ndim == 0 else default  # a scalar's value (not a 0-d array: strings are objects)
    for i, k in enumerate(keys.reshape(-1)):
        flat[i] = t.data.get(_key(k), shared if default.ndim == len(t.value_shape) else default[i])
    return xp.asarray(out) if t.value_dtype != dtypes.string else out


def _size(xp, table_handle=""):
    return np.asarray(len(_table(table_handle).data), np.int64)


def _insert(xp, keys, values, table_handle=""):
    t = _table(table_handle)
    keys, values = on_host(xp, keys), on_host(xp, values)
    _reserved(keys, t)
    for k, v in zip(keys.reshape(-1), values.reshape((keys.size,) + t.value_shape)):
        t.data[_key(k)] = v
    return np.zeros((0,), np.float32)


def _remove(xp, keys, table_handle=""):
    t = _table(table_handle)
    _reserved(on_host(xp, keys), t)
    for k in on_host(xp, keys).reshape(-1):
        t.data.pop(_key(k), None)
    return np.zeros((0,), np.float32)


def _export(xp, table_handle="", key_dtype=None, value_dtype=None):
    t = _table(table_handle)
    keys = np.array(list(t.data), dtype=t.key_dtype.np)
    values = np.array(list(t.data.values()), dtype=t.value_dtype.np).reshape((len(t.data),) + t.value_shape)
    return keys, values


WHOLE_LINE, LINE_NUMBER = -2, -1


def _from_text_file(xp, filename, table_handle="", key_index=WHOLE_LINE, value_index=LINE_NUMBER, vocab_size=-1,
                    delimiter="\t", offset=0):
    t = _table(table_handle)
    path = np.asarray(filename, dtype=object).reshape(-1)[0]
    path = path.decode() if isinstance(path, bytes) else str(path)
    try:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    if lines and lines[-1] == b"":
        lines.pop()
    if vocab_size != -1:
        lines = lines[:vocab_size]

    def column(line, number, index, dtype):
        if index == WHOLE_LINE:
            value = line
        elif index == LINE_NUMBER:
            value = number + offset
        else:
            fields = line.split(delimiter.encode())
            if index >= len(fields):
                raise ValueError(f"Invalid number of columns in {path} line {number} ({line.decode()}) : "
                                           f"expected {index + 1} got {len(fields)}")
            value = fields[index]
        if dtype == dtypes.string:
            return value if isinstance(value, bytes) else str(value).encode()
        return np.dtype(dtype.np).type(int(value) if dtype.is_integer else float(value)).item()

    t.data = {column(line, n, key_index, t.key_dtype): np.asarray(column(line, n, value_index, t.value_dtype),
                                                                  t.value_dtype.np)
              for n, line in enumerate(lines)}
    t.initialized = True
    return np.zeros((0,), np.float32)


def _resource(name, shapes_, attrs, dtype):
    return dtypes.resource, ()


def _nothing(name, shapes_, attrs, dtype):
    return dtypes.float32, (0,)


def _found(name, shapes_, attrs, dtype):
    """The keys' shape for a table of scalar values (TensorFlow's shape function: keys, then a value's shape)."""
    scalar = len(shapes_) >= 2 and shapes_[-1] == ()  # (keys, default value): the table is the op's resource
    return dtypes.as_dtype(attrs["value_dtype"]), (shapes_[-2] if scalar else None)


for _name in ("HashTableV2", "MutableHashTableV2"):
    op(_name, _create, None, devices=(CPU,), shape=_resource, stateful=True, mixed_dtypes=True)
op("MutableDenseHashTableV2", _create_dense, None, devices=(CPU,), shape=_resource, stateful=True, mixed_dtypes=True)
op("LookupTableImportV2", _import, None, devices=(CPU,), shape=_nothing, stateful=True, mixed_dtypes=True)
op("LookupTableInsertV2", _insert, None, devices=(CPU,), shape=_nothing, stateful=True, mixed_dtypes=True)
op("LookupTableRemoveV2", _remove, None, devices=(CPU,), shape=_nothing, stateful=True, mixed_dtypes=True)
op("InitializeTableFromTextFileV2", _from_text_file, None, devices=(CPU,), shape=_nothing, stateful=True,
   mixed_dtypes=True)
op("LookupTableFindV2", _find, None, devices=(CPU,), shape=_found, stateful=True, mixed_dtypes=True)
op("LookupTableSizeV2", _size, None, devices=(CPU,), shape=lambda n, s, a, d: (dtypes.int64, ()), stateful=True)
op("LookupTableExportV2", _export, None, devices=(CPU,), multi=True, stateful=True, mixed_dtypes=True,
   shape=lambda n, s, a, d: ([(dtypes.as_dtype(a["key_dtype"]), (None,)), (dtypes.as_dtype(a["value_dtype"]), None)],
                             None))


def _tensor(value, dtype):
    return value if hasattr(value, "_dtype") else constant(value, dtype)


# the tables

class _Base:
    """What every table has: its dtypes, name, resource, ``lookup``/``[]``, ``size``."""

    _op = "HashTableV2"

    def __init__(self, key_dtype, value_dtype, default_value, name, value_shape=()):
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._name = name or type(self)._default_name
        self._table = f"{self._name}_{next(_NUMBERS)}"
        self._value_shape = tuple(value_shape)
        self._default_value = _tensor(default_value, self._value_dtype) if default_value is not None else None
        if context().eager:
            weakref.finalize(self, TABLES.pop, self._table, None)
        self._resource_handle = execute(self._op, self._create_inputs(), self._attrs({"key_dtype": self._key_dtype.name,
                                                                   "value_dtype": self._value_dtype.name,
                                                                   "value_shape": self._value_shape}),
                                        dtype=self._key_dtype)

    def _attrs(self, extra=None):
        return {"table_handle": self._table, **(extra or {})}

    def _create_inputs(self) -> tuple:
        return ()

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def default_value(self):
        return self._default_value

    @property
    def name(self):
        return self._name

    @property
    def resource_handle(self):
        return self._resource_handle

    def _keys(self, keys):
        keys = as_tensor(keys) if hasattr(keys, "_dtype") else constant(keys, self._key_dtype)
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        return keys

    def size(self, name=None):
        return execute("LookupTableSizeV2", (), self._attrs(), name=name, dtype=dtypes.int64)

    def lookup(self, keys, name=None):
        """The values of ``keys`` (a tensor, or a ``SparseTensor``/``RaggedTensor``'s values), the
        default value for the missing ones."""
        values_of = getattr(keys, "with_values", None)
        if values_of is not None and hasattr(keys, "values"):
            return values_of(self._find(keys.values, name))
        if hasattr(keys, "indices") and hasattr(keys, "dense_shape"):
            return type(keys)(keys.indices, self._find(keys.values, name), keys.dense_shape)
        return self._find(keys, name)

    def _find(self, keys, name=None):
        return execute("LookupTableFindV2", (self._keys(keys), self._default_value),
                       self._attrs({"value_dtype": self._value_dtype.name}), name=name, dtype=self._key_dtype)

    def __getitem__(self, keys):
        return self.lookup(keys)

    def export(self, name=None):
        return execute("LookupTableExportV2", (), self._attrs({"key_dtype": self._key_dtype.name,
                                                                "value_dtype": self._value_dtype.name}),
                       name=name, dtype=self._key_dtype)


@public("lookup.KeyValueTensorInitializer")
class KeyValueTensorInitializer:
    """A table's contents from a keys tensor and a values tensor."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = keys if hasattr(keys, "_dtype") else constant(keys, key_dtype)
        self._values = values if hasattr(values, "_dtype") else constant(values, value_dtype)
        self._name = name or "key_value_init"

    @property
    def key_dtype(self):
        return self._keys.dtype

    @property
    def value_dtype(self):
        return self._values.dtype

    def initialize(self, table):
        execute("LookupTableImportV2", (table._keys(self._keys), self._values), table._attrs(),
                dtype=self._keys.dtype)


@public("lookup.TextFileIndex")
class TextFileIndex:
    WHOLE_LINE = WHOLE_LINE
    LINE_NUMBER = LINE_NUMBER


@public("lookup.TextFileInitializer")
class TextFileInitializer:
    """A table's contents from a text file: a key and a value column of each line (or the whole
    line, or its number)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None, value_index_offset=0):
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        if key_index < -2:
            raise ValueError(f"`key_index` should be >= -2, received: {key_index}.")
        if key_index == LINE_NUMBER and key_dtype != dtypes.int64:
            raise ValueError(f"`key_dtype` must be int64 if `key_index` is {LINE_NUMBER}, received: {key_dtype}")
        if key_index == WHOLE_LINE and not (key_dtype.is_integer or key_dtype == dtypes.string):
            raise ValueError(f"`key_dtype` should be either integer or string for `key_index` {WHOLE_LINE}, "
                             f"received: {key_dtype}")
        if value_index < -2:
            raise ValueError(f"`value_index` should be >= -2, received: {value_index}")
        if value_index == LINE_NUMBER and value_dtype != dtypes.int64:
            raise ValueError(f"`value_dtype` must be int64 for `value_index` {LINE_NUMBER}, received: {value_dtype}")
        self._filename = filename
        self._key_dtype, self._value_dtype = key_dtype, value_dtype
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size = -1 if vocab_size is None else int(vocab_size)
        self._delimiter, self._offset = delimiter, value_index_offset
        self._name = name or "text_file_init"

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    def initialize(self, table):
        filename = self._filename if hasattr(self._filename, "_dtype") else constant(str(self._filename), dtypes.string)
        execute("InitializeTableFromTextFileV2", (filename,), table._attrs({
            "key_index": self._key_index, "value_index": self._value_index, "vocab_size": self._vocab_size,
            "delimiter": self._delimiter, "offset": self._offset}), dtype=dtypes.string)


@public("lookup.StaticHashTable")
class StaticHashTable(_Base):
    """A table filled once by its initializer; ``lookup`` gives ``default_value`` for a missing key."""

    _default_name = "hash_table"

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        self._initializer = initializer
        super().__init__(initializer.key_dtype, initializer.value_dtype, default_value, name)
        initializer.initialize(self)

    def export(self, name=None):
        return super().export(name)


@public("lookup.StaticVocabularyTable")
class StaticVocabularyTable(_Base):
    """Ids for a vocabulary: a key's value if it has one, else ``size + hash(key) % num_oov_buckets``
    (FarmHash's fingerprint, ``StringToHashBucketFast``)."""

    _default_name = "hash_table"

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError(f"`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got {initializer.value_dtype}.")
        self._num_oov_buckets = int(num_oov_buckets)
        self._initializer = initializer
        super().__init__(initializer.key_dtype, dtypes.int64, -1, name)
        initializer.initialize(self)
        self._size = int(_size(np, table_handle=self._table))

    def size(self, name=None):
        return constant(self._size + self._num_oov_buckets, dtypes.int64)

    def _find(self, keys, name=None):
        from ..array.array_ops import where
        from ..math.math_ops import add, not_equal
        from ..strings.string_ops import as_string, to_hash_bucket_fast

        keys = self._keys(keys)
        strings = keys if keys.dtype == dtypes.string else as_string(keys)
        buckets = to_hash_bucket_fast(strings, self._num_oov_buckets)
        ids = super()._find(keys, name)
        buckets = add(buckets, constant(self._size, dtypes.int64))
        return where(not_equal(ids, constant(-1, dtypes.int64)), ids, buckets)


@public("lookup.experimental.MutableHashTable")
class MutableHashTable(_Base):
    """A table that ``insert``/``remove`` change."""

    _op = "MutableHashTableV2"
    _default_name = "MutableHashTable"

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        default = constant(default_value, dtypes.as_dtype(value_dtype))
        super().__init__(key_dtype, value_dtype, default, name, tuple(default.shape))
        if checkpoint:  # TensorFlow's saveable reads the table once as it is made
            self.export()

    def insert(self, keys, values, name=None):
        values = values if hasattr(values, "_dtype") else constant(values, self._value_dtype)
        if values.dtype != self._value_dtype:
            raise TypeError(f"Dtype of argument `values` must be {self._value_dtype}, received: {values.dtype}")
        execute("LookupTableInsertV2", (self._keys(keys), values), self._attrs(), name=name, dtype=self._key_dtype)

    def remove(self, keys, name=None):
        execute("LookupTableRemoveV2", (self._keys(keys),), self._attrs(), name=name, dtype=self._key_dtype)


@public("lookup.experimental.DenseHashTable")
class DenseHashTable(MutableHashTable):
    """A mutable table with open addressing in TensorFlow: ``empty_key`` and ``deleted_key`` are
    reserved and may not be inserted or looked up."""

    _op = "MutableDenseHashTableV2"
    _default_name = "MutableDenseHashTable"

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key, initial_num_buckets=None,
                 name="MutableDenseHashTable", checkpoint=True, experimental_is_anonymous=False):
        self._reserved = (empty_key, deleted_key)
        _Base.__init__(self, key_dtype, value_dtype, constant(default_value, dtypes.as_dtype(value_dtype)), name,
                       tuple(constant(default_value, dtypes.as_dtype(value_dtype)).shape))
        if checkpoint:
            self.export()

    def _create_inputs(self) -> tuple:
        return tuple(constant(k, self._key_dtype) for k in self._reserved)
