"""``tf.train.Example`` and its parts (``Features``, ``Feature``, ``BytesList``, ``FloatList``,
``Int64List``), ``tf.train.SequenceExample``'s (``FeatureLists``, ``FeatureList``) and
``tf.compat.v1.Summary`` (``HistogramProto``, ``SummaryMetadata``) under TensorFlow's names: the
classes :mod:`.messages` makes from :mod:`.proto_schema` (protobuf's when it is installed), made
when one is first read."""

from __future__ import annotations

from .messages import CLASSES

NAMES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList", "FeatureLists", "Example",
         "SequenceExample", "Summary", "HistogramProto", "SummaryMetadata")


def __getattr__(name):
    if name not in NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return CLASSES[f"tensorflow.{name}"]
