"""What ``fit``/``evaluate``/``predict`` iterate, as Keras 3's epoch iterator does: NumPy arrays (or
lists of them, one per model input) cut into batches — shuffled each pass when asked — or the
batches a ``tf.data.Dataset`` yields; each batch packed as Keras packs it (``x``, ``(x, y)`` or
``(x, y, sample_weight)``, ``class_weight`` turned into sample weights). With ``steps_per_epoch``
the pass continues across epochs and restarts once the data is used up (the epoch that uses it
up stops early, with Keras's warning). Keras's ``validation_split`` takes the last fraction of the
samples."""

from __future__ import annotations

import itertools
import random
import types
import warnings

import numpy as np

import devtrace as tf
from ..ops.random.random_ops import function_permutations
from .py_dataset import PyDataset, standardize

_RAN_OUT = ("Your input ran out of data; interrupting training. Make sure that your dataset or generator can "
            "generate at least `steps_per_epoch * epochs` batches. You may need to use the `.repeat()` function "
            "when building your dataset.")


def _array(x):
    if isinstance(x, dict):
        return {k: _array(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_array(v) for v in x]
    if isinstance(x, tf.SparseTensor):
        return x
    value = x.numpy() if isinstance(x, tf.Tensor) else np.asarray(x)
    return value.astype(np.float32) if value.dtype.kind == "f" else value


def _targets(y):
    """The targets: one array, or one per output (a list of arrays, a dict keyed by output name)."""
    if y is None:
        return None
    if isinstance(y, dict) or (isinstance(y, (list, tuple)) and y and all(hasattr(v, "shape") for v in y)):
        return _array(y) if not isinstance(y, tuple) else _array(list(y))
    return np.asarray(y)


def _length(x) -> int:
    if isinstance(x, dict):
        return _length(next(iter(x.values())))
    if isinstance(x, list):
        return _length(x[0])
    if isinstance(x, tf.SparseTensor):
        return int(x.dense_shape.numpy()[0])
    return len(x)


def _take(x, idx):
    if isinstance(x, dict):
        return {k: _take(v, idx) for k, v in x.items()}
    if isinstance(x, list):
        return [_take(v, idx) for v in x]
    if isinstance(x, tf.SparseTensor):
        return _sparse_rows(x, idx)
    if isinstance(x, np.ndarray) and isinstance(idx, np.ndarray):
        return x.take(idx, axis=0)  # NumPy's rows by index, about twice as fast as x[idx]
    return x[idx]


def _sparse_rows(x, idx):
    """The rows ``idx`` of a ``tf.SparseTensor`` (a batch of a sparse input), in that order."""
    rows = np.arange(_length(x))[idx]
    position = np.full(_length(x), -1)
    position[rows] = np.arange(len(rows))
    indices, values = x.indices.numpy(), x.values.numpy()
    kept = position[indices[:, 0]] >= 0
    new = indices[kept].copy()
    new[:, 0] = position[new[:, 0]]
    order = np.lexsort(new[:, ::-1].T) if len(new) else np.arange(0)
    shape = [len(rows)] + [int(d) for d in x.dense_shape.numpy()[1:]]
    return tf.SparseTensor(new[order], values[kept][order], shape)


def pack(x, y=None, sample_weight=None):
    """Keras's ``pack_x_y_sample_weight``."""
    if y is None:
        return (x,) if isinstance(x, (list, tuple)) else x
    return (x, y) if sample_weight is None else (x, y, sample_weight)


def unpack(data):
    """Keras's ``unpack_x_y_sample_weight``: ``(x, y, sample_weight)`` of a batch."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                     f"found: {data}")


def class_weights(y, class_weight) -> np.ndarray:
    """Keras's ``class_weight_to_sample_weights``: each sample's class (argmax of a one-hot label)
    weighted as the map says (1.0 when it does not name the class)."""
    labels = np.asarray(y.numpy() if isinstance(y, tf.Tensor) else y)
    if labels.ndim > 1:
        labels = np.argmax(labels, axis=-1) if labels.shape[-1] != 1 else np.squeeze(labels, axis=-1)
    labels = np.round(labels).astype("int32")
    return np.array([class_weight.get(int(c), 1.0) for c in labels], dtype="float32")


class EpochIterator:
    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps_per_epoch=None, shuffle=False,
                 class_weight=None):
        self.dataset = x if isinstance(x, tf.data.Dataset) else None
        self.steps_per_epoch, self.shuffle, self.class_weight = steps_per_epoch, shuffle, class_weight
        if class_weight is not None and sample_weight is not None:
            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
        self._iterator, self._seen = None, 0
        self.static_batch = None
        self.generator = None
        if isinstance(x, types.GeneratorType):
            self._take_generator(x, y, sample_weight, class_weight, shuffle)
            return
        self.py_dataset = x if isinstance(x, PyDataset) else None
        if self.py_dataset is not None:
            for name, given in (("y", y), ("sample_weights", sample_weight)):
                if given is not None:
                    what = "the targets" if name == "y" else "the sample weights"
                    raise ValueError(f"When providing `x` as a PyDataset, `{name}` should not be passed. Instead, "
                                     f"{what} should be included as part of the PyDataset.")
            self.x, self.num_batches = None, x.num_batches
            x.workers, x.use_multiprocessing  # noqa: B018 (Keras reads them: its warning when super() was not called)
            if self.num_batches is None and shuffle:
                warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as an "
                              "infinite PyDataset. The PyDataset is expected to already be shuffled.", stacklevel=3)
            return
        if self.dataset is not None:
            cardinality = int(self.dataset.cardinality().numpy())
            self.num_batches = cardinality if cardinality >= 0 else None
            self.x = None
            return
        self.x, self.y = _array(x), _targets(y)
        self.sample_weight = np.asarray(sample_weight, np.float32) if sample_weight is not None else None
        self.n, self.size = _length(self.x), batch_size or 32
        if self.y is not None and _length(self.y) != self.n:
            raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the same number of "
                             f"samples.'x' sizes: {self.n}\n'y' sizes: {_length(self.y)}\n")
        self.num_batches = -(-self.n // self.size)
        # the size of every batch when the batch size divides the samples (Keras's dataset then has a static
        # batch dimension, which TensorFlow traces the step for); None when the last batch is smaller
        self.static_batch = self.size if self.n and self.n % self.size == 0 else None

    def _take_generator(self, x, y, sample_weight, class_weight, shuffle):
        """Keras's generator adapter: its first two batches peeked (and yielded again at the start of
        every pass, as Keras chains them), each a tuple; the number of batches unknown."""
        for name, given, what in (("y", y, "the targets"), ("sample_weights", sample_weight, "the sample weights")):
            if given is not None:
                raise ValueError(f"When providing `x` as a generator, `{name}` should not be passed. Instead, {what} "
                                 f"should be included as part of the generator.")
        if class_weight is not None:
            raise ValueError(f"Argument `class_weight` is not supported for Python generator inputs. Received: "
                             f"class_weight={class_weight}")
        if shuffle:
            warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as a "
                          "generator. The generator is expected to yield already-shuffled data.", stacklevel=3)
        first = list(itertools.islice(x, 2))
        if not first:
            raise ValueError("When passing a Python generator to a Keras model, the generator must yield at least one "
                             "batch. Received an empty generator.")
        if not isinstance(first[0], tuple):
            raise ValueError("When passing a Python generator to a Keras model, the generator must return a tuple, "
                             "either (input,) or (inputs, targets) or (inputs, targets, sample_weights). "
                             f"Received: {first[0]}")
        self.generator, self.py_dataset, self.dataset, self.x, self.num_batches = (first, x), None, None, None, None

    @property
    def steps(self):
        """What the progress bar counts to: ``steps_per_epoch``, else the batches of one pass."""
        return self.steps_per_epoch or self.num_batches

    def _pass(self):
        if self.py_dataset is not None:
            yield from self._py_pass()
            return
        if self.dataset is not None:
            for element in self.dataset:
                yield self._weighted(element)
            return
        if self.generator is not None:
            first, rest = self.generator
            for element in itertools.chain(first, rest):
                yield element
            return
        order = self._order() if self.shuffle else None
        for start in range(0, self.n, self.size):
            # unshuffled, a batch is a slice (a view: the step's tensors copy it, as host_array does)
            idx = order[start:start + self.size] if order is not None else slice(start, start + self.size)
            y = _take(self.y, idx) if self.y is not None else None
            sw = self.sample_weight[idx] if self.sample_weight is not None else None
            yield self._weighted(pack(_take(self.x, idx), y, sw))

    def _order(self):
        """Keras's TensorFlow adapter shuffles with ``tf.random.shuffle`` in a dataset function: under
        a global seed, the same order each epoch; else any. ``"batch"``: each batch's samples among
        themselves."""
        if self.shuffle != "batch":
            orders = function_permutations([self.n])
            return np.random.permutation(self.n) if orders is None else orders[0]
        starts = range(0, self.n, self.size)
        sizes = [min(self.size, self.n - start) for start in starts]
        orders = function_permutations(sizes) or [np.random.permutation(size) for size in sizes]
        return np.concatenate([start + order for start, order in zip(starts, orders)]).astype(np.int64)

    def _py_pass(self):
        """One pass over a ``PyDataset``'s batches (in a shuffled order when asked)."""
        count = self.num_batches
        order = list(range(count)) if count is not None else itertools.count()
        if self.shuffle and count is not None:
            random.shuffle(order)
        for index in order:
            yield self._weighted(standardize(self.py_dataset[index]))

    def _weighted(self, batch):
        if self.class_weight is None:
            return batch
        x, y, sw = unpack(batch)
        if sw is not None:
            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
        return x, y, class_weights(y, self.class_weight)

    def __iter__(self):
        """``(step, batch)`` for one epoch (a ``PyDataset``'s epoch hooks around it)."""
        if self.py_dataset is None:
            yield from self._epoch()
            return
        self.py_dataset.on_epoch_begin()
        yield from self._epoch()
        self.py_dataset.on_epoch_end()

    def reset(self) -> None:
        """Keras's ``EpochIterator.reset`` as ``fit``/``evaluate`` begin: a fresh pass, and a
        ``PyDataset``'s ``on_epoch_end`` (Keras calls it there too)."""
        self._iterator, self._seen = None, 0
        if self.py_dataset is not None:
            self.py_dataset.on_epoch_end()

    def _epoch(self):
        steps = self.steps_per_epoch or self.num_batches or -1
        if steps < 0:
            yield from enumerate(self._pass())
            return
        if self._iterator is None or self.steps_per_epoch is None:
            self._iterator, self._seen = self._pass(), 0
        for step in range(steps):
            if self.num_batches and self._seen >= self.num_batches:
                if self.steps_per_epoch:
                    warnings.warn(_RAN_OUT, stacklevel=2)
                break
            self._seen += 1
            try:
                batch = next(self._iterator)
            except StopIteration:
                warnings.warn(_RAN_OUT, stacklevel=2)
                return
            yield step, batch
        if self.num_batches and self._seen >= self.num_batches:
            self._iterator, self._seen = self._pass(), 0


def split_validation(x, y, sample_weight, validation_split, validation_data):
    """Keras keeps the last ``validation_split`` of the samples (before any shuffling) for validation."""
    if not validation_split or validation_data is not None:
        return x, y, sample_weight, validation_data
    x, y = _array(x), _targets(y)
    cut = int(_length(x) * (1.0 - validation_split))
    sw = np.asarray(sample_weight) if sample_weight is not None else None
    validation = pack(_take(x, slice(cut, None)), _take(y, slice(cut, None)), sw[cut:] if sw is not None else None)
    return _take(x, slice(0, cut)), _take(y, slice(0, cut)), (sw[:cut] if sw is not None else None), validation
