"""``Dataset.save``/``Dataset.load`` (and ``tf.data.experimental.save``/``load``) in devtrace's
own layout: the elements as one TFRecord file of ``serialize_tensor`` records (one a component, in
order) beside ``devtrace_dataset.json``, the element structure. TensorFlow's snapshot format
(protobuf metadata, chunked snapshot files) is not written or read: loading a directory TensorFlow
saved says so in one line."""

from __future__ import annotations

import json
import os

import numpy as np

from ..ops.io import io_ops, tfrecord
from ..runtime import dtypes

SPEC_FILE, DATA_FILE = "devtrace_dataset.json", "00000000.tfrecord"


def spec_to_json(spec):
    if isinstance(spec, dict):
        return {"dict": {k: spec_to_json(v) for k, v in spec.items()}}
    if isinstance(spec, tuple):
        return {"tuple": [spec_to_json(s) for s in spec]}
    if type(spec).__name__ != "TensorSpec":
        raise NotImplementedError(f"devtrace does not implement tf.data.Dataset.save of {type(spec).__name__} "
                                  f"elements yet")
    return {"dtype": spec.dtype.name, "shape": None if spec.shape.rank is None else list(spec.shape.as_list())}


def spec_from_json(data, tensor_spec):
    """The saved structure; a dict's keys sorted, as TensorFlow's saved element spec comes back."""
    if "dict" in data:
        return {k: spec_from_json(data["dict"][k], tensor_spec) for k in sorted(data["dict"])}
    if "tuple" in data:
        return tuple(spec_from_json(v, tensor_spec) for v in data["tuple"])
    return tensor_spec(data["shape"], dtypes.as_dtype(data["dtype"]))


def save(elements, spec, leaves, path, compression=None):
    """``elements``: the dataset's element structures of host arrays; ``leaves``: one's components."""
    os.makedirs(path, exist_ok=True)
    with tfrecord.TFRecordWriter(os.path.join(path, DATA_FILE), compression) as writer:
        for element in elements:
            for leaf in leaves(element):
                dtype = dtypes.string if np.asarray(leaf).dtype.kind in "SUO" else dtypes.as_dtype(leaf.dtype)
                writer.write(io_ops._serialize_tensor(np, leaf, dtype.name)[()])
    with open(os.path.join(path, SPEC_FILE), "w") as f:
        json.dump({"element_spec": spec_to_json(spec), "compression": compression or ""}, f)


def load(path, tensor_spec):
    """``(element_spec, records source)``: the saved structure and a function yielding each element's components."""
    meta = os.path.join(path, SPEC_FILE)
    if not os.path.exists(meta):
        if os.path.isdir(path):
            raise NotImplementedError(f"devtrace does not implement tf.data.Dataset.load of a dataset TensorFlow "
                                      f"saved yet ({path})")
        raise FileNotFoundError(f"{path}: no saved dataset there")
    with open(meta) as f:
        saved = json.load(f)
    spec = spec_from_json(saved["element_spec"], tensor_spec)

    def components():
        for record in tfrecord.tf_record_iterator(os.path.join(path, DATA_FILE), saved["compression"]):
            yield record
    return spec, components


def parse(record: bytes, dtype):
    return io_ops._parse_tensor(np, np.asarray(record, dtype=object), dtype.name)
