"""``keras.datasets.cifar100``: Keras's ``cifar-100-python-target`` archive, fine or coarse labels."""

from __future__ import annotations

import os

import numpy as np

from ..home import image_data_format
from .files import get_file, load_batch


def load_data(label_mode="fine"):
    if label_mode not in ["fine", "coarse"]:
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: label_mode={label_mode}.')
    path = get_file(fname="cifar-100-python-target", origin="https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz",
                    extract=True, file_hash="85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7")
    path = os.path.join(path, "cifar-100-python")
    out = []
    for part in ("train", "test"):
        x, y = load_batch(os.path.join(path, part), label_key=f"{label_mode}_labels")
        y = np.reshape(y, (len(y), 1))
        out.append((x.transpose(0, 2, 3, 1) if image_data_format() == "channels_last" else x, y))
    return tuple(out)
