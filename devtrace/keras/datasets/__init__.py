"""``keras.datasets``: Keras's small datasets, read from Keras's own cache (``files``)."""

from __future__ import annotations

from ...util.namespace import missing
from . import boston_housing, california_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters

__getattr__ = missing("keras.datasets")

__all__ = ["boston_housing", "california_housing", "cifar10", "cifar100", "fashion_mnist", "imdb", "mnist",
           "reuters"]
