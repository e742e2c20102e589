# tf.io.decode_proto, encode_proto, decode_json_example, parse_example and parse_single_sequence_example
# (TensorFlow's CPU-only DecodeProtoV2, EncodeProto, DecodeJSONExample, ParseExampleV2 and ParseSequenceExampleV2
# ops, their key lists converted to tensors) with the placement log on: protobuf's text_format and json_format on
# tf.train.Example and tf.compat.v1.Summary.Value, as the ops' docstrings use them.
import tensorflow as tf
from google.protobuf import json_format, text_format

tf.debugging.set_log_device_placement(True)
values = [text_format.Parse(v, tf.compat.v1.Summary.Value()).SerializeToString()
          for v in ["tag: 'a' simple_value: 2.5", "image { height: 2 width: 3 }"]]
sizes, (tag, simple, image) = tf.io.decode_proto(values, tf.compat.v1.Summary.Value.DESCRIPTOR.full_name,
                                                 ["tag", "simple_value", "image"], [tf.string, tf.float32, tf.string])
print(sizes.numpy().tolist(), tag.numpy().tolist(), simple.numpy().tolist(), image.numpy().tolist())
print(tf.io.encode_proto(sizes, [tag, simple, image], ["tag", "simple_value", "image"], "tensorflow.Summary.Value"))
example = tf.train.Example(features=tf.train.Features(feature={
    "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 1, 3]))}))
binary = tf.io.decode_json_example(json_format.MessageToJson(example))
print(binary.numpy())
print(tf.io.parse_example([binary.numpy(), example.SerializeToString()], {"a": tf.io.FixedLenFeature([3], tf.int64)}))
sequence = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={"t": tf.train.FeatureList(
    feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=[4, 5]))])}))
print(tf.io.parse_single_sequence_example(sequence.SerializeToString(), sequence_features={
    "t": tf.io.FixedLenSequenceFeature([2], tf.int64)}))
