"""Keras's masks: a layer that makes one (``Embedding(mask_zero=True)``, ``Masking``) attaches it to
its output, as Keras 3's TensorFlow backend sets ``tensor._keras_mask``; the next layer whose
``call`` takes ``mask`` receives it, and a layer that ``supports_masking`` passes it on
(``compute_mask``). devtrace's tensors have fixed slots, so the masks are kept here, by the
tensor's identity, for as long as the tensor lives; ``tensor._keras_mask`` reads and sets them."""

from __future__ import annotations

import weakref

from ..runtime.tensor import Tensor

_MASKS: dict = {}  # id(tensor) -> (weak reference to the tensor, mask)


def set_mask(tensor, mask) -> None:
    if mask is None or tensor is None:
        return
    try:
        ref = weakref.ref(tensor, lambda _, key=id(tensor): _MASKS.pop(key, None))
    except TypeError:  # a value that cannot be referenced weakly carries no mask
        return
    _MASKS[id(tensor)] = (ref, mask)


def get_mask(tensor):
    entry = _MASKS.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None
    return entry[1]


def _attribute(tensor):
    mask = get_mask(tensor)
    if mask is None:
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute '_keras_mask'")
    return mask


def _delete(tensor) -> None:
    _MASKS.pop(id(tensor), None)


# Keras code reads and writes the mask as an attribute (``x._keras_mask``), as on TensorFlow's tensors
# (the ops install the operators on the same class: see ``runtime/tensor.py``).
Tensor._keras_mask = property(_attribute, set_mask, _delete)


def input_mask(inputs):
    """The mask the inputs carry (a list of inputs: the list of their masks, or None if none has one)."""
    if isinstance(inputs, (list, tuple)):
        masks = [get_mask(x) for x in inputs]
        return masks if any(m is not None for m in masks) else None
    return get_mask(inputs)
