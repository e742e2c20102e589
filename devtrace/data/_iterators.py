"""tf.data's iterators: ``iter(dataset)`` (``OwnedIterator``, checkpointable), ``as_numpy_iterator``
(``NumpyIterator``) and the specs of iterators and dataset-valued elements."""

from __future__ import annotations

import itertools

import numpy as np

from . import _extension as extension, _functions as data_functions
from ._elements import _numpy, _tensor, map_structure
from ._optional import Optional
from ..ops import iterator_ops
from ..runtime.context import context as _context
from ..runtime.eager.variables import Variable
from ..runtime.graph.graph import init_scope
from ..runtime.tensor_shape import TensorShape
from ..util import nest as _nest

class DatasetSpec:
    """The type of a dataset-valued element (``window``'s sub-datasets)."""

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec, self._dataset_shape = element_spec, TensorShape(dataset_shape)

    @staticmethod
    def from_value(value):
        return DatasetSpec(value.element_spec)

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, {self._dataset_shape!r})"


class OwnedIterator:
    """``iter(dataset)``: its elements as tensors; a ``tf.train.Checkpoint`` saves how many it gave
    (a variable made when a checkpoint first looks) and a restore resumes there."""

    def __init__(self, dataset):
        self._opening = data_functions.Opening()
        self._dataset, self._count, self._position, self._synced = dataset, 0, None, 0
        self._elements = data_functions.iterated(self._opening, dataset._source())
        self._peeked = None  # the element a tf.function's trace looked at: the first its run takes
        self._traced = not _context().eager  # made while a tf.function traces: its elements are the trace's

    def __iter__(self):
        """Itself; a Python ``for`` over it while a tf.function traces takes every element then
        (the loop unrolled into the trace)."""
        return self if _context().eager else self._unrolled()

    def _unrolled(self):
        while True:
            try:
                element = self._take()
            except StopIteration:
                return
            yield extension.values(map_structure(_tensor, element))

    def _take(self):
        if self._position is not None and int(self._position.numpy()) != self._synced:
            self._synced = self._count = int(self._position.numpy())
            self._elements = itertools.islice(data_functions.iterated(self._opening, self._dataset._source()),
                                              self._count, None)
            self._peeked = None
        element, self._peeked = self._peeked, None
        if element is None:
            element = next(self._elements)
        self._count += 1
        return element

    def __next__(self):
        if not _context().eager and not self._traced:
            out = self._next_in_graph()
            if out is not None:
                return out
        return extension.values(map_structure(_tensor, self._take()))

    def _next_in_graph(self):
        """``next`` in a ``tf.function`` of an iterator made outside it: an ``IteratorGetNext`` node
        on the CPU, which takes the next element each time the function runs (dense numeric
        elements; others are taken while tracing)."""
        if self._peeked is None:
            with init_scope():  # the dataset's functions run eagerly, as in TensorFlow's iterator
                self._peeked = next(self._elements)
        leaves = _nest.flatten(self._peeked)
        if not all(isinstance(a, (np.ndarray, np.generic)) and np.asarray(a).dtype.kind in "biufc" for a in leaves):
            return None
        specs = [(np.asarray(a).dtype.name, np.shape(a)) for a in leaves]
        out = iterator_ops.get_next(lambda: [np.asarray(a) for a in _nest.flatten(self._take())], specs)
        return _nest.pack_sequence_as(self._peeked, list(out))

    def get_next(self):
        return next(self)

    next = __next__  # TensorFlow's iterators keep Python 2's name too

    def get_next_as_optional(self):
        try:
            return Optional(next(self), self._dataset.element_spec, True)
        except StopIteration:
            return Optional.empty(self._dataset.element_spec)

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def _trackable_children(self):
        if self._position is None:
            self._position = Variable(self._count, dtype="int64", trainable=False, name="iterator_position")
        else:
            self._position.assign(self._count)
        self._synced = self._count
        return [(".ATTRIBUTES/ITERATOR_STATE", self._position)]  # TensorFlow's key of an iterator's state

    def __repr__(self):
        return f"<tensorflow.python.data.ops.iterator_ops.OwnedIterator object at {id(self):#x}>"


class NumpyIterator:
    """``tf.data.NumpyIterator``: a dataset's elements as NumPy values (``as_numpy_iterator``)."""

    def __init__(self, dataset):
        self._iterator = OwnedIterator(dataset)
        self._elements = data_functions.iterated(data_functions.Opening(), dataset._source())

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._elements)
        return map_structure(_numpy, element)

    next = __next__

    def __repr__(self):
        return f"NumpyIterator(iterator={self._iterator!r})"


class IteratorSpec:
    """``tf.data.IteratorSpec``: the type of an iterator, by its element spec."""

    value_type = OwnedIterator

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @staticmethod
    def from_value(value):
        return IteratorSpec(value.element_spec)

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and self._element_spec == other._element_spec

    __hash__ = None

    def __repr__(self):
        return f"IteratorSpec({self._element_spec!r},)"
