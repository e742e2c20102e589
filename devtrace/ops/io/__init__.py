"""``tf.io``'s ops and formats: TFRecord files (:mod:`.tfrecord`) and ``tf.train.Example``'s
protocol buffers (:mod:`.example_proto`)."""
