"""``tf.train.Example`` and its parts (``Features``, ``Feature``, ``BytesList``, ``FloatList``,
``Int64List``), ``tf.train.SequenceExample``'s (``FeatureLists``, ``FeatureList``) and
``tf.compat.v1.Summary`` (``HistogramProto``, ``SummaryMetadata``) under TensorFlow's names: the
classes :mod:`.messages` makes from :mod:`.proto_schema` (protobuf's when it is installed)."""

from __future__ import annotations

from ..declare import public
from .messages import CLASSES

BytesList = CLASSES["tensorflow.BytesList"]
FloatList = CLASSES["tensorflow.FloatList"]
Int64List = CLASSES["tensorflow.Int64List"]
Feature = CLASSES["tensorflow.Feature"]
Features = CLASSES["tensorflow.Features"]
FeatureList = CLASSES["tensorflow.FeatureList"]
FeatureLists = CLASSES["tensorflow.FeatureLists"]
Example = CLASSES["tensorflow.Example"]
SequenceExample = CLASSES["tensorflow.SequenceExample"]
Summary = public("compat.v1.Summary")(CLASSES["tensorflow.Summary"])
HistogramProto = public("compat.v1.HistogramProto")(CLASSES["tensorflow.HistogramProto"])
SummaryMetadata = public("compat.v1.SummaryMetadata")(CLASSES["tensorflow.SummaryMetadata"])
