"""``keras.datasets.reuters``: newswires as word indices (``reuters.npz``), their word index and
topic names."""

from __future__ import annotations

import json

import numpy as np

from .files import get_file, load_npz, sequences, vocabulary

_LABELS = ("cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply", "coffee", "sugar",
           "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp",
           "meal-feed", "alum", "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi",
           "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver",
           "wpi", "hog", "lead")


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113, start_char=1,
              oov_char=2, index_from=3):
    path = get_file(fname=path, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/reuters.npz",
                    file_hash="d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916")
    f = load_npz(path)
    xs, labels = f["x"], f["y"]
    order = np.arange(len(xs))
    np.random.RandomState(seed).shuffle(order)
    xs, labels = sequences(xs[order], labels[order], maxlen, start_char, index_from)
    xs = vocabulary(xs, num_words, skip_top, oov_char)
    n = int(len(xs) * (1 - test_split))
    return ((np.array(xs[:n], dtype="object"), np.array(labels[:n])),
            (np.array(xs[n:], dtype="object"), np.array(labels[n:])))


def get_word_index(path="reuters_word_index.json"):
    path = get_file(path, origin="https://storage.googleapis.com/tensorflow/tf-keras-datasets/reuters_word_index.json", file_hash="4d44cc38712099c9e383dc6e5f11a921")
    with open(path) as f:
        return json.load(f)


def get_label_names():
    return _LABELS
