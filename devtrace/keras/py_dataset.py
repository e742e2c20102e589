"""``keras.utils.PyDataset`` (and its old name ``Sequence``): batches by index, ``len`` of them,
``on_epoch_begin``/``on_epoch_end`` hooks. ``workers``, ``use_multiprocessing`` and
``max_queue_size`` are taken as Keras takes them; devtrace reads the batches in order on the
calling thread (Keras's ordered enqueuer yields the same batches in the same order)."""

from __future__ import annotations

import itertools
import warnings


class PyDataset:
    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers, self._use_multiprocessing, self._max_queue_size = workers, use_multiprocessing, max_queue_size

    def _warn_if_super_not_called(self):
        missing = False
        for name, default in (("_workers", 1), ("_use_multiprocessing", False), ("_max_queue_size", 10)):
            if not hasattr(self, name):
                setattr(self, name, default)
                missing = True
        if missing:
            warnings.warn("Your `PyDataset` class should call `super().__init__(**kwargs)` in its constructor. "
                          "`**kwargs` can include `workers`, `use_multiprocessing`, `max_queue_size`. Do not pass "
                          "these arguments to `fit()`, as they will be ignored.", stacklevel=2)

    @property
    def workers(self):
        self._warn_if_super_not_called()
        return self._workers

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        self._warn_if_super_not_called()
        return self._use_multiprocessing

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        self._warn_if_super_not_called()
        return self._max_queue_size

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        raise NotImplementedError

    def __iter__(self):
        try:
            count = self.num_batches
        except NotImplementedError:
            count = None
        for index in range(count) if count is not None else itertools.count():
            yield self[index]

    @property
    def num_batches(self):
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError("You need to implement the `num_batches` property:\n\n"
                                  "@property\ndef num_batches(self):\n  return ...")

    def on_epoch_begin(self):
        pass

    def on_epoch_end(self):
        pass


Sequence = PyDataset


def standardize(batch, class_weight=None):
    """A ``__getitem__`` result as ``fit`` takes it (Keras's ``PyDatasetAdapter``)."""
    import numpy as np

    if isinstance(batch, dict):
        return batch
    if isinstance(batch, np.ndarray):
        batch = (batch,)
    if isinstance(batch, list):
        batch = tuple(batch)
    if not isinstance(batch, tuple) or len(batch) not in {1, 2, 3}:
        raise ValueError("PyDataset.__getitem__() must return a tuple or a dict. If a tuple, it must be ordered either "
                         "(input,) or (inputs, targets) or (inputs, targets, sample_weights). "
                         f"Received: {str(batch)[:100]}... of type {type(batch)}")
    return batch[0] if len(batch) == 1 else batch
