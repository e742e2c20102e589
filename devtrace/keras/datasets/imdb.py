"""``keras.datasets.imdb``: movie reviews as word indices (``imdb.npz``) and the word index
(``imdb_word_index.json``)."""

from __future__ import annotations

import json

import numpy as np

from .files import get_file, load_npz, sequences, vocabulary


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2,
              index_from=3, **kwargs):  # Keras 3 takes and ignores Keras 2's keywords
    path = get_file(fname=path, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/imdb.npz",
                    file_hash="69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f")
    f = load_npz(path)
    rng = np.random.RandomState(seed)
    parts = []
    for x, y in ((f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])):
        order = np.arange(len(x))
        rng.shuffle(order)
        parts.append(sequences(x[order], y[order], maxlen, start_char, index_from))
    (x_train, labels_train), (x_test, labels_test) = parts
    if maxlen and (not x_train or not x_test):
        raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no sequence was kept. "
                         "Increase maxlen.")
    xs = vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    n = len(x_train)
    return (np.array(xs[:n], dtype="object"), labels[:n]), (np.array(xs[n:], dtype="object"), labels[n:])


def get_word_index(path="imdb_word_index.json"):
    path = get_file(fname=path, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/imdb_word_index.json", file_hash="bfafd718b763782e994055a2d397834f")
    with open(path) as f:
        return json.load(f)
