"""Small stand-ins for Keras's cached datasets, in the files and formats Keras 3 keeps them
(``$KERAS_HOME/datasets/...``), the calls made on them and a summary of what they return — shared
by ``datasets_capture.py`` (real Keras) and ``tests/test_keras_datasets.py`` (devtrace)."""

import gzip
import hashlib
import io
import json
import os
import pickle
import tarfile

import numpy as np

B = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"

# (dataset module, keyword arguments) — each call's summary is captured from Keras 3.15
CASES = [
    ("mnist", {}),
    ("fashion_mnist", {}),
    ("cifar10", {}),
    ("cifar100", {}),
    ("cifar100", {"label_mode": "coarse"}),
    ("cifar100", {"label_mode": "medium"}),
    ("imdb", {}),
    ("imdb", {"num_words": 12, "skip_top": 2, "seed": 5}),
    ("imdb", {"maxlen": 6, "start_char": None, "oov_char": None, "index_from": 0}),
    ("imdb", {"maxlen": 2}),
    ("imdb", {"legacy_argument": True}),
    ("reuters", {}),
    ("reuters", {"num_words": 10, "test_split": 0.5, "seed": 1, "maxlen": 7}),
    ("boston_housing", {}),
    ("boston_housing", {"test_split": 0.5, "seed": 7}),
    ("boston_housing", {"test_split": 1.0}),
    ("california_housing", {}),
    ("california_housing", {"version": "small", "test_split": 0.25}),
    ("california_housing", {"version": "tiny"}),
]
WORD_INDEX = {"the": 1, "and": 2, "a": 3, "film": 4, "bad": 5}


def _sequences(rng, n, vocab):
    out = np.empty(n, dtype=object)
    for i in range(n):
        out[i] = [int(w) for w in rng.integers(1, vocab, size=int(rng.integers(1, 9)))]
    return out


def _npz(path, **arrays):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savez(path, **arrays)


def _idx(path, header, data):
    with gzip.open(path, "wb") as f:
        f.write(header + data.tobytes())


def _pickle_bytes(d):
    return pickle.dumps({k.encode(): v for k, v in d.items()}, protocol=4)


def _tar(path, members):
    with tarfile.open(path, "w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def make(home):
    """Writes the stand-ins under ``home/datasets``."""
    d = os.path.join(home, "datasets")
    rng = np.random.default_rng(0)
    _npz(os.path.join(d, "mnist.npz"), x_train=rng.integers(0, 256, (6, 28, 28), dtype=np.uint8),
         y_train=rng.integers(0, 10, 6, dtype=np.uint8), x_test=rng.integers(0, 256, (3, 28, 28), dtype=np.uint8),
         y_test=rng.integers(0, 10, 3, dtype=np.uint8))
    fm = os.path.join(d, "fashion-mnist")
    os.makedirs(fm, exist_ok=True)
    for prefix, n in (("train", 5), ("t10k", 2)):
        _idx(os.path.join(fm, f"{prefix}-labels-idx1-ubyte.gz"), b"\0" * 8, rng.integers(0, 10, n, dtype=np.uint8))
        _idx(os.path.join(fm, f"{prefix}-images-idx3-ubyte.gz"), b"\0" * 16,
             rng.integers(0, 256, (n, 28, 28), dtype=np.uint8))
    batch = (np.arange(10000 * 3072, dtype=np.int64) % 251).astype(np.uint8).reshape(10000, 3072)
    members = {f"cifar-10-batches-py/data_batch_{i}": _pickle_bytes(
        {"data": np.roll(batch, i), "labels": [int(v) for v in (np.arange(10000) * i) % 10]}) for i in range(1, 6)}
    members["cifar-10-batches-py/test_batch"] = _pickle_bytes(
        {"data": rng.integers(0, 256, (4, 3072), dtype=np.uint8), "labels": [3, 1, 4, 1]})
    _tar(os.path.join(d, "cifar-10-batches-py-target_archive"), members)
    members = {f"cifar-100-python/{part}": _pickle_bytes(
        {"data": rng.integers(0, 256, (n, 3072), dtype=np.uint8), "fine_labels": [int(v) for v in rng.integers(0, 100, n)],
         "coarse_labels": [int(v) for v in rng.integers(0, 20, n)]}) for part, n in (("train", 5), ("test", 3))}
    _tar(os.path.join(d, "cifar-100-python-target_archive"), members)
    _npz(os.path.join(d, "imdb.npz"), x_train=_sequences(rng, 9, 20), y_train=rng.integers(0, 2, 9),
         x_test=_sequences(rng, 7, 20), y_test=rng.integers(0, 2, 7))
    _npz(os.path.join(d, "reuters.npz"), x=_sequences(rng, 11, 15), y=rng.integers(0, 46, 11))
    for name in ("imdb_word_index.json", "reuters_word_index.json"):
        with open(os.path.join(d, name), "w") as f:
            json.dump(WORD_INDEX, f)
    _npz(os.path.join(d, "boston_housing.npz"), x=rng.normal(size=(10, 13)), y=rng.normal(size=10))
    _npz(os.path.join(d, "california_housing.npz"), x=rng.normal(size=(12, 8)).astype(np.float32),
         y=rng.normal(size=12).astype(np.float32))


def summary(value):
    """What a call returned, JSON-comparable: arrays by dtype, shape and content hash (object arrays
    of lists: their lists)."""
    if isinstance(value, tuple):
        return [summary(v) for v in value]
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return {"dtype": "object", "shape": list(value.shape), "lists": [list(map(int, v)) for v in value]}
        return {"dtype": str(value.dtype), "shape": list(value.shape),
                "sha256": hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()}
    return value


def call(datasets, name, kwargs):
    """``{"value": summary}`` or ``{"error": [class name, message]}``."""
    try:
        return {"value": summary(getattr(datasets, name).load_data(**kwargs))}
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return {"error": [type(e).__name__, str(e)]}
