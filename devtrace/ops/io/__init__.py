"""``tf.io``'s ops and formats: TFRecord files (:mod:`.tfrecord`), TensorFlow's protocol buffers
(:mod:`.proto_schema`, :mod:`.messages`, :mod:`.example_proto`) and the ops that read them."""
