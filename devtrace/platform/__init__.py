"""What devtrace tells about the platform it stands for: TensorFlow's logger (``tf_logging``), and
``tf.test``/``tf.sysconfig``/``device_lib``'s GPU and build questions (``device_lib``); TensorFlow keeps
these in ``python/platform`` and ``python/client``."""
