"""Keras's object names: ``to_snake_case`` and the process-wide unique names (``dense``, ``dense_1``)."""

from __future__ import annotations

import itertools
import re

_UIDS: dict = {}


def unique(base: str) -> str:
    """``backend.get_uid``: ``dense``, ``dense_1``, … per prefix, process-wide."""
    k = next(_UIDS.setdefault(base, itertools.count()))
    return base if k == 0 else f"{base}_{k}"


def snake(name: str) -> str:
    """Keras's ``to_snake_case``: ``MaxPooling2D`` → ``max_pooling2d``, ``Conv2D`` → ``conv2d``."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", re.sub(r"\W+", "", name))
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()
