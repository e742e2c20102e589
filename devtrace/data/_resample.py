"""``Dataset.rejection_resample``: TensorFlow's scheme — each element's class by ``class_func``, a
per-class acceptance probability ``a_i = (r_i - m) / (max r - m)`` for the ratios ``r = target /
initial`` (``m = min r``), and the output mixed from two passes over the dataset: the original
(with probability ``m``) and the accepted elements, until either pass ends. Without
``initial_dist`` the initial distribution is estimated as TensorFlow does: counts that start at 10
per class, updated a batch of 32 elements at a time. The draws are NumPy's for ``seed``, not
TensorFlow's stream, so the elements kept differ from TensorFlow's; the scheme, the output's
structure ``(class, element)`` and its class balance are TensorFlow's."""

from __future__ import annotations

import itertools

import numpy as np

from ..runtime.tensor import Tensor

_BATCH, _SMOOTHING = 32, 10


def _array(value) -> np.ndarray:
    return np.asarray(value.numpy() if isinstance(value, Tensor) else value, np.float32).reshape(-1)


def _acceptance(initial, target):
    """``(a, m)``: the per-class acceptance probabilities and the probability of the original."""
    ratio = target / (initial + np.finfo(np.float32).tiny)
    low, high = ratio.min(), ratio.max()
    with np.errstate(divide="ignore", invalid="ignore"):
        return (ratio - low) / (high - low), float(low)


def _estimates(classed, target, initial):
    """``((a, m), chunk)``: the estimate for each chunk of elements of ``classed`` (elements
    ``(class, data)``): one chunk of all with ``initial``, else chunks of 32 (TensorFlow's batches)."""
    if initial is not None:
        yield _acceptance(initial, target), classed._source()
        return
    counts = np.full(len(target), _SMOOTHING, np.int64)
    it = classed._source()
    while True:
        chunk = list(itertools.islice(it, _BATCH))
        if not chunk:
            return
        for element in chunk:
            counts[int(np.asarray(element[0]))] += 1
        yield _acceptance((counts / counts.sum()).astype(np.float32), target), chunk


def rejection_resample(dataset, class_func, target_dist, initial_dist=None, seed=None):
    target = _array(target_dist)
    initial = None if initial_dist is None else _array(initial_dist)

    def add_class(*x):
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)
    classed = dataset.map(add_class)

    def accepted(rng):
        for (accept, _), chunk in _estimates(classed, target, initial):
            for element in chunk:
                if rng.uniform() < accept[int(np.asarray(element[0]))]:
                    yield element

    if initial is not None:
        static = float(np.min(target / initial))
        if static == 1:
            return classed
        if static == 0:
            return dataset._new(lambda: accepted(np.random.default_rng(seed)), classed._spec, -2, "_PrefetchDataset")

    def source():
        rng = np.random.default_rng(seed)
        originals, kept = classed._source(), accepted(rng)
        weights = itertools.repeat(_acceptance(initial, target)[1]) if initial is not None else (
            m for (_, m), _ in _estimates(classed, target, None) for _ in range(_BATCH))  # TF: 32 a batch
        for original_prob in weights:
            chosen = originals if rng.uniform() < original_prob else kept
            element = next(chosen, None)
            if element is None:
                return
            yield element
    return dataset._new(source, classed._spec, -2, "_DirectedInterleaveDataset")
